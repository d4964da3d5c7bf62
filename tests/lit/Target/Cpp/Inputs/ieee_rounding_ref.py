"""Oracle of tests/lit/Target/Cpp/ieee-rounding.py: every T.ieee_* result
against the exact value rounded to float32 in its direction."""
import os
import sys
from fractions import Fraction

import numpy as np

d = sys.argv[1]
x, y, z = (np.load(os.path.join(d, "inputs", n + ".npy")).astype(np.float32) for n in "XYZ")
out = np.load(os.path.join(d, "Out.npy"))
INF = np.float32(np.inf)


def directed(exact, mode, cmp=None):
    """The float32 result of rounding `exact` (a Fraction, or None with
    cmp(f) = sign(f - exact) for irrational values) in direction mode."""
    if cmp is None:
        cmp = lambda f: (Fraction(float(f)) > exact) - (Fraction(float(f)) < exact)
        near = np.float32(float(exact))
    else:
        near = np.float32(cmp.approx)
    s = cmp(near)
    if mode == "rn" or s == 0:
        if mode == "rn":
            return near
        return near
    up = np.nextafter(near, INF) if s < 0 else near
    down = near if s < 0 else np.nextafter(near, -INF)
    if mode == "ru":
        return up
    if mode == "rd":
        return down
    positive = (down > 0) or (down == 0 and up > 0)
    return down if positive else up


def sqrt_cmp(v):
    q = np.sqrt(np.float64(v))
    def c(f):
        a, b = Fraction(float(f)) ** 2, Fraction(float(v))
        return (a > b) - (a < b)
    c.approx = q
    return c


ok = 0
for r, mode in enumerate(["rn", "rz", "ru", "rd"]):
    for k, name in enumerate(["add", "sub", "mul", "fdiv", "fmaf", "frcp", "fsqrt"]):
        bad = 0
        for i in range(x.size):
            X, Y, Z = Fraction(float(x[i])), Fraction(float(y[i])), Fraction(float(z[i]))
            if name == "fsqrt":
                want = directed(None, mode, sqrt_cmp(abs(x[i])))
            elif (name in ("fdiv", "frcp")) and Y == 0:
                continue
            else:
                e = {"add": X + Y, "sub": X - Y, "mul": X * Y, "fdiv": X / Y if Y else 0,
                     "fmaf": X * Y + Z, "frcp": 1 / Y if Y else 0}[name]
                want = directed(e, mode)
            got = out[7 * r + k, i]
            if got != want:
                bad += 1
                if bad <= 2:
                    print(f"{name} {mode} [{i}]: got {got!r} want {want!r}")
        ok += bad == 0
print(f"{ok} of 28 PASS")
