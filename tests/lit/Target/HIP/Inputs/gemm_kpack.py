import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul_kpack(M, N, K, block_M=64, block_N=64, block_K=64, k_pack=2, trans_B=False, threads=256,
                 in_dtype=T.float16, accum_dtype=T.float32):
    B_shape = (N, K) if trans_B else (K, N)
    B_tile = (block_N, block_K) if trans_B else (block_K, block_N)

    @T.prim_func
    def main(A: T.Tensor((M, K), in_dtype), B: T.Tensor(B_shape, in_dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), in_dtype)
            B_s = T.alloc_shared(B_tile, in_dtype)
            acc = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, ko * block_K], A_s)
                if trans_B:
                    T.copy(B[bx * block_N, ko * block_K], B_s)
                else:
                    T.copy(B[ko * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, acc, transpose_B=trans_B, k_pack=k_pack)
            T.copy(acc, C[by * block_M, bx * block_N])

    return main


kernel_f16 = matmul_kpack(1024, 1024, 1024)
kernel_bf16_t = matmul_kpack(1024, 1024, 1024, trans_B=True, in_dtype=T.bfloat16)
kernel_i8 = matmul_kpack(1024, 1024, 1024, in_dtype=T.int8, accum_dtype=T.int32)
kernel_fp8_t = matmul_kpack(1024, 1024, 1024, trans_B=True, in_dtype=T.float8_e4m3fn)
