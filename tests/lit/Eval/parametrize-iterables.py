# pytest iterates a parametrize's values once, when it collects the test: a
# dict gives its keys, a range its numbers (testing/python/cuda's packed
# comparison test passes its dict of operator functions). tlc runs every
# case, so the kernel is traced with real arguments, not analysed without
# a call site; the CPU run checks the first instance (op "lt", n = 256). The comparison comes from the operator module
# (operator.lt on IR values is a comparison, operator.add an addition) and
# T.Not negates it; `str.lstrip(chars)` strips the characters given. The
# CPU target's outputs are compared with NumPy.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=hints --format=json %s | FileCheck %s
# CHECK: "name":"C","kind":"tensor","shape":[3,256],"dtype":"int32"
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --kernel=make_compare --seed 4 --save %t/out
# RUN: %python %S/Inputs/parametrize_iterables_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF: compare lt (3, 256) True
import operator

import pytest

import tilelang
import tilelang.language as T
import tilelang.testing

OPS = {"lt": operator.lt, "ge": operator.ge, "ne": operator.ne}


def make_compare(op, n, dtype):
    compare = OPS[op]
    # "uint8" -> 8 lanes a thread: str.lstrip drops the leading u, i, n, t.
    lanes = int(dtype.lstrip("uint")) // 4

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32"), C: T.Tensor((3, n), "int32")):
        with T.Kernel(n // (32 * lanes), threads=32) as bx:
            tx = T.get_thread_binding()
            for j in T.serial(lanes):
                g = (bx * 32 + tx) * lanes + j
                C[0, g] = T.cast(compare(A[g], B[g]), "int32")
                C[1, g] = T.cast(T.Not(compare(A[g], B[g])), "int32")
                C[2, g] = T.cast(operator.add(operator.mul(A[g], 2.0), operator.neg(B[g])) > 0, "int32")

    return main


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("n", range(256, 1024, 256))
@pytest.mark.parametrize("dtype", ["uint8"])
def test_compare(op, n, dtype):
    tilelang.compile(make_compare(op, n, dtype), out_idx=[2])


if __name__ == "__main__":
    tilelang.testing.main()
