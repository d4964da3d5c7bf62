# C = A @ B^T in bfloat16 with an f32 accumulator: B stored (N, K)
# (transpose_B), 4 wavefronts of 64 on a 64 x 64 tile, two LDS stages.

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def gemm_bf16(M=100, N=70, K=96, block_M=64, block_N=64, block_K=32):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), T.bfloat16),
        B: T.Tensor((N, K), T.bfloat16),
        C: T.Tensor((M, N), T.float32),
    ):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), T.bfloat16)
            B_s = T.alloc_shared((block_N, block_K), T.bfloat16)
            C_f = T.alloc_fragment((block_M, block_N), T.float32)
            T.clear(C_f)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, ko * block_K], A_s)
                T.copy(B[bx * block_N, ko * block_K], B_s)
                T.gemm(A_s, B_s, C_f, transpose_B=True)
            T.copy(C_f, C[by * block_M, bx * block_N])

    return main
