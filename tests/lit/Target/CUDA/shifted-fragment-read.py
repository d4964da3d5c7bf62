# A T.Parallel that reads a fragment at its variables plus an offset the
# loop does not change (DeepSeek V3.2 sparse MLA backward's split store:
# `for s in range(2): for bi, d in T.Parallel(BS, D): if bi < BS // 2:
# S[bi, d] = acc[bi + s * (BS // 2), d]`). The loop runs over the slots of
# `acc` (iteration v on the thread holding element v + offset) instead of
# exchanging all of `acc` through shared memory, which put that kernel
# 64 KiB over sm_90's shared memory. Three forms: a runtime offset under
# an `if` that narrows the loop, a constant offset on a smaller loop, and
# offsets in both dimensions. The CPU target is checked against NumPy; the
# CUDA code (mma.sync on sm_80, wgmma on sm_90a) runs on the sim device
# (racecheck) against the CPU target.
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK-LABEL: void __launch_bounds__(128) split_store_kernel(
# CHECK-NOT: exchange area
# CHECK: // T.Parallel
# CHECK: for (int [[R:r_[0-9]+]] = 0; [[R]] < {{[0-9]+}}; ++[[R]]) {
# CHECK: const int [[I:i0[_0-9]*]] = {{x0[_0-9]*}} - ([[S:[a-z_0-9]+]] * 32);
# CHECK: if ([[I]] >= 0 && [[I]] < 32)
# CHECK: = acc[[[R]]];
# CHECK-NOT: exchange area
# CHECK: }
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 7 --save %t/out > /dev/null
# RUN: %python %S/Inputs/shifted_fragment_read_check.py %t/out | FileCheck %s --check-prefix=REF
# REF: split_store OK
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify Out: PASS
# SIM: verify Corner: PASS
# SIM-NOT: FAIL
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3])
def split_store(M=64, N=64, K=32, split=2):
    half = M // split

    @T.prim_func
    def main(A: T.Tensor((M, K), T.float16), B: T.Tensor((K, N), T.float16),
             Out: T.Tensor((M, N), T.float32), Corner: T.Tensor((16, 32), T.float32)):
        with T.Kernel(1, threads=128):
            A_shared = T.alloc_shared((M, K), T.float16)
            B_shared = T.alloc_shared((K, N), T.float16)
            acc = T.alloc_fragment((M, N), T.float32)
            S = T.alloc_shared((half, N), T.float32)
            C = T.alloc_shared((16, 32), T.float32)
            T.copy(A, A_shared)
            T.copy(B, B_shared)
            T.clear(acc)
            T.gemm(A_shared, B_shared, acc)
            for s in range(split):
                for i, j in T.Parallel(M, N):
                    if i < half:
                        S[i, j] = acc[i + s * half, j]
                for i, j in T.Parallel(half, N):
                    Out[i + s * half, j] = S[i, j] * (s + 1)
            for i, j in T.Parallel(16, N):
                S[i, j] = acc[i + 40, j] + 1.0
            for i, j in T.Parallel(16, 32):
                C[i, j] = acc[i + 8, j + 24] - S[i, j]
            T.copy(C, Corner)

    return main


split_store()
