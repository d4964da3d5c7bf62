# A layout annotated on a shared buffer must be injective: one that maps
# two elements to one place (a many-to-one map on a static shape, or a map
# whose rows overlap for some value of a symbolic extent) is a ValueError
# from tilelang.compile naming the shared buffer, as TileLang raises it;
# injective maps (including ones whose codomain is larger than the buffer)
# still build and copy through the buffer exactly (against NumPy).

import numpy as np
import pytest
import torch
import tilelang
import tilelang.language as T
import tilelang.testing
from tilelang.layout import Layout

L = 64


def through_shared(index_map):
    @T.prim_func
    def main(X: T.Tensor((L,), "int32"), Y: T.Tensor((L,), "int32")):
        with T.Kernel(1, threads=L):
            buf = T.alloc_shared((L,), "int32")
            T.annotate_layout({buf: Layout((L,), index_map)})
            for i in T.Parallel(L):
                buf[i] = X[i] * 3
            for i in T.Parallel(L):
                Y[i] = buf[i] + 1

    return main


@pytest.mark.parametrize("index_map", [
    lambda i: i // 2,        # two elements to one place
    lambda i: i % 16,        # four to one
    lambda i: i - i,         # all to one
])
def test_many_to_one_rejected(index_map):
    with pytest.raises(ValueError, match=r"shared buffer `buf`.*must be injective"):
        tilelang.compile(through_shared(index_map), out_idx=[1])


@pytest.mark.parametrize("index_map", [
    lambda i: i,
    lambda i: (L - 1) - i,
    lambda i: i ^ 3,
    lambda i: i * 3,          # codomain three times the buffer
    lambda i: i + 5,
])
def test_injective_maps_build_and_run(index_map):
    kernel = tilelang.compile(through_shared(index_map), out_idx=[1])
    x = np.arange(-20, L - 20, dtype=np.int32)
    y = kernel(torch.from_numpy(x))
    np.testing.assert_array_equal(y.numpy(), x.astype(np.int64) * 3 + 1)


def test_symbolic_overlapping_rows_rejected():
    w = T.dynamic("w")

    @T.prim_func
    def main(X: T.Tensor((8, w), "int32")):
        with T.Kernel(1, threads=64):
            buf = T.alloc_shared((8, w), "int32")
            # Row r starts at r * (w - 2): the last two elements of a row
            # share places with the first two of the next one.
            T.annotate_layout({buf: Layout((8, w), lambda r, c: r * (w - 2) + c)})
            for r, c in T.Parallel(8, w):
                buf[r, c] = X[r, c]
            for r, c in T.Parallel(8, w):
                X[r, c] = buf[r, c] + 1

    with pytest.raises(ValueError, match=r"shared buffer `buf`.*must be injective"):
        tilelang.compile(main)


if __name__ == "__main__":
    tilelang.testing.main()
