# A -D value naming a module-level callable binds that callable: a function
# (`-Dfn=relu`), a functools.partial and a lambda assigned at module level
# (what the Python package appends to a copy of a script for a callable
# factory argument). A name that is not a callable global stays a string.
# RUN: tlc-build %s --emit=tile --target=cpu --kernel=ew --defines-only -DN=4 -Dfn=relu | FileCheck %s --check-prefix=RELU
# RUN: tlc-build %s --emit=tile --target=cpu --kernel=ew --defines-only -DN=4 -Dfn=half | FileCheck %s --check-prefix=HALF
# RUN: tlc-build %s --emit=tile --target=cpu --kernel=ew --defines-only -DN=4 -Dfn=square | FileCheck %s --check-prefix=SQUARE
# RUN: tlc-build %s --emit=tile --target=cpu --kernel=ew --defines-only -DN=4 "-Dfns=[half, relu]" | FileCheck %s --check-prefix=LIST
# RUN: not tlc-build %s --emit=tile --target=cpu --kernel=ew --defines-only -DN=4 -Dfn=COUNT 2>&1 | FileCheck %s --check-prefix=STR

# RELU: arith.maximumf
# HALF: arith.constant 5.000000e-01 : f32
# HALF: arith.mulf
# SQUARE: %[[V:.*]] = tile.load
# SQUARE: arith.mulf %[[V]], %[[V]]
# LIST: arith.constant 5.000000e-01 : f32
# LIST: arith.mulf
# LIST: arith.maximumf
# STR: error: TypeError: {{.*}}str{{.*}}

import functools

import tilelang
import tilelang.language as T

COUNT = 3


def relu(x):
    return T.max(x, 0)


def scale(x, s):
    return x * s


@tilelang.jit(out_idx=[1], target="cpu")
def ew(N, fn=None, fns=()):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=1):
            for i in T.serial(N):
                v = A[i]
                if fn is not None:
                    v = fn(v)
                for f in fns:
                    v = f(v)
                B[i] = v
    return main


half = functools.partial(scale, s=0.5)
square = lambda x: x * x  # noqa: E731
