# T.extract_lane called by Python on tvm.tirx vector expressions (TileLang's
# test_tilelang_language_extract_lane.py): a one-lane tirx.Shuffle of the
# vector's scalar dtype, lane as an IntImm, the vector itself (same_as)
# as its operand; each bad argument raises TileLang's exception type. The
# kernel form (tlc's evaluator) on the CPU target against the input.

import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
import torch
from tvm import tirx


@pytest.mark.parametrize("dtype,lanes,scalar", [("bfloat16x2", 2, "bfloat16"),
                                                ("float16x4", 4, "float16"),
                                                ("int8x4", 4, "int8"),
                                                ("float32x8", 8, "float32")])
def test_every_lane(dtype, lanes, scalar):
    v = tirx.Var("v", dtype)
    for lane in range(lanes):
        r = T.extract_lane(v, lane if lane % 2 else tirx.IntImm("int32", lane))
        assert isinstance(r, tirx.Shuffle) and isinstance(r, tirx.PrimExpr)
        assert str(r.dtype) == scalar
        assert r.vectors[0].same_as(v)
        assert not r.vectors[0].same_as(tirx.Var("w", dtype))
        assert not r.vectors[0].same_as(tirx.Var("v", scalar))
        assert r.indices[0].value == lane and r.indices[0].dtype == "int32"
    with pytest.raises(IndexError, match="out of bounds"):
        T.extract_lane(v, lanes)


def test_bad_arguments():
    v = tirx.Var("v", "float16x2")
    with pytest.raises(TypeError, match="expects a PrimExpr"):
        T.extract_lane(2.5, 0)
    with pytest.raises(ValueError, match="expects a vector expression"):
        T.extract_lane(tirx.Var("s", "float32"), 0)
    with pytest.raises(TypeError, match="compile-time integer"):
        T.extract_lane(v, tirx.Var("lane", "int32"))
    with pytest.raises(TypeError, match="compile-time integer"):
        T.extract_lane(v, True)
    with pytest.raises(IndexError, match="out of bounds"):
        T.extract_lane(v, -1)


@tilelang.jit(out_idx=-1, target="cpu")
def swap_lanes(dtype="float16", vector_dtype="float16x2"):

    @T.prim_func
    def main(A: T.Tensor((2,), dtype), B: T.Tensor((2,), dtype)):
        with T.Kernel(1, threads=1):
            packed = T.alloc_var(vector_dtype)
            packed = T.dtype(vector_dtype)(A[0], A[1])
            B[0] = T.extract_lane(packed, 1)
            B[1] = T.extract_lane(packed, 0)

    return main


def test_kernel_lanes():
    a = torch.tensor([1.25, -2.5], dtype=torch.float16)
    torch.testing.assert_close(swap_lanes()(a), a.flip(0), rtol=0, atol=0)


if __name__ == "__main__":
    tilelang.testing.main()
