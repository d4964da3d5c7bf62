# fp8 T.gemm with A and B in different formats (e4m3 x e5m2), for
# mfma-fp8-mixed.test.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul_mixed(M, N, K, block_M=64, block_N=64, block_K=64, trans_B=True, threads=256,
                 a_dtype=T.float8_e4m3fn, b_dtype=T.float8_e5m2):
    B_shape = (N, K) if trans_B else (K, N)
    B_tile = (block_N, block_K) if trans_B else (block_K, block_N)

    @T.prim_func
    def main(A: T.Tensor((M, K), a_dtype), B: T.Tensor(B_shape, b_dtype), C: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), a_dtype)
            B_s = T.alloc_shared(B_tile, b_dtype)
            acc = T.alloc_fragment((block_M, block_N), T.float32)
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


# 16x16 MFMA tiles (block_M 32 with 256 threads), TN e4m3 x e5m2 and NN
# e5m2 x e4m3; then 32x32 tiles (block_M 64); then the FNUZ formats.
k_tn = matmul_mixed(1024, 1024, 1024, block_M=32)
k_nn = matmul_mixed(1024, 1024, 1024, block_M=32, trans_B=False, a_dtype=T.float8_e5m2,
                    b_dtype=T.float8_e4m3fn)
k_tn_32 = matmul_mixed(1024, 1024, 1024)
k_fnuz = matmul_mixed(1024, 1024, 1024, block_M=32, a_dtype=T.float8_e4m3fnuz,
                      b_dtype=T.float8_e5m2fnuz)
