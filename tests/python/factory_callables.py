"""Callables as factory arguments: a lambda epilogue, a function of the
script (a ``score_mod``), ``functools.partial``, a function defined inside
another function, lambdas closing over loop variables (each call its own
instance), a list of callables, ``T.*`` functions, and a plain factory's
lambda through ``tilelang.compile``. Each result is compared with NumPy
applying the same function in float64. A callable the package cannot
represent is a TypeError naming the argument. CPU target."""

import functools
import textwrap

import numpy as np
import torch

import tilelang
import tilelang.language as T

N = 37


@tilelang.jit(out_idx=[1], target="cpu")
def elementwise(n, fn=None, fns=(), dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((n,), dtype), B: T.Tensor((n,), dtype)):
        with T.Kernel(1, threads=1):
            for i in T.serial(n):
                v = A[i]
                if fn is not None:
                    v = fn(v)
                for f in fns:
                    v = f(v)
                B[i] = v
    return main


@tilelang.jit(out_idx=[2], target="cpu")
def scores(m, n, score_mod=lambda s, i, j: s):
    """``score_mod(s, i, j)`` as attention variants pass it; its default
    is a lambda too."""
    @T.prim_func
    def main(Q: T.Tensor((m,), "float32"), K: T.Tensor((n,), "float32"),
             S: T.Tensor((m, n), "float32")):
        with T.Kernel(1, threads=1):
            for i, j in T.grid(m, n):
                S[i, j] = score_mod(Q[i] * K[j], i, j)
    return main


def causal(s, i, j):
    return T.if_then_else(j <= i, s, -1000.0)


def scale(x, s, shift=0.0):
    return x * s + shift


def roundtrip(fwd):
    """A plain factory (test_tilelang_issue_2632's form) whose prim_func
    goes through tilelang.compile."""
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=1):
            for i in T.serial(N):
                B[i] = fwd(A[i], i)
    return main


def nested_def(k):
    def poly(x):
        return x * x * k + 1.0
    return elementwise(N, poly)


def check(got, want):
    np.testing.assert_allclose(got.numpy().astype(np.float64), want,
                               rtol=1e-5, atol=1e-5)


# Module-level code rebinding a global the lambda reads after the call:
# the instance takes the value the call saw.
module_kernels = []
for c in (2.0, -0.5):
    module_kernels.append((c, elementwise(N, lambda x: x * c)))


def main():
    torch.manual_seed(0)
    x = torch.randn(N)
    xd = x.double().numpy()

    check(elementwise(N, lambda x: T.max(x, 0))(x), np.maximum(xd, 0))
    check(elementwise(N, functools.partial(scale, s=0.5))(x), xd * 0.5)
    check(elementwise(N, functools.partial(scale, 3.0, shift=1.0))(x),
          xd * 3.0 + 1.0)
    check(elementwise(N, T.exp)(x), np.exp(xd))
    check(nested_def(3.0)(x), xd * xd * 3.0 + 1.0)
    check(nested_def(-2.0)(x), xd * xd * -2.0 + 1.0)
    for c_, k in module_kernels:
        check(k(x), xd * c_)
    # Loop variables a lambda closes over: one instance per value.
    for s in (1.5, -4.0):
        check(elementwise(N, lambda v: v * s + s)(x), xd * s + s)
    # Two lambdas on one line, told apart by their code's positions.
    neg, inc = (lambda v: -v, lambda v: v + 1.0)
    check(elementwise(N, neg)(x), -xd)
    check(elementwise(N, inc)(x), xd + 1.0)
    # A list of callables, applied in order.
    check(elementwise(N, None, [inc, functools.partial(scale, s=2.0),
                                lambda v: T.max(v, 0)])(x),
          np.maximum((xd + 1.0) * 2.0, 0))

    q, kk = torch.randn(5), torch.randn(7)
    prod = q.double().numpy()[:, None] * kk.double().numpy()[None, :]
    check(scores(5, 7)(q, kk), prod)  # the default lambda
    rows, cols = np.indices((5, 7))
    check(scores(5, 7, causal)(q, kk), np.where(cols <= rows, prod, -1000.0))
    check(scores(5, 7, score_mod=lambda s, i, j: s * (i + 1) - j)(q, kk),
          prod * (rows + 1) - cols)

    kernel = tilelang.compile(roundtrip(lambda v, i: v * 2.0 + i),
                              out_idx=[1], target="cpu")
    check(kernel(x), xd * 2.0 + np.arange(N))

    # What cannot be represented is a TypeError naming the argument.
    for bad in (torch.relu, textwrap.dedent, np.float64(1.0).__add__):
        try:
            elementwise(N, bad)
        except TypeError as e:
            assert "cannot pass fn=" in str(e), e
        else:
            raise AssertionError(f"{bad!r} was accepted")

    class Affine:
        def __call__(self, v):
            return v * 2.0
    try:
        elementwise(N, Affine())
    except TypeError as e:
        assert "cannot pass fn=" in str(e) and "not a Python function" \
            in str(e), e
    else:
        raise AssertionError("a callable object was accepted")
    print("factory_callables: OK")


if __name__ == "__main__":
    main()
