# jit2's annotation objects (tilelang.language.v2.annot, which TileLang's
# test_tilelang_language_jit2.py imports): T.Tensor[[...], dtype] and T.dyn
# promote to a fixed type only when every extent is a number; matching an
# argument accepts what fits and raises TypeError / ValueError for a wrong
# kind, rank, fixed extent, dtype or an inconsistent symbol; the Builder
# frame collects the matched parameters in order.

from typing import Any

import pytest
import tilelang.language as T
import tilelang.testing
import torch
from tilelang.language.v2.annot import Annot, ArgVarTable
from tilelang.language.v2.builder import Builder


def test_promote():
    fixed = T.Tensor[[1024, 512], Any].promote()
    assert fixed is not None and fixed.shape == (1024, 512)
    assert T.Tensor[[8], T.float16].promote().dtype == "float16"
    for annot in (T.Tensor[[int, 512], Any], T.Tensor[[T.dyn, 4], Any],
                  T.Tensor[[T.dynamic("m"), 4], T.float32], T.dyn,
                  T.dyn[int]):
        assert isinstance(annot, Annot)
        assert annot.promote() is None, annot


def test_tensor_matches():
    annot = T.Tensor[[int, 1], T.float32]
    p = annot.create_prim_func_arg("x", torch.zeros(12, 1), ArgVarTable())
    assert p.shape == (12, 1) and p.dtype == "float32"
    p = annot.create_prim_func_arg("x", T.Tensor((3, 1), T.float32),
                                   ArgVarTable())
    assert p.shape == (3, 1)
    anyd = T.Tensor[[T.dyn], Any]
    for dt in (torch.float16, torch.int32):
        p = anyd.create_prim_func_arg("y", torch.zeros(5, dtype=dt),
                                      ArgVarTable())
        assert p.shape == (5,) and p.dtype == dt


@pytest.mark.parametrize("value,error", [
    (torch.zeros(12, 2), ValueError),                  # fixed extent 1
    (torch.zeros(12), ValueError),                     # rank
    (torch.zeros(12, 1, dtype=torch.float16), TypeError),
    (T.Tensor((4, 1), T.float16), TypeError),
    (3, TypeError),                                    # not a tensor
])
def test_tensor_mismatches(value, error):
    with pytest.raises(error):
        T.Tensor[[int, 1], T.float32].create_prim_func_arg(
            "x", value, ArgVarTable())


def test_symbol_binds_one_size():
    m = T.dynamic("m")
    vt = ArgVarTable()
    T.Tensor[[m, 4], Any].create_prim_func_arg("a", torch.zeros(6, 4), vt)
    assert vt.sizes == {"m": 6} and vt.var_tab["m"] == m
    T.Tensor[[m], Any].create_prim_func_arg("b", torch.zeros(6), vt)
    with pytest.raises(ValueError, match="'m' is 6"):
        T.Tensor[[m], Any].create_prim_func_arg("c", torch.zeros(7), vt)


def test_dyn_scalar():
    vt = ArgVarTable()
    n = T.dyn[T.int64].create_prim_func_arg("n", 5, vt)
    assert n.name == "n" and n.dtype == "int64"
    assert T.dyn.create_prim_func_arg("n", 9, vt) is n   # one per name
    with pytest.raises(TypeError):
        T.dyn.create_prim_func_arg("k", 2.5, vt)


def test_builder_collects_args():
    builder = Builder()
    with builder.prim_func("_kernel"):
        vt = ArgVarTable()
        T.Tensor[[int], Any].create_prim_func_arg("A", torch.zeros(3), vt)
        T.dyn.create_prim_func_arg("n", 3, vt)
    assert builder.name == "_kernel"
    assert [name for name, _ in builder.args] == ["A", "n"]
    assert Builder.current() is None
    T.dyn.create_prim_func_arg("z", 1, ArgVarTable())   # outside: no frame
    assert len(builder.args) == 2


if __name__ == "__main__":
    tilelang.testing.main()
