"""Callables defined only under ``if __name__ == "__main__":`` (a plain
function, one calling another, a lambda, a ``@T.macro``) that a
``@T.prim_func`` defined there calls: tlc-build's run of the module does
not reach the block, so the package appends their definitions (with the
values of the globals they read at the call) to the copy it builds, as
for callable arguments. Against NumPy on the CPU target."""

import numpy as np
import torch

import tilelang
import tilelang.language as T

N = 64
dtype = T.float32


if __name__ == "__main__":
    factor = 3.0

    def scale(x):
        return x * factor

    def doubled(x):
        return x * 2.0

    def twice_plus_two(x):
        return doubled(x) + 2.0  # another main-block function

    shift = lambda x: x - 1.0  # noqa: E731

    @T.macro
    def store(B, i, v):
        B[i] = v + 0.5

    @T.prim_func
    def kernel(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(1, threads=32):
            for i in T.Parallel(N):
                store(B, i, scale(A[i]) + twice_plus_two(A[i]) +
                      shift(A[i]))

    # Rebinding after the definition does not change the kernel (TileLang
    # traced it at the definition).
    factor = 10.0

    built = tilelang.compile(kernel, target="cpu")
    a = np.random.default_rng(5).standard_normal(N).astype(np.float32)
    b = torch.zeros(N)
    built(torch.from_numpy(a), b)
    f32 = np.float32
    want = (a * f32(3) + (a * f32(2) + f32(2))) + (a - f32(1)) + f32(0.5)
    np.testing.assert_allclose(b.numpy(), want, rtol=1e-6, atol=1e-6)
    print("main_block_callable: ok")
