# The second lambda of a parametrized test is traced too (its own
# instance, instances-callable-args.py), so its error is reported: the
# first case alone checks clean.
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s
import pytest
import tilelang
import tilelang.language as T


@tilelang.jit
def apply(fn, n=64):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=64):
            for i in T.Parallel(n):
                B[i] = fn(A, i)

    return main


# CHECK: instances-callable-args-error.py:[[@LINE+2]]:{{[0-9]+}}: error:
# CHECK: note: in instance apply(<lambda a, i: a[i, 0]>)
@pytest.mark.parametrize("fn", [lambda a, i: a[i], lambda a, i: a[i, 0]])
def test_apply(fn):
    apply(fn)
