# Input of tile-plan-fragment-exchanges.mlir: loops and copies over gemm
# accumulators, some of which read or write fragments at elements other
# threads hold.

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def exchanges(M=64, N=64, K=32, dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(1, threads=128) as (bx):
            A_shared = T.alloc_shared((M, K), dtype)
            B_shared = T.alloc_shared((K, N), dtype)
            C1 = T.alloc_fragment((M, N), accum_dtype)
            C2 = T.alloc_fragment((M, N), accum_dtype)
            C3 = T.alloc_fragment((M, N), accum_dtype)
            D = T.alloc_fragment((M, N), accum_dtype)
            E = T.alloc_fragment((M, N), accum_dtype)
            s = T.alloc_fragment((1,), accum_dtype)
            T.copy(A[0, 0], A_shared)
            T.copy(B[0, 0], B_shared)
            T.clear(C1)
            T.gemm(A_shared, B_shared, C1)
            T.clear(C2)
            T.gemm(A_shared, B_shared, C2)
            s[0] = 0.5
            # Every fragment at the loop variables, in one layout: nothing
            # to exchange (s is every thread's own, read whole).
            for i, j in T.Parallel(M, N):
                E[i, j] = C1[i, j] * s[0]
            # C1 and C2 read transposed: both exchanged, C1 in the area's
            # first tile, C2 in the second.
            for i, j in T.Parallel(M, N):
                D[i, j] = C1[j, i] + C2[j, i]
            # C2 written transposed: exchanged (and loaded back).
            for i, j in T.Parallel(M, N):
                C2[j, i] = C2[j, i] * 2.0 + D[i, j]
            # A copy between the 2 x 2-warp accumulator and a FullRow one.
            T.copy(C2, C3)
            T.gemm(A_shared, B_shared, C3, policy=T.GemmWarpPolicy.FullRow)
            T.copy(C3, C[0, 0])
            T.copy(E, C[0, 0])

    return main
