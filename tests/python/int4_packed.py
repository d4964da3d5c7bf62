# int4 tensors through the package (CPU target): a T.empty int4 output is
# the caller's int8 tensor of the packed bytes, last extent halved (what
# TileLang's T.empty gives: test_tilelang_language_func_attrs), element 2k
# in the low nibble; an int8 tensor passed for an int4 parameter is read as
# packed int4 elements. Values are checked against NumPy (two's complement
# nibbles, narrowing modulo 16).

import numpy as np
import tilelang
import tilelang.language as T
import torch


def wrap4(x):
    return ((np.asarray(x, dtype=np.int64) + 8) % 16) - 8


def unpack(raw):
    b = raw.view(np.uint8).astype(np.int64)
    return wrap4(np.stack([b & 0xF, b >> 4], axis=-1).reshape(
        b.shape[:-1] + (2 * b.shape[-1],)))


@tilelang.jit(target="cpu")
def to_int4(X):
    X: T.Tensor((3, 16), T.int32)
    Q = T.empty((3, 16), T.int4)
    with T.Kernel(3, threads=32) as bx:
        for j in T.Parallel(16):
            Q[bx, j] = T.Cast(T.int4, X[bx, j])
    return Q


@tilelang.jit(target="cpu", out_idx=[1])
def from_int4(M, N):

    @T.prim_func
    def main(Q: T.Tensor((M, N), T.int4), F: T.Tensor((M, N), T.int32)):
        with T.Kernel(M, threads=32) as bx:
            for j in T.Parallel(N):
                F[bx, j] = T.Cast(T.int32, Q[bx, j]) * 2 + 1

    return main


def main():
    assert T.dtype(T.int4).bits == 4
    assert T.int4.as_torch() == torch.int8

    rng = np.random.default_rng(7)
    x = rng.integers(-40, 40, (3, 16)).astype(np.int32)
    x[0] = np.arange(-8, 8)
    q = to_int4(torch.from_numpy(x))
    assert q.dtype == torch.int8 and tuple(q.shape) == (3, 8), (q.dtype,
                                                              q.shape)
    got = unpack(q.numpy())
    assert np.array_equal(got, wrap4(x)), np.argwhere(got != wrap4(x))[:5]

    f = from_int4(3, 16)(q).numpy()
    assert np.array_equal(f, wrap4(x) * 2 + 1)

    # A packed tensor of the wrong width is a shape error.
    try:
        from_int4(3, 16)(torch.zeros((3, 16), dtype=torch.int8))
    except ValueError as e:
        assert "shape" in str(e), e
    else:
        raise AssertionError("a (3, 16) int8 tensor for (3, 16) int4 "
                             "elements was accepted")
    print("int4_packed: ok")


main()
