# A test that defines a kernel only to check that TileLang refuses it (the
# kernel is used nowhere but inside `with pytest.raises(...)`) expects the
# kernel's errors: tlc reports them as warnings that say so, and --check
# passes. The same kernel used outside pytest.raises (compiled for real) is
# an error of the file.
# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --check %s 2>&1 | FileCheck %s
# CHECK: :[[# @LINE + 39]]:13: error: the layout annotated for shared buffer `tile` is not injective
# CHECK-NOT: error:
import pytest

import tilelang
import tilelang.language as T
import tilelang.testing
from tilelang.layout import Layout


def overlapping(i, j):
    # Rows 7 apart on a row of 8: (0, 7) and (1, 0) share a place.
    return i * 7 + j


def test_overlapping_layout_is_refused():

    # expected-note@+2 {{in instance test_overlapping_layout_is_refused()}}
    @T.prim_func
    def kernel(A: T.Tensor((8, 8), "int32")):
        with T.Kernel(1, threads=64):
            tile = T.alloc_shared((8, 8), "int32")
            # expected-warning@+1 {{the layout annotated for shared buffer `tile` is not injective on its shape: elements (0, 7) and (1, 0) both map to 7 (a buffer's layout must be injective: one place holds one element) (the test expects this kernel to fail: it uses it only inside `with pytest.raises`)}}
            T.annotate_layout({tile: Layout((8, 8), overlapping)})
            for i, j in T.Parallel(8, 8):
                tile[i, j] = A[i, j]

    with pytest.raises(ValueError, match="injective"):
        tilelang.compile(kernel)


def test_overlapping_layout_compiled():

    # expected-note@+2 {{in instance test_overlapping_layout_compiled()}}
    @T.prim_func
    def kernel(A: T.Tensor((8, 8), "int32")):
        with T.Kernel(1, threads=64):
            tile = T.alloc_shared((8, 8), "int32")
            # expected-error@+1 {{the layout annotated for shared buffer `tile` is not injective on its shape: elements (0, 7) and (1, 0) both map to 7 (a buffer's layout must be injective: one place holds one element)}}
            T.annotate_layout({tile: Layout((8, 8), overlapping)})
            for i, j in T.Parallel(8, 8):
                tile[i, j] = A[i, j]

    tilelang.compile(kernel)


if __name__ == "__main__":
    tilelang.testing.main()
