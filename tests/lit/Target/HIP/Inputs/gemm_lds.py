# GEMMs whose LDS operand tiles the HIP target swizzles for the MFMA reads
# (tile::planLdsSwizzles): 4 wavefronts of 32 x 16 (16x16 MFMA tiles) and
# 32 x 32, every operand order, bf16 / f16 / int8 and k_pack 2.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def gemm_lds(M, N, K, block_M=64, block_N=32, block_K=32, trans_A=False, trans_B=False,
             k_pack=1, in_dtype=T.bfloat16, acc_dtype=T.float32):
    A_shape = (K, M) if trans_A else (M, K)
    A_tile = (block_K, block_M) if trans_A else (block_M, block_K)
    B_shape = (N, K) if trans_B else (K, N)
    B_tile = (block_N, block_K) if trans_B else (block_K, block_N)

    @T.prim_func
    def main(A: T.Tensor(A_shape, in_dtype), B: T.Tensor(B_shape, in_dtype),
             C: T.Tensor((M, N), acc_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=256) as (bx, by):
            A_s = T.alloc_shared(A_tile, in_dtype)
            B_s = T.alloc_shared(B_tile, in_dtype)
            acc = T.alloc_fragment((block_M, block_N), acc_dtype)
            T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                if trans_A:
                    T.copy(A[ko * block_K, by * block_M], A_s)
                else:
                    T.copy(A[by * block_M, ko * block_K], A_s)
                if trans_B:
                    T.copy(B[bx * block_N, ko * block_K], B_s)
                else:
                    T.copy(B[ko * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, acc, transpose_A=trans_A, transpose_B=trans_B, k_pack=k_pack)
            T.copy(acc, C[by * block_M, bx * block_N])

    return main


# 16x16x16 bf16, A [M, K] and B [K, N]: A K-contiguous, B N-contiguous.
k_bf16_nn = gemm_lds(1024, 1024, 1024)
# 16x16x16 f16, A [K, M] and B [N, K]: both the other way round.
k_f16_tt = gemm_lds(1024, 1024, 1024, trans_A=True, trans_B=True, in_dtype=T.float16)
# 16x16x32 int8 with an int32 accumulator, B [N, K]: 8-byte reads of both.
k_i8_nt = gemm_lds(1024, 1024, 1024, block_K=64, trans_B=True, in_dtype=T.int8,
                   acc_dtype=T.int32)
# 32x32x8 f16 with k_pack 2: 16-byte reads of A and B [N, K].
k_f16_kpack = gemm_lds(1024, 1024, 1024, block_N=64, trans_B=True, k_pack=2,
                       in_dtype=T.float16)
