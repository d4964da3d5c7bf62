# int4 tensors through the package (CPU target): a T.empty int4 output is
# the caller's int8 tensor of the packed bytes, last extent halved (what
# TileLang's T.empty gives: test_tilelang_language_func_attrs), element 2k
# in the low nibble; an int8 tensor passed for an int4 parameter is read as
# packed int4 elements. Values are checked against NumPy (two's complement
# nibbles, narrowing modulo 16). Also tilelang.quantize.utils'
# general_compress / interleave_weight (weight_packing), against the order
# in which the LOP3 decoders read the bits.

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


def weight_packing():
    """tilelang.quantize.utils' host packing for the LOP3 decoders. Oracle:
    the decoders' reading order (tests/lit/Target/Cpp/Inputs/
    lop3_decode_check.py emulates the PTX): the float16 decoder's step i
    takes bits 4i..4i+3 (element 2i) and 16+4i.. (element 2i+1) of a word,
    the int8 one byte lane l at bit 8l+4i (element 4i+l)."""
    from tilelang.quantize import general_compress
    from tilelang.quantize.utils import interleave_weight
    rng = np.random.default_rng(3)
    w = rng.integers(0, 16, (4, 64))
    packed = general_compress(torch.from_numpy(w), source_bits=4)
    assert packed.dtype == torch.int8 and tuple(packed.shape) == (4, 32)
    assert np.array_equal(unpack(packed.numpy()) % 16, w)
    assert np.array_equal(general_compress(w.astype(np.int8), 4), packed.numpy())
    words = lambda q: q.numpy().view("<u4").astype(np.int64)  # noqa: E731
    fp16 = words(interleave_weight(packed, 4, "float16"))
    got = np.stack([(fp16 >> (4 * i + 16 * half)) & 0xF
                    for i in range(4) for half in range(2)], axis=-1)
    assert np.array_equal(got.reshape(4, 64), w), "float16 order"
    i8 = words(interleave_weight(packed, 4, "int8"))
    got = np.stack([(i8 >> (8 * lane + 4 * i)) & 0xF
                    for i in range(2) for lane in range(4)], axis=-1)
    assert np.array_equal(got.reshape(4, 64), w), "int8 order"
    for nbits in (1, 2, 4):
        for target in ("float16", "int8"):
            a = interleave_weight(packed, nbits, target)
            assert a.dtype == torch.int8 and a.shape == packed.shape
            assert np.array_equal(a.numpy(), interleave_weight(
                packed.numpy(), nbits, target)), (nbits, target)
            # A permutation of each word's bits: as many ones.
            ones = lambda q: np.unpackbits(q.numpy().view(np.uint8)).sum()  # noqa: E731
            assert ones(a) == ones(packed), (nbits, target)
    try:
        interleave_weight(packed, 4, "bfloat16")
    except ValueError as e:
        assert "target_dtype" in str(e), e
    else:
        raise AssertionError("a bfloat16 target was accepted")


def main():
    weight_packing()
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
