"""A symbolic size used only inside shape expressions (``A: T.Tensor((n *
4,), ...)``, ``(n + 1,)``; test_tilelang_language_annot.py) is bound from
the argument's shape as TileLang binds it: n = 4 for 16 elements. Before,
the call raised "cannot bind symbol 'n'". Outputs are allocated from the
bound value; a shape no integer n fits, or two tensors disagreeing on n,
are ValueErrors before anything runs. Against NumPy, CPU target."""

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


def expect_value_error(text, fn, *args):
    try:
        fn(*args)
    except ValueError as e:
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
    print("affine_symbols: OK")


main()
