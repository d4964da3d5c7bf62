# T.gemm with a register-fragment operand and K not a multiple of
# mma.sync's k (16 for f16), for gemm-odd-k-registers-sim.test: `regs=1`
# holds A in a fragment (gemm_rs), `regs=2` holds B (gemm_sr). K =
# k_blocks * block_K.
import tilelang
import tilelang.language as T


@tilelang.jit
def gemm_odd_k_regs(M=64, N=64, block_K=20, k_blocks=1, accum="float32",
                    trans_B=0, regs=1):
    K = block_K * k_blocks
    B_shape = (N, K) if trans_B else (K, N)
    Bs_shape = (N, block_K) if trans_B else (block_K, N)

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor(B_shape, "float16"),
             C: T.Tensor((M, N), accum)):
        with T.Kernel(1, threads=128):
            A_shared = T.alloc_shared((M, block_K), "float16")
            B_shared = T.alloc_shared(Bs_shape, "float16")
            A_local = T.alloc_fragment((M, block_K), "float16")
            B_local = T.alloc_fragment(Bs_shape, "float16")
            C_local = T.alloc_fragment((M, N), accum)
            T.clear(C_local)
            for k in T.Pipelined(k_blocks, num_stages=2):
                T.copy(A[0, k * block_K], A_shared)
                if trans_B:
                    T.copy(B[0, k * block_K], B_shared)
                else:
                    T.copy(B[k * block_K, 0], B_shared)
                if regs == 1:
                    T.copy(A_shared, A_local)
                    T.gemm(A_local, B_shared, C_local, transpose_B=trans_B)
                else:
                    T.copy(B_shared, B_local)
                    T.gemm(A_shared, B_local, C_local, transpose_B=trans_B)
            T.copy(C_local, C)

    return main
