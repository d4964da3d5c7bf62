# `T.reads(...)` / `T.writes(...)` inside a raw `T.sblock` declare the
# block's regions for TVM; they change nothing in the kernel (before:
# "AttributeError: module 'tilelang.language' has no attribute 'reads'",
# upstream test_tilelang_language_copy.py's annotate_safe_value test).
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# CHECK: tile.func @main
# CHECK: tile.copy
import tilelang
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((60, 60), T.int32), Out: T.Tensor((64, 64), T.int32)):
    with T.Kernel(1, threads=128):
        outer = T.alloc_shared((64, 64), T.int32)
        with T.sblock("outer"):
            T.reads(A[0:60, 0:60])
            T.writes()
            T.annotate_safe_value({A: -1})
            T.copy(A[0:64, 0:64], outer)
            for i, j in T.Parallel(64, 64):
                Out[i, j] = outer[i, j]


tilelang.compile(main)
