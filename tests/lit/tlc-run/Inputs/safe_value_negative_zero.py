import tilelang
import tilelang.language as T


@tilelang.jit
def rows(M=50, N=128, block_M=64, dtype="float16"):
    # Element reads past the tensor's last row give the annotated -0.0.

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), Out: T.Tensor((block_M, N), dtype)):
        with T.Kernel(1, threads=128):
            T.annotate_safe_value({A: T.cast(-0.0, dtype)})
            S = T.alloc_shared((block_M, N), dtype)
            for i, d in T.Parallel(block_M, N):
                S[i, d] = A[i, d]
            for i, d in T.Parallel(block_M, N):
                Out[i, d] = S[i, d]

    return main


@tilelang.jit
def tiles(M=50, N=64, block_M=64, dtype="float32"):
    # A tile copy that runs past the tensor (cp.async on sm_90a) gives
    # -0.0 there too: it may not zero-fill.

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), Out: T.Tensor((block_M, N), dtype)):
        with T.Kernel(1, threads=128):
            T.annotate_safe_value({A: -0.0})
            S = T.alloc_shared((block_M, N), dtype)
            for ko in T.Pipelined(2, num_stages=2):
                T.copy(A[0, 0], S)
            T.copy(S, Out)

    return main


rows()
tiles()
