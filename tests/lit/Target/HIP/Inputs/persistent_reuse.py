# The persistent gemm of Conformance/b-persistent-gemm.py with the number
# of persistent blocks as a parameter: each block loops over tiles of C,
# and C_shared (the epilogue) is live only after the K loop of a tile.
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def persistent_matmul(M, N, K, block_M=128, block_N=256, block_K=64,
                      blocks=3, num_stages=3, dtype=T.float16,
                      accum_dtype=T.float32):
    m_blocks = T.ceildiv(M, block_M)
    n_blocks = T.ceildiv(N, block_N)

    @T.prim_func
    def main(
        A: T.Tensor((M, K), dtype),
        B: T.Tensor((K, N), dtype),
        C: T.Tensor((M, N), dtype),
    ):
        with T.Kernel(blocks, threads=256) as (block_id):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            C_shared = T.alloc_shared((block_M, block_N), dtype)

            for bx, by in T.Persistent([m_blocks, n_blocks], blocks, block_id):
                T.clear(C_local)
                for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
                    T.copy(A[bx * block_M, k * block_K], A_shared)
                    T.copy(B[k * block_K, by * block_N], B_shared)
                    T.gemm(A_shared, B_shared, C_local)
                T.copy(C_local, C_shared)
                T.copy(C_shared, C[bx * block_M, by * block_N])

    return main


kernel = persistent_matmul(8192, 8192, 4096)
