# RUN: tlc-build --verify-diagnostics %s
# A module that imports pytest is a test module whatever its file is called
# (this one is not `test_*.py`): its tests run with their parametrize cases,
# so `dtype` below is "int32" in one test and "float16" in the other, never
# an unbound symbol. What a call of an object outside TileLang returns may be
# None: `ref() is None` is not decided, so its assertion is not reported.
import gc
import weakref

import pytest
import torch
import tilelang
import tilelang.language as T


def xor_rows(dtype):

    @T.prim_func
    def main(A: T.Tensor((32, 32), dtype), Out: T.Tensor((32,), dtype)):
        with T.Kernel(1, threads=128):
            A_frag = T.alloc_fragment((32, 32), dtype)
            row = T.alloc_fragment((32,), dtype)
            T.copy(A, A_frag)
            # expected-error@+1 {{T.reduce_bitxor requires an integer or bool buffer, got float16}}
            T.reduce_bitxor(A_frag, row, dim=1)
            T.copy(row, Out)

    return main


@pytest.mark.parametrize("dtype", ["int32"])
def test_integer_rows(dtype):
    tilelang.compile(xor_rows(dtype), target="cuda")


@pytest.mark.parametrize("dtype", ["float16"])
def test_half_rows(dtype):
    tilelang.compile(xor_rows(dtype), target="cuda")


def test_weak_reference_released():
    data = torch.randn(4, 8)
    ref = weakref.ref(data)
    del data
    gc.collect()
    assert ref() is None, "tensor still alive"
