# T.clone_buffer(buf): a new buffer of buf's shape, dtype and scope holding
# a copy of it; T.load_buffer(src, offsets=, shape=, target=): a new buffer
# of that shape in scope target holding the tile of src at offsets. Both
# were unknown names to tlc (AttributeError when the kernel was traced).
# Results against NumPy; the clone is written after cloning, to show it is
# a copy and not the same memory.

import numpy as np
import pytest
import torch
import tilelang
import tilelang.language as T
import tilelang.testing


@pytest.mark.parametrize("scope", ["shared", "local.fragment"])
def test_clone_is_a_copy(scope):
    @tilelang.jit(out_idx=[1])
    def clone_then_change(rows=16, cols=32):
        @T.prim_func
        def main(X: T.Tensor((rows, cols), "float32"),
                 Y: T.Tensor((2, rows, cols), "float32")):
            with T.Kernel(1, threads=64):
                src = T.alloc_buffer((rows, cols), "float32", scope=scope)
                T.copy(X, src)
                twin = T.clone_buffer(src)
                for i, j in T.Parallel(rows, cols):
                    src[i, j] = src[i, j] * 2.0 + 1.0
                T.copy(src, Y[0, :, :])
                T.copy(twin, Y[1, :, :])
        return main

    x = np.random.default_rng(5).standard_normal((16, 32)).astype(np.float32)
    y = clone_then_change()(torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(y[0], x.astype(np.float64) * 2 + 1, rtol=1e-6)
    np.testing.assert_array_equal(y[1], x)


@pytest.mark.parametrize("target", ["shared", "local.fragment"])
def test_load_tile_at_offsets(target):
    @tilelang.jit(out_idx=[1])
    def load_tile(r0=8, c0=20, rows=24, cols=12):
        @T.prim_func
        def main(X: T.Tensor((40, 48), "float16"),
                 Y: T.Tensor((rows, cols), "float16")):
            with T.Kernel(1, threads=128):
                tile = T.load_buffer(X, offsets=(r0, c0), shape=(rows, cols),
                                     target=target)
                T.copy(tile, Y)
        return main

    x = (np.arange(40 * 48).reshape(40, 48) % 251).astype(np.float16)
    y = load_tile()(torch.from_numpy(x)).numpy()
    np.testing.assert_array_equal(y, x[8:32, 20:32])


def test_clone_of_a_scalar_is_an_error():
    @T.prim_func
    def main(X: T.Tensor((4,), "float32")):
        with T.Kernel(1, threads=32):
            T.clone_buffer(X[0])

    with pytest.raises(Exception, match="T.clone_buffer expects a buffer"):
        tilelang.compile(main)


if __name__ == "__main__":
    tilelang.testing.main()
