# T.clone_buffer / T.load_buffer (TileLang's test_tilelang_clone.py calls
# them; they were an AttributeError when tlc traced the kernel): a clone
# has its source's shape, dtype and scope and holds a copy of it (later
# writes to the source do not reach it); load_buffer copies the tile at
# `offsets` of a global tensor into a new buffer of the target scope.
# Kernels on the CPU target against NumPy; the errors are TileLang's
# exception categories.

import numpy as np
import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
import torch


@tilelang.jit(out_idx=[1], target="cpu")
def clone_then_overwrite(scope, M=32, N=48, dtype="float16"):

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(1, threads=64):
            src = T.alloc_buffer((M, N), dtype=dtype, scope=scope)
            T.copy(A, src)
            twin = T.clone_buffer(src)
            # The clone is a copy, not a view: scaling the source after
            # cloning must not change what the clone holds.
            for i, j in T.Parallel(M, N):
                src[i, j] = src[i, j] * 2
            for i, j in T.Parallel(M, N):
                B[i, j] = twin[i, j] + src[i, j]

    return main


@pytest.mark.parametrize("scope", ["shared", "shared.dyn", "local.fragment",
                                   "local"])
def test_clone_is_a_copy(scope):
    a = np.random.default_rng(1).integers(-8, 8, (32, 48)).astype(np.float16)
    got = clone_then_overwrite(scope)(torch.from_numpy(a)).numpy()
    np.testing.assert_array_equal(got, a * 3)


@tilelang.jit(out_idx=[1], target="cpu")
def load_tiles(target, M=64, N=96, bm=16, bn=32, dtype="float32"):

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(N // bn, M // bm, threads=64) as (bx, by):
            tile = T.load_buffer(A, offsets=(by * bm, bx * bn),
                                 shape=(bm, bn), target=target)
            for i, j in T.Parallel(bm, bn):
                B[by * bm + i, bx * bn + j] = tile[i, j] - i * 1000 - j

    return main


@pytest.mark.parametrize("target", ["shared", "local.fragment"])
def test_load_buffer_tiles(target):
    # Integers: the kernel's two subtractions are exact, as NumPy's one.
    a = np.random.default_rng(2).integers(-500, 500, (64, 96)).astype(
        np.float32)
    got = load_tiles(target)(torch.from_numpy(a)).numpy()
    i = np.arange(64)[:, None] % 16
    j = np.arange(96)[None, :] % 32
    np.testing.assert_array_equal(got, a - (i * 1000 + j).astype(np.float32))


@tilelang.jit(target="cpu")
def bad_load(offsets, target="shared"):

    @T.prim_func
    def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((8, 8), "float32")):
        with T.Kernel(1, threads=32):
            t = T.load_buffer(A, offsets=offsets, shape=(8, 8), target=target)
            T.copy(t, B)

    return main


def test_load_buffer_errors():
    a = torch.zeros(64, 64)
    b = torch.zeros(8, 8)
    with pytest.raises(Exception, match="2 dimensions; got 1 offsets"):
        bad_load((0,))(a, b)
    with pytest.raises(Exception, match="unknown memory scope 'sharde'"):
        bad_load((0, 0), "sharde")(a, b)
    with pytest.raises(Exception, match="on-chip memory"):
        bad_load((0, 0), "global")(a, b)


if __name__ == "__main__":
    tilelang.testing.main()
