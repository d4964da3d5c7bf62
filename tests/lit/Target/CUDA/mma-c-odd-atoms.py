# The mma accumulator of a warp tile whose count of n atoms is not a power
# of two (block_N 96 / 112 / 160 over 2 x 2 warps: 3 atoms of 16, 7 of 8,
# 5 of 16; 2 m atoms) keeps the n atoms outermost in the register order,
# so the register number stays linear in its bits (r = 16 n + 8 m + k
# instead of 24 m + 8 n + k, which the CUDA target could not index: "its
# thread/register map is not linear in the bits"; TileLang issue 2928's
# shapes on sm_80). The CPU target against float64 NumPy, then sm_80 on the
# sim device against the CPU target.
# RUN: tlc-build --target=cuda:sm_80 --emit=cuda %s | FileCheck %s
# CHECK-LABEL: gemm_nt_kernel(
# CHECK: float C_local[48];
# CHECK-LABEL: gemm_nt_1_kernel(
# CHECK: float C_local[56];
# CHECK-LABEL: gemm_nt_2_kernel(
# CHECK: float C_local[80];
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s
# RUN: tlc-run %t/cpu --seed 7 --save %t/out
# RUN: %python %S/Inputs/mma_c_odd_atoms_check.py %t/out | FileCheck %s --check-prefix=REF
# REF-COUNT-3: ok
# REF-NOT: BAD
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/c80 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/c80 --device sim --verify --reference %t/cpu --seed 7 | FileCheck %s --check-prefix=SIM %}
# gfx942 builds these through 32 x 32 mfma atoms (3 a wavefront), which
# were linear already: on the sim device against the CPU target too.
# RUN: %if sim-compiler && hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-run %t/hip --device sim --verify --reference %t/cpu --seed 7 | FileCheck %s --check-prefix=SIM %}
# SIM-COUNT-3: PASS
# SIM-NOT: FAIL

import tilelang
import tilelang.language as T


@tilelang.jit
def gemm_nt(M, N, K, block_M, block_N, block_K):
    dtype, accum_dtype = "float16", "float"

    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((N, K), dtype),
        C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_N, block_K), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[bx * block_N, k * block_K], B_shared)
                T.gemm(A_shared, B_shared, C_local, transpose_B=True)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


gemm_nt(64, 192, 64, 64, 96, 32)
gemm_nt(64, 112, 64, 64, 112, 32)
gemm_nt(64, 160, 64, 64, 160, 32)
