import tilelang.language as T


@T.prim_func
def short(A: T.Tensor((16,), T.float32), B: T.Tensor((16,), T.float32)):
    with T.Kernel(1, threads=1):
        x = A[0:8]
        B[0:8] = x
        B[0:4] = x
