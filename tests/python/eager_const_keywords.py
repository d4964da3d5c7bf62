# Eager @tilelang.jit kernels whose T.const names no tensor's shape gives
# (a grid extent, a factor of the body) take them as keywords of the call
# (TileLang's issue 2760): the values reach the instance, each value is its
# own instance, and a missing one raises TileLang's ValueError before
# anything runs; func.p1_cache counts the instances. The references are
# NumPy computations of the same rule.

import numpy as np
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(target="cpu")
def first_blocks(A, B, block_N: int = 32):
    N = T.const("N")
    num_blocks = T.const("num_blocks")  # the grid only
    A: T.Tensor((N,), T.float32)
    B: T.Tensor((N,), T.float32)
    with T.Kernel(num_blocks, threads=32) as bx:
        for i in T.Parallel(block_N):
            B[bx * block_N + i] = A[bx * block_N + i]


@tilelang.jit(target="cpu")
def scaled(A, B, block_N: int = 32):
    N = T.const("N")
    scale = T.const("scale")  # the body only
    A: T.Tensor((N,), T.float32)
    B: T.Tensor((N,), T.float32)
    with T.Kernel(T.ceildiv(N, block_N), threads=32) as bx:
        for i in T.Parallel(block_N):
            B[bx * block_N + i] = A[bx * block_N + i] * scale


def main():
    a = torch.arange(128, dtype=torch.float32) + 1
    for blocks in (4, 2):
        b = torch.zeros(128)
        first_blocks(a, b, 32, num_blocks=blocks)
        want = np.zeros(128, np.float32)
        want[:32 * blocks] = a.numpy()[:32 * blocks]
        assert np.array_equal(b.numpy(), want), (blocks, b)
    # Each T.const value is its own instance; the same value again is the
    # instance built before (what TileLang's func.p1_cache counts).
    assert len(first_blocks.func.p1_cache) == 2, first_blocks.func.p1_cache
    first_blocks(a, torch.zeros(128), 32, num_blocks=4)
    assert len(first_blocks.func.p1_cache) == 2, first_blocks.func.p1_cache
    for scale in (3, 2.5):
        b = torch.zeros(128)
        scaled(a, b, scale=scale)
        assert np.array_equal(b.numpy(), a.numpy() * np.float32(scale)), scale

    b = torch.zeros(128)
    try:
        first_blocks(a, b, 32)
    except ValueError as e:
        assert "Cannot find value for constexpr variable 'num_blocks'" in str(e), e
    else:
        raise AssertionError("a missing T.const keyword must raise")
    try:
        scaled(a, b, scale="x")
    except TypeError as e:
        assert "T.const 'scale' must be an int or a float" in str(e), e
    else:
        raise AssertionError("a string T.const value must raise")
    assert not b.any(), "nothing may run before the error"
    print("eager_const_keywords: OK")


if __name__ == "__main__":
    main()
