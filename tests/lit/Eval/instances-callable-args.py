# Each distinct callable passed to a kernel factory is its own instance:
# a lambda showed in the instance label as `<function <lambda>>`, so every
# lambda of a parametrized test had one label and only the first case was
# traced (the second case's kernel, and its error, went unseen:
# instances-callable-args-error.py). The label
# now shows the lambda's source and the values it reads from enclosing
# function scopes; the same callable passed twice is still one instance.
# RUN: tlc-build --emit=tile %s 2>&1 | FileCheck %s
import pytest
import tilelang
import tilelang.language as T


@tilelang.jit
def apply(fn, n=64):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=64):
            for i in T.Parallel(n):
                B[i] = fn(A[i])

    return main


def scaled(k):
    return lambda x: x * k


# CHECK: tile.func @apply(
# CHECK: arith.addf
# CHECK: tile.func @apply_1(
# CHECK: arith.mulf
# CHECK: tile.func @apply_2(
# CHECK: arith.mulf
# CHECK-NOT: tile.func
@pytest.mark.parametrize("fn", [lambda x: x + 1.0, lambda x: x * 2.0, scaled(3.0), scaled(3.0)])
def test_apply(fn):
    apply(fn)

