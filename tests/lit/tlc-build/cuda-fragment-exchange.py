# A T.Parallel that reads a gemm accumulator transposed needs elements held
# by other threads: the CUDA target says so at the access, naming both
# layouts, instead of emitting wrong code.
# RUN: not tlc-build --target=cuda:sm_90a -o %t %s 2>&1 | FileCheck %s
# CHECK: cuda-fragment-exchange.py:[[# @LINE + 25]]:17: error: fragment layouts disagree: the element a thread visits in the loop (mma.C · 2×2 warps · 32 regs/thread) is held by another thread in mma.C · 2×2 warps · 32 regs/thread (needs a shared-memory exchange, not supported by the CUDA target yet)
# CHECK-NEXT: D_local[i, j] = C_local[j, i]

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def tr(M=64, N=64, K=32, dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        C: T.Tensor((M, N), accum_dtype),
    ):
        with T.Kernel(1, threads=128) as (bx):
            A_shared = T.alloc_shared((M, K), dtype)
            B_shared = T.alloc_shared((K, N), dtype)
            C_local = T.alloc_fragment((M, N), accum_dtype)
            D_local = T.alloc_fragment((M, N), accum_dtype)
            T.copy(A[0, 0], A_shared)
            T.copy(B[0, 0], B_shared)
            T.clear(C_local)
            T.gemm(A_shared, B_shared, C_local)
            for i, j in T.Parallel(M, N):
                D_local[i, j] = C_local[j, i]
            T.copy(D_local, C[0, 0])

    return main
