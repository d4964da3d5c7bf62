# float4_e2m1fn tensors through the package (CPU target): a T.empty fp4
# output comes back as the caller's packed tensor (torch.float4_e2m1fn_x2,
# or uint8 where torch lacks it) with the last extent halved, element 2k in
# the low nibble; a packed tensor passed in is read as fp4 elements. Codes
# are checked against the OCP MX table (nearest value, ties to the even
# code, saturation to +-6), decoded values against the table.

import numpy as np
import tilelang
import tilelang.language as T
import torch

MAGNITUDES = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0])
VALUES = np.concatenate([MAGNITUDES, -MAGNITUDES])


def oracle_codes(x):
    mag = np.minimum(np.abs(x), 6.0)
    dist = np.abs(mag[..., None] - MAGNITUDES)
    tied = dist == dist.min(axis=-1, keepdims=True)
    even = tied & (np.arange(8) % 2 == 0)
    code = np.where(even.any(axis=-1), even.argmax(axis=-1),
                    tied.argmax(axis=-1))
    return (code + 8 * np.signbit(x)).astype(np.uint8)


@tilelang.jit(target="cpu")
def to_fp4(X, block: int = 64):
    M, N = T.const("M, N")
    X: T.Tensor((M, N), T.float32)
    Q = T.empty((M, N), T.float4_e2m1fn)
    with T.Kernel(M, threads=32) as bx:
        for j in T.Parallel(N):
            Q[bx, j] = X[bx, j]
    return Q


@tilelang.jit(target="cpu", out_idx=[1])
def from_fp4(M, N):

    @T.prim_func
    def main(Q: T.Tensor((M, N), T.float4_e2m1fn),
             F: T.Tensor((M, N), T.float32)):
        with T.Kernel(M, threads=32) as bx:
            for j in T.Parallel(N):
                F[bx, j] = Q[bx, j]

    return main


def main():
    assert T.dtype(T.float4_e2m1fn).bits == 4
    want_torch = getattr(torch, "float4_e2m1fn_x2", torch.uint8)
    assert T.float4_e2m1fn.as_torch() in (want_torch, torch.uint8)

    rng = np.random.default_rng(3)
    x = rng.uniform(-8, 8, (8, 64)).astype(np.float32)
    x[0, :16] = VALUES
    x[1, :7] = (MAGNITUDES[1:] + MAGNITUDES[:-1]) / 2  # every tie
    q = to_fp4(torch.from_numpy(x))
    assert tuple(q.shape) == (8, 32), q.shape
    raw = q.view(torch.uint8).numpy()
    codes = np.stack([raw & 0xF, raw >> 4], axis=-1).reshape(8, 64)
    want = oracle_codes(x.astype(np.float64))
    assert np.array_equal(codes, want), np.argwhere(codes != want)[:5]

    f = from_fp4(8, 64)(q).numpy()
    assert f.shape == (8, 64)
    assert np.array_equal(f, VALUES[want]) and \
        np.array_equal(np.signbit(f), np.signbit(VALUES[want]))

    # A packed tensor of the wrong width is a shape error.
    try:
        from_fp4(8, 64)(torch.zeros((8, 64), dtype=torch.uint8))
    except ValueError as e:
        assert "shape" in str(e), e
    else:
        raise AssertionError("a (8, 64) packed tensor for (8, 64) fp4 "
                             "elements was accepted")
    print("fp4_packed: ok")


main()
