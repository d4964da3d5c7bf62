# A factory that a test reaches only as a `pytest.mark.parametrize` value
# (`[make_scale, make_shift]`) is traced with the arguments the test passes
# it: tlc runs the later case that hands it over, instead of tracing the
# factory alone with symbols for its parameters (no dtype warning, real
# shapes in the hints).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
import pytest

import tilelang
import tilelang.language as T
import tilelang.testing


def make_scale(n, dtype):
    @T.prim_func
    def scale(A: T.Tensor((n,), dtype), B: T.Tensor((n,), dtype)):
        with T.Kernel(T.ceildiv(n, 128), threads=128) as bx:
            for i in T.Parallel(128):
                B[bx * 128 + i] = A[bx * 128 + i] * 2

    return scale


def make_shift(n, dtype):
    @T.prim_func
    def shift(A: T.Tensor((n,), dtype), B: T.Tensor((n,), dtype)):
        with T.Kernel(T.ceildiv(n, 128), threads=128) as bx:
            tile = T.alloc_shared((128,), dtype)
            T.copy(A[bx * 128], tile)
            for i in T.Parallel(128):
                B[bx * 128 + i] = tile[i] + 1

    return shift


@pytest.mark.parametrize("make", [make_scale, make_shift])
def test_kernels(make):
    tilelang.compile(make(1024, T.float16), target="cuda")


if __name__ == "__main__":
    tilelang.testing.main()

# CHECK: "name":"tile","kind":"buffer","shape":[128],"dtype":"float16","scope":"shared.dyn"
