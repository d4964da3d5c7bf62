# T.gemm with K not a multiple of mma.sync's k (16 for f16), for
# gemm-odd-k-sim.test: TileLang's CUDA lowering falls back to scalar FMA
# (upstream test_tilelang_issue_gemm_non_mma_k_fallback). K = k_blocks *
# block_K; `fault=1` multiplies only the first 16 columns of each K block
# (the divisible part without its tail: a planted fault).
import tilelang
import tilelang.language as T


@tilelang.jit
def gemm_odd_k(M=64, N=64, block_K=20, k_blocks=1, accum="float32",
               trans_B=0, fault=0):
    K = block_K * k_blocks
    kk = 16 if fault else block_K
    B_shape = (N, K) if trans_B else (K, N)
    Bs_shape = (N, block_K) if trans_B else (block_K, N)

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor(B_shape, "float16"),
             C: T.Tensor((M, N), accum)):
        with T.Kernel(1, threads=128):
            A_shared = T.alloc_shared((M, block_K), "float16")
            B_shared = T.alloc_shared(Bs_shape, "float16")
            C_local = T.alloc_fragment((M, N), accum)
            T.clear(C_local)
            for k in T.Pipelined(k_blocks, num_stages=2):
                T.copy(A[0, k * block_K], A_shared)
                if trans_B:
                    T.copy(B[0, k * block_K], B_shared)
                    T.gemm(A_shared[:, 0:kk], B_shared[:, 0:kk], C_local,
                           transpose_B=True)
                else:
                    T.copy(B[k * block_K, 0], B_shared)
                    T.gemm(A_shared[:, 0:kk], B_shared[0:kk, :], C_local)
            T.copy(C_local, C)

    return main
