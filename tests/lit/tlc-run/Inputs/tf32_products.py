# tf32-products.test: a float32 gemm of float32 operands and a float32
# copy, each scaled by `scale` (1 here; the test builds it again with
# -Dscale=1.003).
import tilelang
import tilelang.language as T


@tilelang.jit
def mm(M=64, N=64, K=32, scale=1.0):

    @T.prim_func
    def main(A: T.Tensor((M, K), "float32"), B: T.Tensor((K, N), "float32"),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(1, threads=128) as b:
            A_s = T.alloc_shared((M, K), "float32")
            B_s = T.alloc_shared((K, N), "float32")
            C_l = T.alloc_fragment((M, N), "float32")
            T.copy(A, A_s)
            T.copy(B, B_s)
            T.gemm(A_s, B_s, C_l, clear_accum=True)
            for i, j in T.Parallel(M, N):
                C_l[i, j] = C_l[i, j] * T.float32(scale)
            T.copy(C_l, C)

    return main


@tilelang.jit
def cp(M=64, N=64, scale=1.0):

    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Y: T.Tensor((M, N), "float32")):
        with T.Kernel(M, threads=64) as b:
            for j in T.Parallel(N):
                Y[b, j] = X[b, j] * T.float32(scale)

    return main


mm()
cp()
