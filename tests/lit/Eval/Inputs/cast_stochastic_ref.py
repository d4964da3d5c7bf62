"""NumPy model of T.cast(x, dtype, round="rs", rbits=r), for
cast-stochastic-rounding.py: argv[1] holds what tlc-run saved (A, R and
the kernel's outputs, the rounded values as float32: E4 / E5 for the
float8 formats, H for float16, G for bfloat16, F for float4_e2m1fn; those
present are checked).

The formats' values are tabulated from their bit fields (OCP e4m3fn: bias
7, no infinities, 0x7F NaN; e5m2: bias 15, exponent 31 for inf / NaN;
binary16: bias 15; bfloat16: bias 127; e2m1: bias 1, no inf / NaN), in
float64. PTX's cvt.rs adds n random bits to the n bits of the gap the
conversion drops and rounds away from zero on a carry: for |x| between
neighbours lo <= |x| < hi, up iff floor((|x| - lo) / (hi - lo) * 2^n) +
(r mod 2^n) >= 2^n, with n = 16 for the float8 formats and bfloat16
(the low 16 bits of r), 13 for float16 (the low 13: PTX's f16x2 form
takes 13 random bits a lane) and 8 for e2m1 (the low 8); |x| at or beyond
the largest finite value gives it (satfinite)."""
import os
import sys

import numpy as np


def table(exp_bits, man_bits, bias, finite_codes):
    vals = []
    for code in range(finite_codes):
        e, m = code >> man_bits, code & ((1 << man_bits) - 1)
        if e == 0:
            v = m / (1 << man_bits) * 2.0 ** (1 - bias)
        else:
            v = (1 + m / (1 << man_bits)) * 2.0 ** (e - bias)
        vals.append(v)
    return np.array(vals)


FORMATS = {
    "e4m3": ("E4", table(4, 3, 7, 0x7F), 16),   # 0x00..0x7E finite
    "e5m2": ("E5", table(5, 2, 15, 0x7C), 16),  # 0x00..0x7B finite
    "f16": ("H", table(5, 10, 15, 0x7C00), 13),
    "bf16": ("G", table(8, 7, 127, 0x7F80), 16),
    "e2m1": ("F", table(2, 1, 1, 8), 8),
}


def model(a, r, vals, n):
    out = np.empty_like(a, dtype=np.float64)
    for k, (x, bits) in enumerate(zip(a.astype(np.float64), r)):
        mag = abs(x)
        if mag >= vals[-1]:
            y = vals[-1]
        else:
            lo = np.searchsorted(vals, mag, side="right") - 1
            low, high = vals[lo], vals[lo + 1]
            one = 1 << n
            frac = int(np.floor((mag - low) / (high - low) * one))
            y = high if frac + (int(bits) & (one - 1)) >= one else low
        out[k] = -y if np.signbit(x) else y
    return out


def nearest(a, vals):
    mag = np.minimum(np.abs(a.astype(np.float64)), vals[-1])
    hi = np.clip(np.searchsorted(vals, mag), 1, len(vals) - 1)
    lo = hi - 1
    idx = np.where(mag - vals[lo] <= vals[hi] - mag, lo, hi)
    return np.copysign(vals[idx], a)


root = sys.argv[1]
a = np.load(os.path.join(root, "inputs", "A.npy"))
r = np.load(os.path.join(root, "inputs", "R.npy")).astype(np.int64)
for name, (out, vals, n) in FORMATS.items():
    if not os.path.exists(os.path.join(root, out + ".npy")):
        continue
    got = np.load(os.path.join(root, out + ".npy")).astype(np.float64)
    want = model(a, r, vals, n)
    ok = np.array_equal(got, want)
    # Stochastic, not to-nearest: some element rounds away from nearest.
    ok = ok and not np.array_equal(got, nearest(a, vals))
    bad = np.flatnonzero(got != want)[:3]
    print(name, "PASS" if ok else "FAIL",
          "" if ok else [(a[i], r[i], got[i], want[i]) for i in bad])
