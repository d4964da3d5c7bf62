# int8 / uint8 T.gemm into an int32 accumulator, for mfma-uint8.test.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul_u8(M, N, K, block_M=32, block_N=64, block_K=64, trans_B=True, threads=256,
              a_dtype=T.int8, b_dtype=T.uint8):
    B_shape = (N, K) if trans_B else (K, N)
    B_tile = (block_N, block_K) if trans_B else (block_K, block_N)

    @T.prim_func
    def main(A: T.Tensor((M, K), a_dtype), B: T.Tensor(B_shape, b_dtype), C: T.Tensor((M, N), T.int32)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), a_dtype)
            B_s = T.alloc_shared(B_tile, b_dtype)
            acc = T.alloc_fragment((block_M, block_N), T.int32)
            T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, ko * block_K], A_s)
                if trans_B:
                    T.copy(B[bx * block_N, ko * block_K], B_s)
                else:
                    T.copy(B[ko * block_K, bx * block_N], B_s)
                T.gemm(A_s, B_s, acc, transpose_B=trans_B)
            T.copy(acc, C[by * block_M, bx * block_N])

    return main


# 16x16 MFMA tiles: TN int8 x uint8, NN uint8 x int8; 32x32 tiles (block_M
# 64): TN uint8 x uint8.
k_s8_u8 = matmul_u8(1024, 1024, 1024)
k_u8_s8 = matmul_u8(1024, 1024, 1024, trans_B=False, a_dtype=T.uint8, b_dtype=T.int8)
k_u8_u8 = matmul_u8(1024, 1024, 1024, block_M=64, a_dtype=T.uint8, b_dtype=T.uint8)
