# An assertion on what a TVM IR visitor collected cannot be checked (tlc
# builds no TVM IR for the callback to walk); TileLang runs such a program
# without trouble, so it is a remark, once: also in a test nothing calls
# (traced as a function that defines a prim_func: before, a plain
# "AssertionError: assertion failed" warning), and in a test the module
# calls, which the same trace used to report a second time.
# RUN: tlc-build --check %s 2>&1 | FileCheck %s --implicit-check-not="warning:" --implicit-check-not="error:" --implicit-check-not="remark:"
# CHECK-DAG: tvm-ir-visitor-uncalled.py:38:12: remark: tlc cannot check this assertion (in module-level code): it may test what the TVM IR visitor called at line 17 collected
# CHECK-DAG: tvm-ir-visitor-uncalled.py:28:12: remark: tlc cannot check this assertion (in test_uncalled): it may test what the TVM IR visitor called at line 17 collected
import tilelang
import tilelang.language as T
from tvm import tir


def collect(f):
    found = []
    tir.stmt_functor.post_order_visit(f.body, lambda n: found.append(n))
    return found


def test_uncalled():
    @T.prim_func
    def zero(A: T.Tensor((128,), T.float32)):
        with T.Kernel(1, threads=128) as bx:
            for i in T.Parallel(128):
                A[i] = 0.0

    assert len(collect(zero)) == 3


def test_called():
    @T.prim_func
    def one(A: T.Tensor((128,), T.float32)):
        with T.Kernel(1, threads=128) as bx:
            for i in T.Parallel(128):
                A[i] = 1.0

    assert len(collect(one)) == 2


test_called()
