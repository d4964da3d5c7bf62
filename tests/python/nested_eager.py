# Eager @tilelang.jit kernels defined inside test functions, on the CPU
# target, against NumPy in float64: the kernel reads its enclosing
# function's variables (a scale, a dtype, a @T.macro), its sizes are
# T.const names bound from the arguments' shapes, and each call builds the
# instance it asks for (two closure values are two instances). A kernel
# named test_* is not collected as a test. get_tir / tilelang.par_compile
# build calls' instances; tilelang.utils.target.target_is_cuda.

import numpy as np
import tilelang
import tilelang.language as T
import tilelang.testing
import torch


def test_closure_values_are_bindings():
    rng = np.random.default_rng(1)
    for scale in (2.0, -0.5):
        dtype = T.float64

        @tilelang.jit
        def axpy(X, Y):
            N = T.const("N")
            X: T.Tensor[[N], dtype]
            Y: T.Tensor[[N], dtype]
            with T.Kernel(T.ceildiv(N, 32), threads=32) as bx:
                for i in T.Parallel(32):
                    if bx * 32 + i < N:
                        Y[bx * 32 + i] = X[bx * 32 + i] * scale + Y[bx * 32 + i]

        x = rng.standard_normal(100)
        y = rng.standard_normal(100)
        ref = x * scale + y
        X, Y = torch.from_numpy(x.copy()), torch.from_numpy(y.copy())
        axpy(X, Y)
        np.testing.assert_allclose(Y.numpy(), ref, rtol=0, atol=0)
        # The instance for N = 100 and this scale, built once.
        assert "100" in axpy.get_kernel_source(N=100)


def test_macro_and_return_of_enclosing_function():
    block = 16

    @T.macro
    def copy_scaled(A, B, s):
        M, N = A.shape
        with T.Kernel(T.ceildiv(M, block), threads=block) as bx:
            for i, j in T.Parallel(block, N):
                if bx * block + i < M:
                    B[bx * block + i, j] = A[bx * block + i, j] * s

    @tilelang.jit
    def twice(A):
        M, N = T.const("M, N")
        A: T.Tensor[[M, N], T.float32]
        B = T.empty((M, N), T.float32)
        copy_scaled(A, B, 2.0)
        return B

    a = np.random.default_rng(2).standard_normal((40, 8)).astype(np.float32)
    b = twice(torch.from_numpy(a))
    np.testing.assert_allclose(b.numpy().astype(np.float64),
                               a.astype(np.float64) * 2.0, rtol=0, atol=0)
    # compile() takes the T.const sizes by name.
    kernel = twice.compile(M=24, N=8)
    c = kernel(torch.from_numpy(a[:24].copy()))
    np.testing.assert_allclose(c.numpy(), a[:24] * 2, rtol=0, atol=0)


def test_get_tir_and_par_compile():
    @tilelang.jit
    def shift(A, B):
        N = T.const("N")
        A: T.Tensor[[N], T.float32]
        B: T.Tensor[[N], T.float32]
        with T.Kernel(1, threads=N) as _:
            tx = T.get_thread_binding(0)
            B[tx] = A[(tx + 1) % N]

    kernels = tilelang.par_compile([shift.get_tir(T.Tensor((n,), T.float32), T.Tensor((n,), T.float32))
                                    for n in (16, 32)])
    for n, kernel in zip((16, 32), kernels):
        a = np.arange(n, dtype=np.float32)
        b = np.zeros(n, dtype=np.float32)
        kernel(a, b)
        np.testing.assert_array_equal(b, np.roll(a, -1))
        assert "tile.func @" in shift.get_tir(T.Tensor((n,), T.float32), T.Tensor((n,), T.float32)).script()
    # Equal instances built at once share an artifact directory: they used
    # to race (one build cleared it while another wrote its files).
    same = shift.get_tir(T.Tensor((48,), T.float32), T.Tensor((48,), T.float32))
    kernels = tilelang.par_compile([same] * 4, num_workers=4)
    a = np.arange(48, dtype=np.float32)
    for kernel in kernels:
        b = np.zeros(48, dtype=np.float32)
        kernel(a, b)
        np.testing.assert_array_equal(b, np.roll(a, -1))
    from tilelang.utils.target import determine_target, target_is_cuda
    assert target_is_cuda("cuda -arch=sm_90a") and target_is_cuda("cuda:sm_80")
    assert not target_is_cuda("cpu") and not target_is_cuda(determine_target("cpu"))


# A module-level kernel whose name starts with test_ is no pytest test
# (TileLang's test_tilelang_language_let.py has one).
@tilelang.jit
def test_named_kernel(A: T.Tensor((8,), T.float32)):
    with T.Kernel(1, threads=8) as _:
        tx = T.get_thread_binding(0)
        A[tx] = A[tx] + 1.0


def test_kernel_named_test_is_not_collected():
    a = np.arange(8, dtype=np.float32)
    A = torch.from_numpy(a.copy())
    test_named_kernel(A)
    np.testing.assert_allclose(A.numpy(), a + 1.0, rtol=0, atol=0)


if __name__ == "__main__":
    tilelang.testing.main()
