# A tensor with trailing dimensions of extent 1 passes for a parameter that
# declares fewer (a (32768, 1) tensor for T.Tensor((32768,), ...)), as
# TileLang's adapter checks only the dimensions a parameter declares
# (example_fusedmoe_tilelang.py passes its routed weights so). The elements
# are the same, in the same order; a non-contiguous such view runs on a
# dense copy and a written one is copied back. Any other extra extent is
# still a shape error, and a symbolic extent binds from such a tensor.

import pytest
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[2], target="cpu")
def scale_rows(N, block=64):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), W: T.Tensor((N,), "float32"),
             B: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                if bx * block + i < N:
                    B[bx * block + i] = A[bx * block + i] * W[bx * block + i]

    return main


@tilelang.jit(target="cpu")
def add_one(block=32):
    n = T.dynamic("n")

    @T.prim_func
    def main(A: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                if bx * block + i < n:
                    A[bx * block + i] = A[bx * block + i] + 1

    return main


def test_trailing_unit_dims():
    torch.manual_seed(0)
    n = 200
    k = scale_rows(n)
    a = torch.randn(n)
    w = torch.randn(n, 1)
    torch.testing.assert_close(k(a, w), a * w[:, 0], rtol=0, atol=0)
    # A non-contiguous (n, 1) view: its own elements, not its storage's.
    wide = torch.randn(n, 2)
    torch.testing.assert_close(k(a, wide[:, 1:]), a * wide[:, 1],
                               rtol=0, atol=0)
    torch.testing.assert_close(k(a.view(n, 1, 1), w), a * w[:, 0],
                               rtol=0, atol=0)
    with pytest.raises(ValueError, match=r"must have shape \(200,\)"):
        k(a, torch.randn(n, 2))
    with pytest.raises(ValueError, match=r"must have shape \(200,\)"):
        k(a, torch.randn(1, n))

    # A symbolic extent binds from the declared dimension; a written
    # non-contiguous (n, 1) view gets the results.
    inc = add_one()
    storage = torch.randn(77, 3)
    expect = storage.clone()
    expect[:, 2] += 1
    inc(storage[:, 2:])
    torch.testing.assert_close(storage, expect, rtol=0, atol=0)


if __name__ == "__main__":
    test_trailing_unit_dims()
    print("ok")
