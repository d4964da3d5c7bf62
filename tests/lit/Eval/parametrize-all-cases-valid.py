# Every parametrized combination of a test runs (parametrize-all-cases.py);
# when all are valid nothing is reported, and the hints of the kernel's
# first instance are those of the first combination (rows = 8, float16),
# traced first.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints %s | FileCheck %s
# CHECK: "instance":"staged(8, dtype=float16)","name":"A","kind":"tensor","shape":[8,1024],"dtype":"float16"
# CHECK-DAG: "instance":"staged(8, dtype=float32)","name":"A"
# CHECK-DAG: "instance":"staged(16, dtype=float16)","name":"A"
# CHECK-DAG: "instance":"staged(16, dtype=float32)","name":"A"
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


@pytest.mark.parametrize("rows", [8, 16])
@pytest.mark.parametrize("dtype", [T.float16, T.float32])
def test_staged(rows, dtype):
    staged(rows, dtype=dtype)
