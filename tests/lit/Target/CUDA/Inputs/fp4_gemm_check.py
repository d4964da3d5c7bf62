"""Checks one saved fp4 GEMM run (tlc-run --save DIR: A [M, K] and B [N, K]
float4_e2m1fn, packed two a byte, C [M, N] float32) against NumPy: C = A @ B.T
in float64 with every code decoded from the OCP MX spec's E2M1 bit fields.

Usage: fp4_gemm_check.py DIR
Prints "ok" or "MISMATCH max-error".
"""
import sys

import numpy as np


def decode_e2m1(packed):
    """Packed bytes (element 2k in the low nibble of byte k) to float64:
    sign bit 3, exponent bits 2-1 (bias 1), mantissa bit 0; exponent 0 is
    subnormal (mantissa x 2^-1)."""
    codes = np.stack([packed & 0xF, packed >> 4], axis=-1).reshape(
        packed.shape[:-1] + (packed.shape[-1] * 2,)).astype(np.int64)
    s = (codes >> 3) & 1
    e = (codes >> 1) & 3
    m = codes & 1
    mag = np.where(e == 0, m * 0.5, np.exp2(e - 1.0) * (1.0 + m / 2.0))
    return np.where(s == 1, -mag, mag)


d = sys.argv[1]
a = decode_e2m1(np.load(d + "/inputs/A.npy"))
b = decode_e2m1(np.load(d + "/inputs/B.npy"))
c = np.load(d + "/C.npy").astype(np.float64)
ref = a @ b.T
# Every product of two fp4 values and their sums over K <= 2^12 are exact
# in float32 (at most 1 + 3 + 12 significant bits), so the CPU result is
# compared exactly.
err = np.abs(c - ref).max() if c.shape == ref.shape else np.inf
print("ok" if err == 0 else "MISMATCH %g" % err)
