"""NumPy model of T.cast(x, float8, round="rs", rbits=r), for
cast-stochastic-rounding.py: argv[1] holds what tlc-run saved (A, R and
the kernel's E4 / E5, the rounded values as float32).

The formats' values are tabulated from their bit fields (OCP e4m3fn: bias
7, no infinities, 0x7F NaN; e5m2: bias 15, exponent 31 for inf / NaN),
in float64. For |x| between neighbours lo <= |x| < hi: up iff
floor((|x| - lo) / (hi - lo) * 2^16) + (r mod 2^16) >= 2^16; |x| at or
beyond the largest finite value gives it (satfinite)."""
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
    "e4m3": ("E4", table(4, 3, 7, 0x7F)),   # 0x00..0x7E finite
    "e5m2": ("E5", table(5, 2, 15, 0x7C)),  # 0x00..0x7B finite
}


def model(a, r, vals):
    out = np.empty_like(a, dtype=np.float64)
    for k, (x, bits) in enumerate(zip(a.astype(np.float64), r)):
        mag = abs(x)
        if mag >= vals[-1]:
            y = vals[-1]
        else:
            lo = np.searchsorted(vals, mag, side="right") - 1
            low, high = vals[lo], vals[lo + 1]
            frac = int(np.floor((mag - low) / (high - low) * 65536.0))
            y = high if frac + (int(bits) & 0xFFFF) >= 65536 else low
        out[k] = -y if np.signbit(x) else y
    return out


def nearest(a, vals):
    mag = np.minimum(np.abs(a.astype(np.float64)), vals[-1])
    idx = np.abs(mag[:, None] - vals[None, :]).argmin(axis=1)
    return np.copysign(vals[idx], a)


root = sys.argv[1]
a = np.load(os.path.join(root, "inputs", "A.npy"))
r = np.load(os.path.join(root, "inputs", "R.npy")).astype(np.int64)
for name, (out, vals) in FORMATS.items():
    got = np.load(os.path.join(root, out + ".npy")).astype(np.float64)
    want = model(a, r, vals)
    ok = np.array_equal(got, want)
    # Stochastic, not to-nearest: some element rounds away from nearest.
    ok = ok and not np.array_equal(got, nearest(a, vals))
    bad = np.flatnonzero(got != want)[:3]
    print(name, "PASS" if ok else "FAIL",
          "" if ok else [(a[i], r[i], got[i], want[i]) for i in bad])
