# `PrimFunc.body` as a TIR-shaped tree (tvm.tirx node classes and
# stmt_functor.post_order_visit, built from tlc's Tile IR: tilelang/_tir.py
# says what it models), for prim_funcs defined at module level and inside
# test functions whose later lines tlc cannot evaluate; values checked
# against CPython's own evaluation of the same expressions, and the kernel
# built from such a function against NumPy.

import numpy as np
import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
from tvm import tirx

TABLE = [(j * 7) % 5 for j in range(10)]


@T.prim_func
def folded(B: T.Tensor((4,), "int32")):
    with T.Kernel(2, 3, threads=64):
        table = [(j * 7) % 5 for j in range(10)]
        squares = {i: i * i for i in range(5)}
        B[0] = table[8]
        B[1] = squares[4] - 1
        B[2] = sum(x for x in range(6) if x % 2)
        B[3] = len([(i, j) for i in range(4) for j in range(i)])


def test_node_class_modules():
    # `from tvm.tir.stmt import IfThenElse` (issue 2119's test): TVM's
    # modules of the node classes hold the classes of tvm.tir / tvm.tirx.
    from tvm.tir.stmt import IfThenElse, For, BufferStore
    from tvm.tirx.expr import BufferLoad, Min
    import tvm
    assert IfThenElse is tirx.IfThenElse and For is tirx.For
    assert BufferStore is tvm.tir.BufferStore
    assert BufferLoad is tirx.BufferLoad and Min is tvm.tir.Min
    assert tvm.tir.stmt.SeqStmt is tirx.SeqStmt
    assert len(visit(folded, IfThenElse)) == 0
    assert len(visit(folded, BufferStore)) == 4


def visit(func, cls):
    found = []
    tirx.stmt_functor.post_order_visit(
        func.body, lambda n: found.append(n) if isinstance(n, cls) else None)
    return found


def test_folded_stores_and_kernel():
    stores = visit(folded, tirx.BufferStore)
    assert [int(s.value) for s in stores] == [
        TABLE[8], 4 * 4 - 1, sum(x for x in range(6) if x % 2),
        len([(i, j) for i in range(4) for j in range(i)])]
    assert [int(s.indices[0]) for s in stores] == [0, 1, 2, 3]
    assert all(s.buffer.name == "B" and s.buffer.scope() == "global"
               for s in stores)
    kernel, = visit(folded, tirx.AttrStmt)
    assert kernel.attr_key == "thread_extent"
    assert [int(v) for v in kernel.value] == [2, 3, 64]


def test_loops_conditions_and_vars():
    @T.prim_func
    def loops(A: T.Tensor((16,), "float32"), B: T.Tensor((16,), "int32")):
        with T.Kernel(1, threads=16):
            n = T.alloc_var("int32", init=5)
            for i in T.serial(1, 13, 3):
                if A[i] > 0.0:
                    n = n + 1
                else:
                    B[i] = 7
            for i, j in T.Parallel(4, 4):
                B[i * 4 + j] = n

    fors = visit(loops, tirx.For)
    serial = [f for f in fors if f.kind == "serial"]
    parallel = [f for f in fors if f.kind == "parallel"]
    assert len(serial) == 1 and len(parallel) == 2
    assert (int(serial[0].min), int(serial[0].extent), int(serial[0].step)) \
        == (1, 12, 3)
    assert [int(f.extent) for f in parallel] == [4, 4]
    var_stores = [s for s in visit(loops, tirx.BufferStore)
                  if s.buffer.scope() == "local.var"]
    # The init and the one assignment inside the condition.
    assert len(var_stores) == 2 and int(var_stores[0].value) == 5
    cond, = visit(loops, tirx.IfThenElse)
    assert isinstance(cond.then_case, tirx.BufferStore)
    assert int(cond.else_case.value) == 7


def test_min_max_and_expressions_visited():
    # TVM's post_order_visit visits the expressions of statements too
    # (TileLang's issue-2615 test counts the tirx.Min nodes of a store's
    # value); Min / Max carry their operation's dtype.
    @T.prim_func
    def clamp(A: T.Tensor((8,), "uint16"), B: T.Tensor((8,), "int32"),
              C: T.Tensor((8,), "uint16"), D: T.Tensor((8,), "int32")):
        with T.Kernel(1, threads=8):
            for i in T.serial(8):
                C[i] = T.min(A[i], T.uint16(300))
                D[i] = T.max(B[i], -3)

    order = []
    tirx.stmt_functor.post_order_visit(clamp.body, order.append)
    mins = [n for n in order if isinstance(n, tirx.Min)]
    maxs = [n for n in order if isinstance(n, tirx.Max)]
    assert [m.dtype for m in mins] == ["uint16"], mins
    assert [m.dtype for m in maxs] == ["int32"], maxs
    loads = [x for x in (mins[0].a, mins[0].b)
             if isinstance(x, tirx.BufferLoad)]
    assert [(x.buffer.name, x.dtype) for x in loads] == [("A", "uint16")]
    assert 300 in [int(x) for x in (mins[0].a, mins[0].b)
                   if isinstance(x, int)]
    assert -3 in [int(x) for x in (maxs[0].a, maxs[0].b)
                  if isinstance(x, int)]
    # Children first: the load of A, then the Min, then its store.
    store = next(n for n in order if isinstance(n, tirx.BufferStore) and
                 n.buffer.name == "C")
    assert order.index(loads[0]) < order.index(mins[0]) < \
        order.index(store)
    assert any(type(n).__name__ == "Var" and n.name == "i" for n in order)
    kernel = tilelang.compile(clamp)
    a = np.array([0, 1, 299, 300, 301, 1000, 65535, 7], dtype=np.uint16)
    b = np.array([-10, -3, -2, 0, 5, -4, 2**31 - 1, -2**31],
                 dtype=np.int32)
    c = np.zeros(8, np.uint16)
    d = np.zeros(8, np.int32)
    kernel(a, b, c, d)
    assert np.array_equal(c, np.minimum(a, np.uint16(300)))
    assert np.array_equal(d, np.maximum(b, np.int32(-3)))


@pytest.mark.parametrize("scale", [3, -2])
def test_defined_in_a_test_with_later_inspection(scale):
    # tlc builds this prim_func by evaluating this test function (scale
    # bound by -D), whose last line it cannot evaluate; the package then
    # builds the prim_func alone.

    @T.prim_func
    def axpy(X: T.Tensor((8,), "float64"), Y: T.Tensor((8,), "float64")):
        with T.Kernel(1, threads=8):
            for i in T.serial(8):
                Y[i] = Y[i] + scale * X[i]

    kernel = tilelang.compile(axpy)
    x = np.linspace(-1.0, 2.0, 8)
    y = np.arange(8, dtype=np.float64)
    expected = y + scale * x
    kernel(x, y)
    np.testing.assert_allclose(y, expected, rtol=1e-15)
    assert len(visit(axpy, tirx.BufferStore)) == 1


if __name__ == "__main__":
    tilelang.testing.main()
