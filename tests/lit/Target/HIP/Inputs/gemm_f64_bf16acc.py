import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul_types(M, N, K, block_M=64, block_N=64, block_K=32, threads=256, trans_A=False,
                 trans_B=False, k_pack=1, in_dtype=T.float64, accum_dtype=T.float64,
                 reg_A=False):
    A_shape = (K, M) if trans_A else (M, K)
    A_tile = (block_K, block_M) if trans_A else (block_M, block_K)
    B_shape = (N, K) if trans_B else (K, N)
    B_tile = (block_N, block_K) if trans_B else (block_K, block_N)

    @T.prim_func
    def main(A: T.Tensor(A_shape, in_dtype), B: T.Tensor(B_shape, in_dtype),
             C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            if reg_A:
                A_s = T.alloc_fragment(A_tile, in_dtype)
            else:
                A_s = T.alloc_shared(A_tile, in_dtype)
            B_s = T.alloc_shared(B_tile, in_dtype)
            acc = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=1):
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


# float64 operands into a float64 accumulator: 2 x 2 wavefronts of 32 x 32,
# four v_mfma_f64_16x16x4f64 per 16x16 tile and K step of 16.
k_f64_nn = matmul_types(1024, 1024, 1024)
k_f64_tt = matmul_types(1024, 1024, 1024, block_N=32, trans_A=True, trans_B=True)
k_f64_kpack = matmul_types(1024, 1024, 1024, block_M=32, block_N=32, threads=64, k_pack=2,
                           trans_B=True)
# bfloat16 operands into a bfloat16 accumulator (rounded after every 16 k).
k_bf16acc_nn = matmul_types(1024, 1024, 1024, in_dtype=T.bfloat16, accum_dtype=T.bfloat16)
k_bf16acc_tn = matmul_types(1024, 1024, 1024, block_N=32, trans_A=True, in_dtype=T.bfloat16,
                            accum_dtype=T.bfloat16)
# f16 / bf16 into float32 with k_pack 2: on gfx950 one v_mfma_f32_16x16x32_f16
# (_bf16) per pair of 16-k groups, 32x32x16 on 32x32 tiles.
k_f16_kpack16 = matmul_types(1024, 1024, 1024, block_N=32, k_pack=2, in_dtype=T.float16,
                             accum_dtype=T.float32)
k_bf16_kpack32 = matmul_types(1024, 1024, 1024, block_M=128, block_N=128, k_pack=2,
                              trans_B=True, in_dtype=T.bfloat16, accum_dtype=T.float32)
# float64 with A in registers (the 16-bit operand atoms: 4 values of a
# 16-wide K chunk per lane). tlc-build builds 8 instances of a factory.
k_f64_reg_a = matmul_types(1024, 1024, 1024, reg_A=True)
