# "float8_e4m3" is the target's e4m3: float8_e4m3fn on the CPU target,
# float8_e4m3fnuz on gfx942 (mfma-fp8-fnuz.test verifies across them).
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def matmul_e4m3(M, N, K, block_M=64, block_N=64, block_K=64, trans_B=True, threads=256,
                in_dtype="float8_e4m3"):
    B_shape = (N, K) if trans_B else (K, N)
    B_tile = (block_N, block_K) if trans_B else (block_K, block_N)

    @T.prim_func
    def main(A: T.Tensor((M, K), in_dtype), B: T.Tensor(B_shape, in_dtype),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
            A_s = T.alloc_shared((block_M, block_K), in_dtype)
            B_s = T.alloc_shared(B_tile, in_dtype)
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


kernel = matmul_e4m3(1024, 1024, 1024)
