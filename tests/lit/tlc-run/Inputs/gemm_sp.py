# A 2:4-sparse GEMM (T.gemm_sp) in the public example_gemm_sp's form, for
# tlc-run's tests: float16 A_sparse [M, K/2], int16 metadata [M, K/16].
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def gemm_sp(M=128, N=64, K=128, block_M=64, block_N=64, block_K=64,
            e_factor=16, e_dtype="int16"):

    @T.prim_func
    def main(A_sparse: T.Tensor((M, K // 2), "float16"),
             E: T.Tensor((M, K // e_factor), e_dtype),
             B: T.Tensor((K, N), "float16"),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M),
                      threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K // 2), "float16")
            E_shared = T.alloc_shared((block_M, block_K // e_factor), e_dtype)
            B_shared = T.alloc_shared((block_K, block_N), "float16")
            C_local = T.alloc_fragment((block_M, block_N), "float32")
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A_sparse[by * block_M, k * block_K // 2], A_shared)
                T.copy(E[by * block_M, k * block_K // e_factor], E_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm_sp(A_shared, E_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main
