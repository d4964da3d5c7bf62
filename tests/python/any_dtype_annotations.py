# TileLang's jit2-style tensor annotations on the CPU target, against NumPy
# in float64: `A: T.Tensor[[int, int], Any]` takes its shape and dtype from
# the argument (one instance per dtype: the package binds `A.dtype`, the
# extents stay symbols bound at the call), module-level and inside a test
# function, called with tensors or compiled from `T.Tensor` placeholders.

from typing import Any

import numpy as np
import tilelang
import tilelang.language as T
import tilelang.testing
import torch


@tilelang.jit
def scale(A: T.Tensor[[int, int], Any], s: int = 3):
    M, N = A.shape
    B = T.empty((M, N), A.dtype)
    with T.Kernel(M, threads=32) as bx:
        for j in T.serial(N):
            B[bx, j] = A[bx, j] * s
    return B


def test_dtype_from_argument():
    rng = np.random.default_rng(4)
    for np_dtype in (np.float64, np.float32, np.int32):
        a = (rng.standard_normal((5, 7)) * 100).astype(np_dtype)
        b = scale(torch.from_numpy(a))
        assert b.dtype == torch.from_numpy(a).dtype, (b.dtype, np_dtype)
        ref = a.astype(np.float64) * 3
        np.testing.assert_allclose(b.numpy().astype(np.float64), ref,
                                   rtol=1e-6 if np_dtype == np.float32 else 0)


def test_nested_and_placeholders():
    offset = 1

    @tilelang.jit
    def add_rows(A: T.Tensor[[int, int], Any], B: T.Tensor[[int, int], Any]):
        M, N = A.shape
        C = T.empty((M, N), A.dtype)
        with T.Kernel(M, threads=32) as bx:
            for j in T.serial(N):
                C[bx, j] = A[bx, j] + B[bx, j] + offset
        return C

    kernels = tilelang.par_compile(
        [add_rows.get_tir(T.Tensor((4, 6), dt), T.Tensor((4, 6), dt))
         for dt in (T.float64, T.int32)])
    for kernel, np_dtype in zip(kernels, (np.float64, np.int32)):
        a = np.arange(24, dtype=np_dtype).reshape(4, 6)
        b = (np.arange(24, dtype=np_dtype) * 2).reshape(4, 6)
        c = kernel(a, b)
        np.testing.assert_array_equal(c, a + b + 1)
    c = add_rows(torch.ones(3, 2, dtype=torch.float64), torch.ones(3, 2, dtype=torch.float64))
    np.testing.assert_array_equal(c.numpy(), np.full((3, 2), 3.0))


if __name__ == "__main__":
    tilelang.testing.main()
