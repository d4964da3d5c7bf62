"""None for a tensor argument (TileLang's null tensor): the kernel gets a
null pointer for a parameter a flag argument keeps it from touching; the
results match torch with the flag off and on. CPU target."""

import torch

import tilelang
import tilelang.language as T


@tilelang.jit(target="cpu")
def add_bias(M, N, block_M=32, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), Bias: T.Tensor((N,), dtype),
             C: T.Tensor((M, N), dtype), with_bias: T.bool):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            for i, j in T.Parallel(block_M, N):
                C[bx * block_M + i, j] = A[bx * block_M + i, j] * 2
            if with_bias:
                for i, j in T.Parallel(block_M, N):
                    C[bx * block_M + i, j] += Bias[j]
    return main


def main():
    torch.manual_seed(0)
    kernel = add_bias(100, 24)
    a = torch.randn(100, 24)
    bias = torch.randn(24)
    c = torch.full((100, 24), float("nan"))
    kernel(a, None, c, False)
    torch.testing.assert_close(c, a * 2, rtol=0, atol=0)
    kernel(a, bias, c, True)
    torch.testing.assert_close(c, a * 2 + bias, rtol=1e-6, atol=1e-6)
    # Leaving an argument out is still an error: by position TileLang's
    # ValueError for the count, by name a TypeError naming it.
    try:
        kernel(a, None, c)
    except ValueError as e:
        assert "Kernel expected 4 inputs, but 3 are provided" in str(e), e
    else:
        raise AssertionError("a missing argument was accepted")
    try:
        kernel(a, None, C=c)
    except TypeError as e:
        assert "missing" in str(e), e
    else:
        raise AssertionError("a missing argument was accepted")
    print("null_tensor: OK")


if __name__ == "__main__":
    main()
