import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul_dtypes(M, N, K, block_M=128, block_N=128, block_K=32, threads=256, trans_A=False,
                  trans_B=False, reg_A=False, k_pack=1, in_dtype=T.float32,
                  accum_dtype=T.float32):
    A_shape = (K, M) if trans_A else (M, K)
    A_tile = (block_K, block_M) if trans_A else (block_M, block_K)
    B_shape = (N, K) if trans_B else (K, N)
    B_tile = (block_N, block_K) if trans_B else (block_K, block_N)

    @T.prim_func
    def main(A: T.Tensor(A_shape, in_dtype), B: T.Tensor(B_shape, in_dtype),
             C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            if reg_A:
                A_t = T.alloc_fragment(A_tile, in_dtype)
            else:
                A_t = T.alloc_shared(A_tile, in_dtype)
            B_s = T.alloc_shared(B_tile, in_dtype)
            acc = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=1):
                if trans_A:
                    T.copy(A[ko * block_K, by * block_M], A_t)
                else:
                    T.copy(A[by * block_M, ko * block_K], A_t)
                if trans_B:
                    T.copy(B[bx * block_N, ko * block_K], B_s)
                else:
                    T.copy(B[ko * block_K, bx * block_N], B_s)
                T.gemm(A_t, B_s, acc, transpose_A=trans_A, transpose_B=trans_B, k_pack=k_pack)
            T.copy(acc, C[by * block_M, bx * block_N])

    return main


# float32 operands, float32 accumulator. 2 x 2 wavefronts of 64 x 64: four
# v_mfma_f32_32x32x2f32 per K step of 8.
k_f32_nn = matmul_dtypes(1024, 1024, 1024)
k_f32_tt = matmul_dtypes(1024, 1024, 1024, trans_A=True, trans_B=True)
k_f32_reg_a = matmul_dtypes(1024, 1024, 1024, block_M=64, block_N=64, reg_A=True, trans_B=True)
k_f32_kpack = matmul_dtypes(1024, 1024, 1024, block_M=64, block_N=64, k_pack=2)
# 2 x 2 wavefronts of 32 x 16: four v_mfma_f32_16x16x4f32 per K step of 16.
k_f32_small = matmul_dtypes(1024, 1024, 1024, block_M=64, block_N=32, trans_B=True)
# float16 operands into a float16 accumulator.
k_f16acc_nn = matmul_dtypes(1024, 1024, 1024, in_dtype=T.float16, accum_dtype=T.float16)
k_f16acc_small = matmul_dtypes(1024, 1024, 1024, block_M=64, block_N=32, trans_A=True,
                               in_dtype=T.float16, accum_dtype=T.float16)
