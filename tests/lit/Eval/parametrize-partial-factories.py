# A factory that a test reaches only through `functools.partial` values of
# a `pytest.mark.parametrize` list (`partial(make_round, "float16")`) is
# traced with the dtype the partial binds, as a plain factory value is
# (parametrize-factories.py): not alone with a symbol for the dtype, which
# would be analysed as float32 and warned about.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# CHECK: "name":"out_local","kind":"buffer","shape":[64],"dtype":"bfloat16","scope":"local.fragment"
from functools import partial

import pytest

import tilelang
import tilelang.language as T
import tilelang.testing


def make_copy():

    @T.prim_func
    def main(A: T.Tensor((64,), T.float32), B: T.Tensor((64,), T.float32)):
        with T.Kernel(1, threads=64):
            tx = T.get_thread_binding()
            B[tx] = A[tx]

    return main


def make_round(out_dtype, bits=0x5A5A):

    @T.prim_func
    def main(A: T.Tensor((64,), T.float32), B: T.Tensor((64,), out_dtype)):
        with T.Kernel(1, threads=64):
            a_local = T.alloc_fragment((64,), T.float32)
            out_local = T.alloc_fragment((64,), out_dtype)
            T.copy(A, a_local)
            for i in T.Parallel(64):
                out_local[i] = T.cast(a_local[i], out_dtype, round="rs", rbits=bits + i)
            T.copy(out_local, B)

    return main


@pytest.mark.parametrize("factory", [make_copy, partial(make_round, "bfloat16"), partial(make_round, "float16")])
def test_lowers(factory):
    tilelang.lower(factory(), target="cuda")


if __name__ == "__main__":
    tilelang.testing.main()
