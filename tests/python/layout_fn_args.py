# A factory argument that is a TileLang layout function
# (tilelang.layout.make_swizzled_layout / make_*_bank_swizzled_layout, as
# TileLang's issue-2714 test passes them): the package passes it to tlc by
# its module name (it was a TypeError: "not a Python function"); each
# swizzle keeps the values a row scan reads. T.any_of / T.all_of over
# float16 rows (the CPU target's bool of an f16 element did not compile),
# against NumPy.

import numpy as np
import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
import torch
from tilelang.layout import (make_full_bank_swizzled_layout,
                             make_half_bank_swizzled_layout,
                             make_quarter_bank_swizzled_layout,
                             make_swizzled_layout)


@tilelang.jit(out_idx=[1], target="cpu")
def row_scan(layout_fn, dtype="float16", use_any=True, rows=8, cols=128):

    @T.prim_func
    def main(A: T.Tensor((rows, cols), dtype), Out: T.Tensor((rows,), "int8")):
        with T.Kernel(1, threads=128):
            s = T.alloc_shared((rows, cols), dtype)
            T.annotate_layout({s: layout_fn(s)})
            for r, c in T.Parallel(rows, cols):
                s[r, c] = A[r, c]
            T.sync_threads()
            for r in T.Parallel(rows):
                if use_any:
                    Out[r] = T.cast(T.any_of(s[r, 8:40]), "int8")
                else:
                    Out[r] = T.cast(T.all_of(s[r, 8:40]), "int8")

    return main


@pytest.mark.parametrize("layout_fn", [make_swizzled_layout,
                                       make_quarter_bank_swizzled_layout,
                                       make_half_bank_swizzled_layout,
                                       make_full_bank_swizzled_layout])
@pytest.mark.parametrize("dtype", ["float16", "int32"])
@pytest.mark.parametrize("use_any", [True, False])
def test_swizzled_row_scan(layout_fn, dtype, use_any):
    rng = np.random.default_rng(3)
    a = rng.integers(-2, 3, size=(8, 128)).astype(dtype)
    a[1, 8:40] = 0      # no nonzero in the scanned slice
    a[2, 8:40] = 1      # all nonzero
    a[3, :8] = 0
    a[3, 40:] = 0
    a[3, 39] = 5        # only the slice's last element
    if dtype == "float16":
        a[4, 8:40] = 1
        a[4, 20] = np.nan   # NaN is nonzero
    kernel = row_scan(layout_fn, dtype, use_any)
    got = kernel(torch.from_numpy(a)).numpy()
    part = a[:, 8:40] != 0
    want = (part.any(axis=1) if use_any else part.all(axis=1)).astype(np.int8)
    np.testing.assert_array_equal(got, want)


if __name__ == "__main__":
    tilelang.testing.main()
