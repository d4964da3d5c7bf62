# T.fill / T.clear of part of a fragment (test_tilelang_language_alias.py's
# `X_local = C_local[:block_M, :block_K]; T.clear(X_local)`): each thread
# writes those of its registers whose element lies in the region; the CUDA
# target used to refuse it. Three forms: a static region of a gemm
# accumulator (mma.sync on sm_80, wgmma on sm_90a), a region at a
# block-dependent offset of a T.Parallel fragment, and a region that is a
# single row. The CPU target is checked against NumPy; the CUDA code runs
# on the sim device against the CPU target.
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda --no-source-lines %s | FileCheck %s
# CHECK-LABEL: void __launch_bounds__(128) fill_part_kernel(
# CHECK: // T.clear
# CHECK: // T.clear
# CHECK: for (int [[R:r_[0-9]+]] = 0; [[R]] < 32; ++[[R]]) {
# CHECK-NEXT: const int [[X:x1[_0-9]*]] = {{.*}}[[R]]
# CHECK-NEXT: if ([[X]] < 32) C_local[[[R]]] = 0;
# CHECK: // T.fill
# CHECK: if ({{x0[_0-9]*}} >= [[OFF:t_[0-9]+]] && {{x0[_0-9]*}} < ([[OFF]]) + 16 && {{x1[_0-9]*}} >= 8 && {{x1[_0-9]*}} < 24) D_local[{{r_[0-9]+}}] = -2.0f;
# CHECK: // T.fill
# CHECK: if ({{x0[_0-9]*}} >= 63 && {{x0[_0-9]*}} < 64) D_local[{{r_[0-9]+}}] = 3.0f;
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 5 --save %t/out > /dev/null
# RUN: %python %S/Inputs/fragment_fill_part_check.py %t/out | FileCheck %s --check-prefix=REF
# REF: fill_part OK
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/sm80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm80 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# SIM: verify C: PASS
# SIM: verify D: PASS
# SIM-NOT: FAIL
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2, 3])
def fill_part(M=128, N=64, K=32, block_M=64, block_N=64):

    @T.prim_func
    def main(A: T.Tensor((M, K), T.float16), B: T.Tensor((K, N), T.float16),
             C: T.Tensor((M, N), T.float32), D: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, K), T.float16)
            B_shared = T.alloc_shared((K, block_N), T.float16)
            C_local = T.alloc_fragment((block_M, block_N), T.float32)
            D_local = T.alloc_fragment((block_M, block_N), T.float32)
            T.copy(A[by * block_M, 0], A_shared)
            T.copy(B[0, bx * block_N], B_shared)
            T.clear(C_local)
            T.gemm(A_shared, B_shared, C_local)
            X_local = C_local[:block_M, :32]
            T.clear(X_local)
            for i, j in T.Parallel(block_M, block_N):
                D_local[i, j] = C_local[i, j] + 1.0
            T.fill(D_local[by * 8:by * 8 + 16, 8:24], -2.0)
            T.fill(D_local[block_M - 1, :], 3.0)
            T.copy(C_local, C[by * block_M, bx * block_N])
            T.copy(D_local, D[by * block_M, bx * block_N])

    return main


fill_part()
