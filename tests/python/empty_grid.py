"""A launch whose grid has an extent of 0 at the call (TileLang issue 1993:
a dynamic token count of 0, or a literal ``T.Kernel(0)``): the package
raises a ValueError before anything runs, as TileLang's regression test
for that issue expects, so the arguments stay as they were and no output
is returned. A non-empty grid still runs. CPU target. (tlc-run and the C
API skip such a launch instead: tests/lit/tlc-run/empty-grid.test.)"""

import torch

import tilelang
import tilelang.language as T


@tilelang.jit(target="cpu")
def per_token():
    num_tokens = T.dynamic("num_tokens")

    @T.prim_func
    def kernel(out: T.Tensor[(num_tokens,), T.float32]):
        with T.Kernel(num_tokens, threads=1) as pid:
            out[pid] = T.float32(1.0)

    return kernel


@tilelang.jit(target="cpu")
def literal_zero():
    @T.prim_func
    def kernel(out: T.Tensor[(4,), T.float32]):
        with T.Kernel(0, threads=1) as pid:
            out[pid] = T.float32(1.0)

    return kernel


@tilelang.jit(target="cpu", out_idx=[1])
def doubled(M, block=8):
    @T.prim_func
    def kernel(A: T.Tensor((M,), T.float32), B: T.Tensor((M,), T.float32)):
        with T.Kernel(T.ceildiv(M, block), threads=block) as bx:
            for i in T.Parallel(block):
                if bx * block + i < M:
                    B[bx * block + i] = A[bx * block + i] * 2

    return kernel


def expect_empty_grid(fn, *args):
    try:
        fn(*args)
    except ValueError as e:
        assert "grid extent 0" in str(e) and "nothing was launched" in str(e), e
        return str(e)
    raise AssertionError("an empty grid did not raise")


def main():
    kernel = per_token()
    out = torch.zeros(4)
    kernel(out)
    assert out.eq(1.0).all(), out
    message = expect_empty_grid(kernel, torch.zeros(0))
    assert "num_tokens = 0" in message, message

    out = torch.zeros(4)
    expect_empty_grid(literal_zero(), out)
    assert out.eq(0.0).all(), out  # untouched

    a = torch.arange(20, dtype=torch.float32)
    torch.testing.assert_close(doubled(20)(a), a * 2, rtol=0, atol=0)
    expect_empty_grid(doubled(0), torch.zeros(0))
    print("empty_grid: OK")


if __name__ == "__main__":
    main()
