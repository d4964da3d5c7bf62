# tlc-build --fast-math builds every instance as pass_configs=
# {TL_ENABLE_FAST_MATH: True} does (what the Python package passes for
# pass_configs given from Python, which the source does not show).
# RUN: tlc-build --emit=tile --fast-math %s | FileCheck %s --check-prefix=FAST
# RUN: tlc-build --emit=tile %s | FileCheck %s --check-prefix=IEEE
# RUN: tlc-build --emit=cuda --fast-math %s | FileCheck %s --check-prefix=CUDA
# FAST: tile.func @expo({{.*}}) attributes {fast_math}
# IEEE: tile.func @expo(
# IEEE-NOT: fast_math
# CUDA: __expf(

import tilelang
import tilelang.language as T


def expo(N, block=64):
    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), Y: T.Tensor((N,), T.float32)):
        with T.Kernel(T.ceildiv(N, block), threads=64) as bx:
            for i in T.Parallel(block):
                Y[bx * block + i] = T.exp(X[bx * block + i])
    return main


k = tilelang.compile(expo(256))
