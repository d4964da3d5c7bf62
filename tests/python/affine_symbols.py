"""A symbolic size used only inside shape expressions (``A: T.Tensor((n *
4,), ...)``, ``(n + 1,)``; test_tilelang_language_annot.py) is bound from
the argument's shape as TileLang binds it: n = 4 for 16 elements. Before,
the call raised "cannot bind symbol 'n'". Outputs are allocated from the
bound value; a shape no integer n fits, or two tensors disagreeing on n,
are ValueErrors before anything runs. A symbol no argument can give
because its tensor has another number of dimensions, or is not a tensor,
is reported at that argument (it said "cannot bind symbol 'M'", naming no
argument). Against NumPy, CPU target."""

import numpy as np
import torch

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[2], target="cpu")
def strided_pick():
    n = T.symbolic("n")

    @T.prim_func
    def main(A: T.Tensor((n * 4,), T.int32), C: T.Tensor((2 * (n - 1) + 2, 2), T.int32),
             B: T.Tensor((n + 1,), T.int32)):
        with T.Kernel(1, threads=1):
            for i in T.serial(n):
                B[i] = A[i * 4] + C[2 * i, 1]
            B[n] = n * 10
    return main


@tilelang.jit(out_idx=[-1], target="cpu")
def row_add():
    M = T.dynamic("M")
    N = T.symbolic("N")

    @T.prim_func
    def main(A: T.Tensor((M, N), T.float32), B: T.Tensor((M, N), T.float32),
             C: T.Tensor((M, N), T.float32)):
        with T.Kernel(M, threads=1) as bx:
            for j in T.serial(N):
                C[bx, j] = A[bx, j] + B[bx, j]
    return main


def expect_value_error(text, fn, *args, error=ValueError):
    try:
        fn(*args)
    except error as e:
        assert text in str(e), str(e)
        return
    raise AssertionError(f"no ValueError for {[tuple(a.shape) for a in args]}")


def main():
    kernel = strided_pick()
    rng = np.random.default_rng(5)
    for n in (1, 4, 9):
        a = rng.integers(-100, 100, size=4 * n, dtype=np.int32)
        c = rng.integers(-100, 100, size=(2 * n, 2), dtype=np.int32)
        b = kernel(torch.from_numpy(a), torch.from_numpy(c)).numpy()
        want = np.concatenate([a[::4] + c[::2, 1], [n * 10]]).astype(np.int32)
        assert b.shape == (n + 1,), b.shape
        np.testing.assert_array_equal(b, want)
    # 15 elements: no integer n with n * 4 == 15.
    expect_value_error("cannot bind symbol 'n'", kernel,
                       torch.zeros(15, dtype=torch.int32),
                       torch.zeros((7, 2), dtype=torch.int32))
    # A says n = 4, C says n = 3.
    expect_value_error("must have shape", kernel,
                       torch.zeros(16, dtype=torch.int32),
                       torch.zeros((6, 2), dtype=torch.int32))
    add = row_add()
    a, b = torch.randn(3, 5), torch.randn(3, 5)
    torch.testing.assert_close(add(a, b), a + b, rtol=0, atol=0)
    expect_value_error("argument 'A' of kernel 'row_add' must have 2 "
                       "dimension(s) (M, N), got shape (15,)", add,
                       a.reshape(15), b.reshape(15))
    expect_value_error("argument 'A' of kernel 'row_add' must have 2 "
                       "dimension(s) (M, N), got shape (1, 3, 5)", add,
                       a[None], b[None])
    expect_value_error("argument 'A' of kernel 'row_add' must be a tensor, "
                       "got int", add, 3, 4, error=TypeError)
    print("affine_symbols: OK")


main()
