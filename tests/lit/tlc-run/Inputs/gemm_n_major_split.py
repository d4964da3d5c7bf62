# A wgmma gemm whose N-major B ([K, N]) is split between two warpgroups
# (GemmWarpPolicy.FullCol, 256 threads): each warpgroup's instructions
# start at column N / 2, which must begin a swizzle atom row of B's layout
# (linear_attention/example_retnet's acc_s_cast @ V_shared, dim_v 448).
import tilelang
import tilelang.language as T


@tilelang.jit
def gemm_n_major_split(M=64, N=448, K=64, threads=256):

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=threads) as bx:
            A_s = T.alloc_shared((M, K), "float16")
            B_s = T.alloc_shared((K, N), "float16")
            C_f = T.alloc_fragment((M, N), "float32")
            T.copy(A, A_s)
            T.copy(B, B_s)
            T.clear(C_f)
            T.gemm(A_s, B_s, C_f, policy=T.GemmWarpPolicy.FullCol)
            T.copy(C_f, C)

    return main


gemm_n_major_split()
