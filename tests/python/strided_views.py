"""Tensors with declared strides (`T.StridedTensor`, `T.Buffer(strides=)`):
the package passes the caller's torch view itself when its strides are the
declared ones (a transposed `.t()`, a padded pitch built with
`as_strided`), binds a T.dynamic stride from the argument, allocates a
returned tensor at its declared strides, and refuses a view with other
strides. Results against NumPy; CPU target."""

import numpy as np
import torch

import tilelang
import tilelang.language as T

M, N = 48, 20


@tilelang.jit(target="cpu")
def transposed_and_padded(M, N):
    @T.prim_func
    def main(A: T.StridedTensor((M, N), (1, M), T.float32),
             P: T.Buffer((M, N), T.float32, strides=(N + 4, 1)),
             C: T.StridedTensor((M, N), (1, M), T.float32)):
        with T.Kernel(T.ceildiv(M, 16), threads=64) as bx:
            for i, j in T.Parallel(16, N):
                C[bx * 16 + i, j] = A[bx * 16 + i, j] * 2.0 + P[bx * 16 + i, j]
    return main


@tilelang.jit(target="cpu", out_idx=[-1])
def pitched(N):
    rows = T.dynamic("rows")
    pitch = T.dynamic("pitch")

    @T.prim_func
    def main(X: T.StridedTensor((rows, N), (pitch, 1), T.float32),
             Y: T.StridedTensor((rows, N), (1, rows), T.float32)):
        with T.Kernel(rows, threads=32) as bx:
            for j in T.Parallel(N):
                Y[bx, j] = X[bx, j] - 1.0
    return main


def padded(rows, cols, pitch):
    """A (rows, cols) view with row stride `pitch`; the padding is NaN."""
    storage = torch.full((rows * pitch,), float("nan"))
    view = storage.as_strided((rows, cols), (pitch, 1))
    view.copy_(torch.randn(rows, cols))
    return view


def main():
    torch.manual_seed(0)
    kernel = transposed_and_padded(M, N)
    a = torch.randn(N, M).t()  # strides (1, M)
    p = padded(M, N, N + 4)
    c_storage = torch.full((N, M), float("nan"))
    c = c_storage.t()
    assert a.stride() == (1, M) and p.stride() == (N + 4, 1)
    kernel(a, p, c)
    np.testing.assert_allclose(c.numpy(), a.numpy() * 2 + p.numpy(),
                               rtol=1e-6, atol=1e-6)
    # The kernel wrote the caller's view itself (no copy).
    assert not torch.isnan(c_storage).any()

    # A T.dynamic pitch from the argument; the returned tensor has the
    # declared (transposed) strides.
    k2 = pitched(N)
    x = padded(37, N, 300)
    y = k2(x)
    assert y.stride() == (1, 37), y.stride()
    np.testing.assert_allclose(y.numpy(), x.numpy() - 1, rtol=1e-6, atol=1e-6)

    # A view with other strides than the declared literal ones is refused.
    try:
        kernel(torch.randn(M, N), p, c)
    except ValueError as e:
        assert "declares strides (1, 48)" in str(e), e
    else:
        raise AssertionError("a contiguous tensor for strides (1, M) ran")
    print("strided views OK")


if __name__ == "__main__":
    main()
