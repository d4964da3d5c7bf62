import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul_tr(M, N, K, block_M=64, block_N=64, block_K=32, threads=256, trans_A=True,
              trans_B=False, k_pack=1, in_dtype=T.float16,
              accum_dtype=T.float32):
    A_shape = (K, M) if trans_A else (M, K)
    A_tile = (block_K, block_M) if trans_A else (block_M, block_K)
    B_shape = (N, K) if trans_B else (K, N)
    B_tile = (block_N, block_K) if trans_B else (block_K, block_N)

    @T.prim_func
    def main(A: T.Tensor(A_shape, in_dtype), B: T.Tensor(B_shape, in_dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_s = T.alloc_shared(A_tile, in_dtype)
            B_s = T.alloc_shared(B_tile, in_dtype)
            acc = T.alloc_fragment((block_M, block_N), accum_dtype)
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


# A stored [K, M] and B [K, N] (both MN-contiguous), 16x16 tiles.
k_tn_16 = matmul_tr(1024, 1024, 1024, block_N=32)
# bf16, A [K, M], B [N, K]: 32x32 tiles.
k_tt_32 = matmul_tr(1024, 1024, 1024, block_M=128, block_N=128, trans_B=True, in_dtype=T.bfloat16)
# f16 NN (B MN-contiguous), 32x32 tiles, k_pack 2 (8 values a lane: two reads).
k_nn_kpack = matmul_tr(1024, 1024, 1024, trans_A=False, k_pack=2)
# bf16 TN, 16x16 tiles, k_pack 2.
k_tn_kpack = matmul_tr(1024, 1024, 1024, block_N=32, k_pack=2, in_dtype=T.bfloat16)
# 8-bit operands (ds_read_b64_tr_b8 on gfx950): int8 TN at 16x16 tiles,
k_i8_tn_16 = matmul_tr(1024, 1024, 1024, block_N=32, in_dtype=T.int8, accum_dtype=T.int32)
# int8 TT at 32x32 tiles (A [K, M] transposed, B [N, K] K-contiguous),
k_i8_tt_32 = matmul_tr(1024, 1024, 1024, block_M=128, block_N=128, trans_B=True,
                       in_dtype=T.int8, accum_dtype=T.int32)
# fp8 e4m3 NN with k_pack 2 (16 values a lane: two reads of 8 k rows).
k_f8_nn_kpack = matmul_tr(1024, 1024, 1024, block_K=64, trans_A=False, k_pack=2,
                          in_dtype=T.float8_e4m3fn)
