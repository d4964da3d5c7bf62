# T.ptx_commit_group / T.ptx_wait_group after copies a program marks
# `prefer_async` (MInference's vertical-slash prefetch): tlc performs those
# copies as ordinary loads and stores, so the program's group holds no
# copy: the commit closes an empty group (the copies cp.async-groups.test
# covers, in an async_scope, are cp.async) and cp.async.wait_group waits
# for it; the CPU target has nothing in flight. Both refused these before
# ("not supported by the CUDA target yet", "the CPU target cannot emit").
# Checked against NumPy on the CPU target and on the sim device against
# the CPU target; a wait count that is not a constant is an error at the
# call.
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 3 --save %t/out > /dev/null
# RUN: %python -c "import numpy as np; d='%t/out/prefetch_reverse/'; a=np.load(d+'inputs/A.npy'); print(np.array_equal(np.load(d+'C.npy'), a[::-1] * 2))" | FileCheck %s --check-prefix=OUT
# OUT: True
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --kernel prefetch_reverse %s | FileCheck %s
# CHECK: // T.ptx_commit_group
# CHECK-NEXT: tlc::cuda::cpAsyncCommit();
# CHECK-NEXT: // T.ptx_wait_group
# CHECK-NEXT: tlc::cuda::cpAsyncWait<0>();
# RUN: tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 --kernel prefetch_reverse %s > /dev/null
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda --kernel prefetch_reverse %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --seed 3 --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify C: PASS
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda --kernel symbolic_wait %s 2>&1 | FileCheck %s --check-prefix=ERR
# ERR: error: {{.*}}needs a constant count of pending groups in 0..7

import tilelang
import tilelang.language as T


@tilelang.jit
def prefetch_reverse(N=256):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), C: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=128) as bx:
            S = T.alloc_shared((N,), "float32")
            for i in T.Parallel(N, prefer_async=True):
                S[i] = A[i]
            T.ptx_commit_group()
            T.ptx_wait_group(0)
            T.sync_threads()
            for i in T.Parallel(N):
                C[i] = S[N - 1 - i] * 2

    return main


@tilelang.jit
def symbolic_wait(N=64):

    @T.prim_func
    def main(A: T.Tensor((N,), "int32"), C: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            T.ptx_wait_group(A[0])
            for i in T.Parallel(N):
                C[i] = 1.0

    return main


prefetch_reverse()
symbolic_wait()
