# `pytest.param(value, id=...)` is a parametrize case of its values (one
# alone, several as a tuple); before, it was an opaque object, so a layout
# index function passed that way "returned '<object>'" and the layout was
# warned about as unused (the upstream issue-2632 test). Now the cases run:
# a many-to-one map on a shared buffer is TileLang's ValueError, which the
# test expects (pytest.raises with its match: nothing is reported; without
# the guard it is an error, layout-not-injective.py), and an injective map
# is applied (the XOR pair swap of the first case). A case with marks (a
# skip, an expected failure) is not run.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# CHECK: layout = #tile.layout<[128], map = ["i ^ 1"]>
import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
from tilelang.layout import Layout

N = 128

REJECT_MATCH = r"shared buffer `\w+`.*must be injective"


def roundtrip(fwd):

    @T.prim_func
    def main(A: T.Tensor((N,), "int32"), Out: T.Tensor((N,), "int32")):
        with T.Kernel(1, threads=N):
            s = T.alloc_shared((N,), "int32")
            T.annotate_layout({s: Layout((N,), fwd)})
            for i in T.Parallel(N):
                s[i] = A[i]
            for i in T.Parallel(N):
                Out[i] = s[i]

    return main


@pytest.mark.parametrize("fwd", [
    pytest.param(lambda i: i % 64, id="mod64"),
    pytest.param(lambda i: i * 0, id="zero"),
])
def test_contracting_rejected(fwd):
    with pytest.raises(ValueError, match=REJECT_MATCH):
        tilelang.compile(roundtrip(fwd), out_idx=[1], target="cuda")


@pytest.mark.parametrize("fwd", [
    pytest.param(lambda i: i ^ 1, id="xor"),
    pytest.param(lambda i: i * 2, id="grow"),
    pytest.param(lambda i: i + 64, id="shift"),
    pytest.param(lambda i: i % 2, id="skipped", marks=pytest.mark.skip),
])
def test_injective_compiles(fwd):
    tilelang.compile(roundtrip(fwd), out_idx=[1], target="cuda")


if __name__ == "__main__":
    tilelang.testing.main()
