# thread-count-unbound.py: a thread count only the launch knows.
import tilelang
import tilelang.language as T


@tilelang.jit
def copy_n(A, B):
    n = T.dynamic("n")
    A: T.Tensor((n,), "float32")
    B: T.Tensor((n,), "float32")
    with T.Kernel(1, threads=n) as bx:
        for i in T.Parallel(n):
            B[i] = A[i]
