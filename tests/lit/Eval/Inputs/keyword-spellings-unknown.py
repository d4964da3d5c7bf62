# A keyword no TileLang release has stays an error (keyword-spellings.py).
import tilelang
import tilelang.language as T


@T.prim_func
def bad(A: T.Tensor((128,), T.float32), B: T.Tensor((128,), T.float32)):
    with T.Kernel(1, threads=32):
        # not a T.copy keyword in any release
        T.copy(A, B, cache_policy="cg")
