# A region copy inside T.Parallel stays an error (copy-element-in-parallel.py).
import tilelang
import tilelang.language as T


@tilelang.jit
def rows(M=64, N=32):

    @T.prim_func
    def main(A: T.Tensor((M, N), T.float16), B: T.Tensor((M, N), T.float16)):
        with T.Kernel(1, threads=128):
            for i in T.Parallel(M):
                T.copy(A[i, 0:N], B[i, 0:N])

    return main


rows()
