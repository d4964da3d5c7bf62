"""Checks one saved block-scaled MXFP8 GEMM run (tlc-run --save DIR: A [M, K]
and B [K, N] float8_e4m3fn, SFA [M, KB] and SFB [N, KB] E8M0 scale factors,
one per 128 K elements, C [M, N] float32) against NumPy in float64:
C = sum over K blocks b of (A[:, b] * 2^(SFA[:, b] - 127)) @
(B[b, :] * 2^(SFB[:, b] - 127)).

The saved fp8 tensors hold the values of their codes; each must be one of
the 254 finite E4M3 values, which are decoded here from the OCP MX spec's
bit fields (sign bit 7, exponent bits 6-3 with bias 7, mantissa bits 2-0;
exponent 0 subnormal; S.1111.111 NaN).

Usage: mxfp8_gemm_check.py DIR
Prints "ok" or "MISMATCH ...".
"""
import sys

import numpy as np

codes = np.arange(256)
s, e, m = codes >> 7, (codes >> 3) & 15, codes & 7
mag = np.where(e == 0, m / 8.0 * 2.0**-6, 2.0**(e - 7.0) * (1 + m / 8.0))
finite = (codes & 0x7F) != 0x7F
e4m3 = np.where(s == 1, -mag, mag)[finite]

d = sys.argv[1]
a = np.load(d + "/inputs/A.npy").astype(np.float64)
b = np.load(d + "/inputs/B.npy").astype(np.float64)
sfa = np.load(d + "/inputs/SFA.npy").astype(np.float64)
sfb = np.load(d + "/inputs/SFB.npy").astype(np.float64)
c = np.load(d + "/C.npy").astype(np.float64)
if not (np.isin(a, e4m3).all() and np.isin(b, e4m3).all()):
    print("MISMATCH: an input is no E4M3 value")
    sys.exit()
K = a.shape[1]
ref = np.zeros((a.shape[0], b.shape[1]))
for blk in range((K + 127) // 128):
    ks = slice(blk * 128, min(K, blk * 128 + 128))
    ref += (a[:, ks] * np.exp2(sfa[:, blk:blk + 1] - 127)) @ \
        (b[ks, :] * np.exp2(sfb[:, blk:blk + 1] - 127).T)
# float32 sums of K products: relative to the sum of the magnitudes.
scale = (np.abs(a) * np.exp2(sfa.max() - 127)) @ (np.abs(b) * np.exp2(sfb.max() - 127))
err = (np.abs(c - ref) / np.maximum(scale, 1e-30)).max()
print("ok" if c.shape == ref.shape and err < 1e-5 else "MISMATCH %g" % err)
