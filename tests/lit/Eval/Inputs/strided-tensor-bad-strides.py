# Strides that are not one integer or symbol per dimension
# (tests/lit/Eval/strided-tensor-strides.py).
import tilelang.language as T


@T.prim_func
def rank(A: T.StridedTensor[(64, 32), (1,), T.float32]):
    with T.Kernel(1, threads=32):
        pass


@T.prim_func
def negative(A: T.StridedTensor((64, 32), (-32, 1), T.float32)):
    with T.Kernel(1, threads=32):
        pass


@T.prim_func
def floats(A: T.StridedTensor((64, 32), (32.0, 1), T.float32)):
    with T.Kernel(1, threads=32):
        pass
