"""Factory arguments that are tuples and lists (a shape passed as
``tuple(x.shape)``, a pipeline ``order=[0, 1, 2]``, nested tuples, a
one-element tuple, a tuple a nested kernel closes over) reach tlc as ``-D``
bindings with their Python values: each instance's result matches float64
torch. A container holding something tlc cannot take is still a clear
TypeError. CPU target."""

import numpy as np
import torch

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1], target="cpu")
def reduce_axis(shape, dim=-1, dtype="float32"):
    """Sums ``shape`` over ``dim``: the output shape is computed in Python
    from the tuple, as TileLang scripts do."""
    axis = dim % len(shape)
    out_shape = list(shape)
    out_shape.pop(axis)
    rows, cols = (shape[0], shape[1]) if axis == 1 else (shape[1], shape[0])

    @T.prim_func
    def main(A: T.Tensor(shape, dtype), B: T.Tensor(out_shape, dtype)):
        with T.Kernel(1, threads=1):
            for r in T.serial(rows):
                acc = T.alloc_var(dtype, init=0)
                for c in T.serial(cols):
                    if axis == 1:
                        acc += A[r, c]
                    else:
                        acc += A[c, r]
                B[r] = acc
    return main


@tilelang.jit(out_idx=[1], target="cpu")
def weighted_copy(shape, weights, tiles, by_row=False):
    """``weights`` a list, ``tiles`` a tuple of tuples. ``by_row`` indexes
    the Python list with a loop variable, which TileLang's tracer cannot
    do either (a TypeError)."""
    (tile_m, tile_n), = tiles
    total = sum(weights)

    @T.prim_func
    def main(A: T.Tensor(shape, "float32"), B: T.Tensor(shape, "float32")):
        with T.Kernel(shape[0] // tile_m, shape[1] // tile_n,
                      threads=1) as (bx, by):
            for i, j in T.grid(tile_m, tile_n):
                if by_row:
                    B[bx * tile_m + i, by * tile_n + j] = \
                        A[bx * tile_m + i, by * tile_n + j] * weights[i]
                else:
                    B[bx * tile_m + i, by * tile_n + j] = \
                        A[bx * tile_m + i, by * tile_n + j] * total
    return main


@tilelang.jit(out_idx=[1], target="cpu")
def scale_1d(shape, factor=2.0):
    @T.prim_func
    def main(A: T.Tensor(shape, "float32"), B: T.Tensor(shape, "float32")):
        with T.Kernel(1, threads=1):
            for i in T.serial(shape[0]):
                B[i] = A[i] * factor
    return main


def nested_kernel(x):
    shape = tuple(x.shape)  # a tuple the nested kernel closes over

    @tilelang.jit(out_idx=[1], target="cpu")
    def negate(dtype="float32"):
        @T.prim_func
        def main(A: T.Tensor(shape, dtype), B: T.Tensor(shape, dtype)):
            with T.Kernel(1, threads=1):
                for i, j in T.grid(shape[0], shape[1]):
                    B[i, j] = -A[i, j]
        return main
    return negate()


def main():
    torch.manual_seed(0)
    for shape, dim in (((4, 129), 1), ((4, 129), -1), ((33, 5), 0)):
        x = torch.randn(shape)
        got = reduce_axis(tuple(x.shape), dim)(x)
        ref = x.double().sum(dim)
        assert got.shape == ref.shape, (got.shape, ref.shape)
        torch.testing.assert_close(got.double(), ref, rtol=1e-5, atol=1e-5)

    x = torch.randn(8, 12)
    weights = [0.5, -1.0, 2.0, 3.0]
    got = weighted_copy((8, 12), weights, ((4, 6),))(x)
    torch.testing.assert_close(got.double(), x.double() * sum(weights),
                               rtol=1e-6, atol=1e-6)
    # The instance the call asked for raises while tlc traces it: an error
    # naming the cause, not a kernel missing its body.
    try:
        weighted_copy((8, 12), weights, ((4, 6),), by_row=True)
    except tilelang.TLCBuildError as e:
        assert "list indices must be integers" in str(e), e
    else:
        raise AssertionError("a factory that raises built a kernel")

    # NumPy integers inside a shape are ints.
    x = torch.randn(6, 3)
    got = reduce_axis((np.int64(6), np.int32(3)), np.int64(0))(x)
    torch.testing.assert_close(got.double(), x.double().sum(0),
                               rtol=1e-5, atol=1e-5)

    # torch.Size is a tuple; (5,) stays a one-element tuple.
    x = torch.randn(5)
    torch.testing.assert_close(scale_1d(x.shape, 3.0)(x).double(),
                               x.double() * 3.0, rtol=1e-6, atol=1e-6)

    x = torch.randn(3, 7)
    torch.testing.assert_close(nested_kernel(x)(x).double(), -x.double(),
                               rtol=0, atol=0)

    # A container holding a value tlc cannot take is still a TypeError.
    try:
        reduce_axis((4, object()), 1)
    except TypeError as e:
        assert "cannot pass shape=" in str(e), e
    else:
        raise AssertionError("a tuple holding an object was accepted")
    print("factory_containers: OK")


if __name__ == "__main__":
    main()
