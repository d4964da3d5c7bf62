# GEMMs for tile-gemm-pingpong's lit test: one consumer warpgroup (128
# threads) accumulates a whole 128 x 128 tile. `variant` picks the body:
#   relu   an elementwise epilogue on the accumulator (one fragment: the
#          kernel qualifies),
#   scaled the accumulator scaled by a second fragment (two fragments in a
#          T.Parallel: the printer may exchange them through shared memory,
#          so the kernel does not qualify),
#   tri    a K loop whose trip count depends on the tile (each warpgroup
#          could not step over the other's tile: does not qualify).

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul(M, N, K, variant="relu", block_M=128, block_N=128, block_K=64, num_stages=3,
           dtype=T.float16, accum_dtype=T.float32):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            S_local = T.alloc_fragment((block_M, block_N), accum_dtype)

            T.clear(C_local)
            if variant == "scaled":
                T.fill(S_local, 0.5)
            steps = T.ceildiv(K, block_K)
            if variant == "tri":
                steps = T.min(T.ceildiv(K, block_K), by + 1)
            for ko in T.Pipelined(steps, num_stages=num_stages):
                T.copy(A[by * block_M, ko * block_K], A_shared)
                T.copy(B[ko * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            if variant == "scaled":
                for i, j in T.Parallel(block_M, block_N):
                    C_local[i, j] = C_local[i, j] * S_local[i, j]
            else:
                for i, j in T.Parallel(block_M, block_N):
                    C_local[i, j] = T.max(C_local[i, j], 0)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main
