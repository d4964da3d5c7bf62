# A test-style file runs every combination of its parametrize decorators'
# cases, as pytest does (it ran only the first, so an error of a later
# value went unseen): here only rows = 64 with float32 is invalid, a
# 64 x 1024 float32 shared tile of 256 KiB over sm_90a's 227 KiB, and it
# is reported in that instance. parametrize-all-cases-valid.py has the
# valid combinations, which check clean.
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK: error: shared memory usage 256 KiB exceeds the 227 KiB budget of cuda:sm_90a
# CHECK: note: in instance staged(64, dtype=float32)
import pytest

import tilelang
import tilelang.language as T


@tilelang.jit
def staged(rows, dtype):

    @T.prim_func
    def main(A: T.Tensor((rows, 1024), dtype)):
        with T.Kernel(1, threads=128):
            S = T.alloc_shared((rows, 1024), dtype)
            T.copy(A, S)
            T.copy(S, A)

    return main


@pytest.mark.parametrize("rows", [8, 64])
@pytest.mark.parametrize("dtype", [T.float16, T.float32])
def test_staged(rows, dtype):
    staged(rows, dtype=dtype)
