# For ws-wider-use-sim.test: warp_specialize's gemm_copy_gemm_0_1 reduced.
# Each warpgroup (T.ws) multiplies into its own accumulator; the stores of
# both accumulators (and, with `epilogue=1`, a T.Parallel that scales one)
# run on the whole block after the branches.
import tilelang
import tilelang.language as T


@tilelang.jit
def ws_wider_use(M=64, N=64, K=64, block_K=32, epilogue=0):
    half = N // 2

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=256):
            A_s = T.alloc_shared((M, block_K), "float16")
            B0_s = T.alloc_shared((block_K, half), "float16")
            B1_s = T.alloc_shared((block_K, half), "float16")
            C0 = T.alloc_fragment((M, half), "float32")
            C1 = T.alloc_fragment((M, half), "float32")
            T.clear(C0)
            T.clear(C1)
            for ko in T.Pipelined(K // block_K, num_stages=0):
                T.copy(A[0, ko * block_K], A_s)
                with T.ws(1):
                    T.copy(B[ko * block_K, 0], B1_s)
                    T.gemm(A_s, B1_s, C1)
                with T.ws(0):
                    T.copy(B[ko * block_K, half], B0_s)
                    T.gemm(A_s, B0_s, C0)
            if epilogue:
                for i, j in T.Parallel(M, half):
                    C1[i, j] = C1[i, j] * 2
            T.copy(C1, C[0, 0])
            T.copy(C0, C[0, half])

    return main
