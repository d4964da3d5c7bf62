# Eager kernels over `T.StridedTensor[shape, strides, dtype]` with T.const
# strides, on the CPU target, against NumPy in float64: the stride consts
# are bound from the arguments (the stride of the dense copy the kernel
# gets), a non-contiguous view that the kernel writes is written back after
# the launch, and one that shares memory with another argument is refused.

import numpy as np
import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
import torch


@tilelang.jit
def axpy(X, Y):
    M, N, SM, SN = T.const("M, N, SM, SN")
    X: T.StridedTensor[[M, N], [SM, SN], T.float64]
    Y: T.StridedTensor[[M, N], [SM, SN], T.float64]
    with T.Kernel(M, threads=32) as bx:
        for j in T.serial(N):
            # SM and SN must be bound for the instance to build; the row
            # stride of the dense copy is N and the column stride 1.
            Y[bx, j] = Y[bx, j] + 2.0 * X[bx, j] + (SM - N) + (SN - 1)


@tilelang.jit
def row_sums(X):
    M = T.dynamic("M")
    N, SM, SN = T.const("N, SM, SN")
    X: T.StridedTensor((M, N), (SM, SN), T.float64)
    S = T.empty((M,), T.float64)
    with T.Kernel(M, threads=32) as bx:
        S[bx] = 0.0
        for j in T.serial(N):
            S[bx] = S[bx] + X[bx, j] * SN + SM * 0
    return S


def test_strided_views_in_and_out():
    rng = np.random.default_rng(7)
    x_full = rng.standard_normal((6, 2, 5, 3))
    y_full = rng.standard_normal((6, 2, 5, 3))
    x = torch.from_numpy(x_full)[:, 1, :, 2]
    y_storage = torch.from_numpy(y_full.copy())
    y = y_storage[:, 0, :, 1]
    assert not x.is_contiguous() and not y.is_contiguous()
    axpy(x, y)
    expected = y_full.copy()
    expected[:, 0, :, 1] += 2.0 * x_full[:, 1, :, 2]
    # Only the view's elements change; the rest of its storage is kept.
    np.testing.assert_allclose(y_storage.numpy(), expected, rtol=1e-15)


def test_contiguous_arguments_and_returned_tensor():
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    b = np.ones((3, 4))
    axpy(a, b)
    np.testing.assert_array_equal(b, 1.0 + 2.0 * a)
    full = torch.arange(40, dtype=torch.float64).reshape(5, 8)
    s = row_sums(full[:, ::2])
    np.testing.assert_array_equal(
        s.numpy(), full.numpy()[:, ::2].astype(np.float64).sum(axis=1))


def test_written_view_sharing_memory_is_refused():
    storage = torch.zeros(4, 2, 3, dtype=torch.float64)
    with pytest.raises(ValueError, match="shares memory"):
        axpy(storage[:, 0, :], storage[:, 1, :])


if __name__ == "__main__":
    tilelang.testing.main()
