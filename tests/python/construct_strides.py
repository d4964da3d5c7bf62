# Dense strides outside kernel bodies: tilelang.utils.language's
# construct_strides / retrieve_stride, OutTensor.strides and the Buffers of
# PrimFunc.buffer_map, against NumPy's strides of arrays of the same shape
# (bytes / itemsize); symbolic extents (tvm.tirx.Var) as PrimExprs; and a
# kernel with a rank-0 T.Tensor output against CPython's float64 sum.

import itertools

import numpy as np
import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
from tvm import tirx
from tilelang.language.eager.builder import OutTensor
from tilelang.language.eager.utils import construct_strides
from tilelang.utils.language import retrieve_stride

SHAPES = [()] + [s for rank in range(1, 5)
                 for s in itertools.product((1, 2, 3, 5), repeat=rank)][::7]


def numpy_strides(shape):
    a = np.empty(shape, dtype=np.float32)
    return tuple(s // a.itemsize for s in a.strides)


def test_static_strides_are_numpys():
    assert len(SHAPES) > 20
    for shape in SHAPES:
        assert construct_strides(shape) == numpy_strides(shape), shape
        assert construct_strides(list(shape)) == numpy_strides(shape)
        assert construct_strides(shape, allow_prim_expr=False) == \
            numpy_strides(shape)


def test_symbolic_strides():
    n, m = tirx.Var("n", "int32"), tirx.Var("m", "int32")
    strides = construct_strides((2, n))
    assert strides[1] == 1 and tirx.analysis.expr_deep_equal(strides[0], n)
    assert isinstance(strides[0], tirx.PrimExpr)
    # Outer symbolic extents never reach a stride.
    assert construct_strides((n, 4)) == (4, 1)
    assert construct_strides((m, n, 3))[1:] == (3, 1)
    s = construct_strides((5, n, 3))
    assert s[1:] == (3, 1)
    assert isinstance(s[0], tirx.PrimExpr)
    assert tirx.analysis.expr_deep_equal(s[0], 3 * n)
    assert not tirx.analysis.expr_deep_equal(s[0], n * 3)
    assert not tirx.analysis.expr_deep_equal(s[0], 3 * m)
    s = construct_strides((2, m, n))
    assert tirx.analysis.expr_deep_equal(s[1], n)
    assert tirx.analysis.expr_deep_equal(s[0], n * m)
    assert not isinstance(T.Kernel, tirx.PrimExpr)
    with pytest.raises(ValueError, match="allow_prim_expr"):
        construct_strides((2, n), allow_prim_expr=False)
    # Only the outermost extent is symbolic: no stride needs it.
    assert construct_strides((n, 4, 2), allow_prim_expr=False) == (8, 2, 1)


def test_consumers_agree():
    for shape in SHAPES:
        buf = tirx.decl_buffer(shape, "float32")
        assert list(buf.strides) == []
        assert tuple(retrieve_stride(buf)) == numpy_strides(shape)
        assert OutTensor(shape, T.float32).strides == numpy_strides(shape)
    strided = tirx.decl_buffer((4, 4), "float32", strides=(8, 1))
    assert list(retrieve_stride(strided)) == [8, 1]


@T.prim_func
def kinds(A: T.Tensor((3, 4, 5), "float32"), B: T.Buffer((3, 4), "float16"),
          C: T.StridedTensor((2, 3), (7, 1), "int32"),
          S: T.Tensor((), "float32"), n: T.int32):
    with T.Kernel(1, threads=1):
        S[()] = A[0, 0, 0] + T.cast(B[0, 0], "float32") + T.cast(C[0, 0], "float32") + n


def test_buffer_map():
    buffers = {b.name: b for b in kinds.buffer_map.values()}
    assert sorted(buffers) == ["A", "B", "C", "S"]
    assert [int(x) for x in buffers["A"].shape] == [3, 4, 5]
    assert [int(x) for x in buffers["A"].strides] == list(numpy_strides((3, 4, 5)))
    assert buffers["A"].dtype == "float32"
    assert list(buffers["B"].strides) == []          # T.Buffer: none declared
    assert [int(x) for x in buffers["C"].strides] == [7, 1]
    assert list(buffers["S"].shape) == [] and list(buffers["S"].strides) == []
    assert [p.name for p in kinds.params] == ["A", "B", "C", "S", "n"]
    assert [p for p in kinds.params if p.name == "n"][0].dtype == "int32"
    for var, buf in kinds.buffer_map.items():
        assert var.name == buf.name and var.dtype == "handle"


@tilelang.jit
def rank0_sum(N):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), S: T.Tensor((), "float32")):
        with T.Kernel(1, threads=1):
            acc = T.alloc_local((1,), "float32")
            acc[0] = T.float32(0)
            for i in T.serial(N):
                acc[0] += A[i]
            S[()] = acc[0]

    return main


def test_rank0_output():
    import torch
    a = torch.tensor([0.5 * k - 1.25 for k in range(12)], dtype=torch.float32)
    s = torch.zeros((), dtype=torch.float32)
    rank0_sum(12)(a, s)
    assert s.shape == ()
    assert float(s) == sum(0.5 * k - 1.25 for k in range(12))  # exact in binary


if __name__ == "__main__":
    tilelang.testing.main()
