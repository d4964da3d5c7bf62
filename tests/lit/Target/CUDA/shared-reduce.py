# T.reduce_* whose source is a shared buffer, into shared memory (the
# reduced dimension dropped or kept with extent 1) or into a whole fragment
# (with clear=False too): the CUDA and HIP targets refused them ("reduces
# whole fragments into fragments only"). Each output element is folded by
# one thread between block barriers. The CPU target is checked against
# NumPy; the CUDA code runs on the sim device (sm_80, sm_90a) against NumPy
# and the CPU.
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK: // T.reduce_sum
# CHECK-NEXT: __syncthreads();
# CHECK: for (int [[O:o[_0-9]*]] = tid; [[O]] < (64); [[O]] += 128) {
# CHECK: for (int [[I:i[_0-9]*]] = 0; [[I]] < 96; ++[[I]]) {
# CHECK-NEXT: [[ACC:acc[_0-9]*]] = [[ACC]] + (float)xs[
# CHECK: rows[{{.*}}] = [[ACC]];
# CHECK: __syncthreads();
# CHECK: // T.reduce_max
# CHECK: if (tid < 96) {
# CHECK: cols[r{{[_0-9]*}}] = acc
# RUN: tlc-build --target=hip:gfx942 --emit=hip --no-source-lines %s | FileCheck %s --check-prefix=HIP
# HIP: // T.reduce_sum
# HIP-NOT: error
# RUN: %if nvcc %{ rm -rf %t.nv && env TLC_CACHE_DIR=%t.cache tlc-build --target=cuda:sm_90a --no-cache -o %t.nv %s | FileCheck %s --check-prefix=BUILT %}
# BUILT: wrote {{.*}}shared_reduce.cubin
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 4 --save %t/out > /dev/null
# RUN: %python %S/Inputs/shared_reduce_check.py %t/out | FileCheck %s --check-prefix=REF
# REF: sum OK max OK absmax OK min OK accumulate OK
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --seed 4 --save %t/sm80out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/shared_reduce_check.py %t/sm80out | FileCheck %s --check-prefix=REF %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --seed 4 --save %t/sm90out > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/shared_reduce_check.py %t/sm90out | FileCheck %s --check-prefix=REF %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-5: PASS
# SIM-NOT: FAIL
import tilelang
import tilelang.language as T


@tilelang.jit
def shared_reduce(M=64, N=96):

    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Rows: T.Tensor((M,), "float32"),
             Cols: T.Tensor((N,), "float32"), Amax: T.Tensor((M, 1), "float32"),
             Mins: T.Tensor((M,), "float32"), Acc: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=128) as _:
            xs = T.alloc_shared((M, N), "float32")
            rows = T.alloc_shared((M,), "float32")
            cols = T.alloc_fragment((N,), "float32")
            amax = T.alloc_shared((M, 1), "float32")
            mins = T.alloc_fragment((M,), "float32")
            acc = T.alloc_fragment((N,), "float32")
            T.copy(X, xs)
            T.fill(acc, 1.0)
            T.reduce_sum(xs, rows, dim=1)
            T.reduce_max(xs, cols, dim=0)
            T.reduce_absmax(xs, amax, dim=1)
            T.reduce_min(xs, mins, dim=1)
            T.reduce_sum(xs, acc, dim=0, clear=False)
            T.copy(rows, Rows)
            T.copy(cols, Cols)
            T.copy(amax, Amax)
            T.copy(mins, Mins)
            T.copy(acc, Acc)

    return main


shared_reduce()
