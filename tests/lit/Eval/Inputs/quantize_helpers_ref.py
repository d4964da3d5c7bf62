"""Oracle of quantize-helpers.py, from the formats' definitions.

  quantize_helpers_ref.py inputs DIR   writes P, S, Q, W, X (.npy)
  quantize_helpers_ref.py check DIR    compares the saved outputs bit for
                                       bit; one line per helper

Facts used: an fp4 field is bit 3 sign, bits 1-2 exponent, bit 0 mantissa;
TileLang's bf16 decode puts exponent e + 126 + scale (at most 255) and the
mantissa bit at bf16 bit 6. Its f32 decode of a field (sign, 3-bit code c)
is 0 for c == 0, else sign * 2^(c + 120 - 127). Its f32 -> fp4 code is
min(e - 120 + first mantissa bit, 7) above exponent 120, 1 at 120, 0 below,
with the sign in bit 3. bfloat16 packing rounds to nearest even (Inf kept,
NaN stays NaN); unpacking is exact."""
import os
import struct
import sys
from fractions import Fraction

import numpy as np

N = 256


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def bits_f32(b):
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def bf16_nearest(x):
    """The bfloat16 bits nearest the float32 x, ties to even (by value)."""
    b = f32_bits(x)
    sign = b & 0x80000000
    if (b & 0x7F800000) == 0x7F800000:
        return (b >> 16) | (0x40 if b & 0x7FFFFF else 0)
    lo = b & 0xFFFF0000
    cands = [lo, lo + 0x10000 if (lo & 0x7FFF0000) < 0x7F800000 else lo]
    exact = Fraction(x)

    def key(c):
        v = bits_f32(c)
        if v in (float("inf"), float("-inf")):
            dist = abs(Fraction(2) ** 128 - abs(exact))  # overflow: the next power
        else:
            dist = abs(Fraction(v) - exact)
        return (dist, (c >> 16) & 1)

    return min(cands, key=key) >> 16


mode, d = sys.argv[1], sys.argv[2]
if mode == "inputs":
    rng = np.random.default_rng(21)
    os.makedirs(d, exist_ok=True)
    np.save(os.path.join(d, "P.npy"), rng.integers(0, 256, N // 2, dtype=np.uint8))
    np.save(os.path.join(d, "S.npy"), rng.integers(0, 140, N, dtype=np.uint8))
    np.save(os.path.join(d, "Q.npy"), rng.integers(-128, 128, N // 2, dtype=np.int8))
    np.save(os.path.join(d, "W.npy"), rng.integers(0, 1 << 32, N // 8, dtype=np.uint64).astype(np.uint32))
    specials = [float("nan"), float("inf"), float("-inf"), 0.0, -0.0,
                bits_f32(0x3F808000), bits_f32(0x3F818000),  # ties to even
                bits_f32(0x7F7FFFFF), bits_f32(0x00000001), 2.0 ** -7, 2.0 ** -8,
                1.5, 3.0, 6.0, 1e30, -2.75]
    x = np.concatenate([np.array(specials, np.float32),
                        (rng.standard_normal(N - len(specials)) * 4).astype(np.float32)])
    np.save(os.path.join(d, "X.npy"), x)
    sys.exit(0)

inp = lambda name: np.load(os.path.join(d, "inputs", name + ".npy"))
out = lambda name: np.load(os.path.join(d, name + ".npy"))
P, S, Q, W, X = (inp(k) for k in "PSQWX")

# bfloat16 outputs are saved as float32 values.
F = [f32_bits(float(v)) >> 16 for v in out("F")]
ok = True
for i in range(N):
    field = (int(P[i // 2]) >> (4 * (i % 2))) & 15
    e = min(((field >> 1) & 3) + 126 + int(S[i]), 255)
    want = ((field >> 3) << 15) | (e << 7) | ((field & 1) << 6)
    ok &= F[i] == want
print("f4_to_bf16", "ok" if ok else "WRONG")

I = out("I")
ok = True
for i in range(N):
    nib = (int(Q[i // 2]) & 0xFF) >> (4 * (i % 2)) & 15
    ok &= int(I[i]) == (nib - 16 if nib >= 8 else nib)
print("int4_sign_extend", "ok" if ok else "WRONG")

G = out("G")
ok = True
for i in range(N):
    field = (int(W[i // 8]) >> (4 * (i % 8))) & 15
    code, sign = field & 7, -1.0 if field >> 3 else 1.0
    want = 0.0 if code == 0 else sign * 2.0 ** (code + 120 - 127)
    ok &= float(G[i]) == want and (code != 0 or f32_bits(float(G[i])) == 0)
print("f4_to_f32", "ok" if ok else "WRONG")

C = out("C")
ok = True
for i in range(N):
    b = f32_bits(float(X[i]))
    e, first = (b >> 23) & 255, (b >> 22) & 1
    code = min(e - 120 + first, 7) if e > 120 else (1 if e == 120 else 0)
    ok &= int(C[i]) == ((b >> 31) << 3 | code)
print("f32_to_f4", "ok" if ok else "WRONG")

R = out("R")
ok = True
for j in range(N // 2):
    want = bf16_nearest(float(X[2 * j])) | (bf16_nearest(float(X[2 * j + 1])) << 16)
    ok &= int(R[j]) == want
print("bf16x2_pack", "ok" if ok else "WRONG")

Y = out("Y")
ok = True
for j in range(N // 2):
    for k, half in enumerate((int(R[j]) & 0xFFFF, int(R[j]) >> 16)):
        got = f32_bits(float(Y[2 * j + k]))
        ok &= got == half << 16 or (np.isnan(Y[2 * j + k]) and (half & 0x7F80) == 0x7F80 and half & 0x7F)
print("bf16x2_unpack", "ok" if ok else "WRONG")
