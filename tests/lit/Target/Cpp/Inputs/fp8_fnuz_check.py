"""Inputs and NumPy oracle of fp8-fnuz.py. `inputs DIR` writes X.npy
(values near each format's ties, subnormals, limits, zeros, NaN);
`check DIR` compares the saved run with each format's nearest value,
found among all 256 codes (ties to the even code); E8M0 by PyTorch's
rounding rule."""
import os
import sys

import numpy as np


def fnuz_values(man, bias):
    codes = np.arange(256)
    e = (codes & 0x7F) >> man
    m = codes & ((1 << man) - 1)
    mag = np.where(e == 0, m * 2.0 ** (1 - bias - man),
                   ((1 << man) + m) * 2.0 ** (e - bias - man))
    v = np.where(codes & 0x80, -mag, mag)
    v[0x80] = np.nan
    return codes, v


def nearest(x, codes, vals, lo_ok):
    finite = ~np.isnan(vals)
    c, v = codes[finite], vals[finite]
    out = np.empty_like(x)
    for k, xi in enumerate(x):
        if np.isnan(xi) or not lo_ok(xi):
            out[k] = np.nan
            continue
        xi = min(max(xi, v.min()), v.max())  # satfinite
        d = np.abs(v - xi)
        best = np.flatnonzero(d == d.min())
        even = [b for b in best if c[b] % 2 == 0]
        out[k] = v[(even or list(best))[0]]
    return out + 0.0  # -0 -> +0


if sys.argv[1] == "inputs":
    d = sys.argv[2]
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(11)
    special = [0.0, -0.0, np.nan, 1.0, -1.0, 1.0625, 1.1875, 1.125, 1.5, 3.0,
               0.75, 240.0, 250.0, -1e6, 1e6, 57344.0, 2.0 ** -10, 2.0 ** -11,
               3 * 2.0 ** -12, 2.0 ** -17, 2.0 ** -18, 6.0, 12.0, 2.0 ** 127,
               2.0 ** -127, 2.0 ** -130, 1e-40]
    x = np.concatenate([special,
                        rng.normal(0, 4, 128),
                        2.0 ** rng.uniform(-20, 18, 256 - 128 - len(special))])
    np.save(os.path.join(d, "X.npy"), x.astype(np.float32))
    sys.exit(0)

d = sys.argv[2]
x = np.load(os.path.join(d, "inputs", "X.npy")).astype(np.float64)
e4 = nearest(x, *fnuz_values(3, 8), lambda v: True)
e5 = nearest(x, *fnuz_values(2, 16), lambda v: True)

def e8m0_from_f32(v):
    """PyTorch's float32 -> float8_e8m0fnu rule (sources and a table of
    cases in ../../Inputs/fp8_e8m0_check.py): sign ignored, NaN/inf give
    NaN, a mantissa >= 1.5 rounds up, past 2^127 is NaN, float32
    subnormals and zero give 2^-126 above 2^-127, else 2^-127."""
    if np.isnan(v) or np.isinf(v):
        return np.nan
    v = abs(v)
    if v < 2.0 ** -126:
        return 2.0 ** -126 if v > 2.0 ** -127 else 2.0 ** -127
    f, e = np.frexp(v)
    e = e - 1 + (2 * f >= 1.5)
    return np.nan if e > 127 else 2.0 ** e


e8 = np.array([e8m0_from_f32(v) for v in x])
want = {"E4": e4, "E5": e5, "E8": e8,
        "Sum": (e4.astype(np.float32) + e5.astype(np.float32)).astype(np.float64)}
for name, w in want.items():
    got = np.load(os.path.join(d, name + ".npy")).astype(np.float64)
    ok = np.array_equal(got, w, equal_nan=True)
    print(name, "OK" if ok else "FAIL")
    if not ok:
        bad = np.flatnonzero(~((got == w) | (np.isnan(got) & np.isnan(w))))
        print("  x", x[bad][:8], "got", got[bad][:8], "want", w[bad][:8])
