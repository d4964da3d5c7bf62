import some_unknown_package
from another_unknown_package import helper

import tilelang.language as T

N = some_unknown_package.size(helper)


@T.prim_func
def k(A: T.Tensor((128,), T.float32)):
    with T.Kernel(1, threads=128) as bx:
        for i in T.Parallel(128):
            A[i] = 0.0
