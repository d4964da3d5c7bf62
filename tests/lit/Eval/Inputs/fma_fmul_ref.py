"""Exact oracle of fma-fmul.py.

  fma_fmul_ref.py inputs64 DIR    writes DIR/{A,B,C}.npy: float64 normals
                                  with full 53-bit significands (tlc-run's
                                  own inputs are float32 values, whose
                                  products float64 holds exactly)
  fma_fmul_ref.py check DIR DIR64 each instance's F and P from its saved
                                  inputs (the float64 instance's in DIR64),
                                  computed with Python fractions and rounded
                                  once to the nearest value of the dtype
                                  (ties to even); per dtype, whether F and P
                                  match bit for bit, and on how many
                                  elements a product rounded before the
                                  addition would give another value"""
import os
import sys
from fractions import Fraction

import numpy as np

mode = sys.argv[1]
if mode == "inputs64":
    rng = np.random.default_rng(13)
    os.makedirs(sys.argv[2], exist_ok=True)
    for name in "ABC":
        np.save(os.path.join(sys.argv[2], name + ".npy"), rng.standard_normal(4096))
    sys.exit(0)
d, d64 = sys.argv[2], sys.argv[3]
# Instances in main()'s order: fma_fmul, fma_fmul_1, fma_fmul_2, fma_fmul_3.
ORDER = ["float32", "float64", "float16", "bfloat16"]


def nearest(x, dtype):
    """The value of dtype nearest to the fraction x, ties to even."""
    if dtype == "bfloat16":
        # The float32 nearest x truncated to bfloat16 (toward zero), and the
        # bfloat16 values one step smaller and larger in magnitude: x lies
        # between two of them.
        f = np.float32(float(x))
        bits = int(np.array([f]).view(np.uint32)[0])
        sign, mag = bits & 0x80000000, bits & 0x7FFF0000
        cands = [sign | m for m in (mag - 0x10000, mag, mag + 0x10000)
                 if 0 <= m <= 0x7F7F0000]
        vals = [np.array([c], np.uint32).view(np.float32)[0] for c in cands]
        best = min(vals, key=lambda v: (abs(Fraction(float(v)) - x),
                                        int(np.array([v]).view(np.uint32)[0] >> 16) & 1))
        return np.float32(best)
    t = {"float16": np.float16, "float32": np.float32, "float64": np.float64}[dtype]
    f = t(float(x))
    cands = [np.nextafter(f, t(-np.inf)), f, np.nextafter(f, t(np.inf))]
    ints = {np.float16: np.uint16, np.float32: np.uint32, np.float64: np.uint64}[t]
    return min(cands, key=lambda v: (abs(Fraction(float(v)) - x),
                                     int(np.array([v]).view(ints)[0]) & 1))


def same(a, b):
    return float(a) == float(b) or (np.isnan(a) and np.isnan(b))


lines = {}
for index, dtype in enumerate(ORDER):
    kernel = "fma_fmul" + ("_%d" % index if index else "")
    # A run of one kernel saves into the directory itself.
    path = d64 if dtype == "float64" else os.path.join(d, kernel)
    a = np.load(os.path.join(path, "inputs", "A.npy"))
    b = np.load(os.path.join(path, "inputs", "B.npy"))
    c = np.load(os.path.join(path, "inputs", "C.npy"))
    fo = np.load(os.path.join(path, "F.npy"))
    po = np.load(os.path.join(path, "P.npy"))
    fma_ok = fmul_ok = True
    differs = 0
    for i in range(a.size):
        x, y, z = Fraction(float(a[i])), Fraction(float(b[i])), Fraction(float(c[i]))
        want_f = nearest(x * y + z, dtype)
        want_p = nearest(x * y, dtype)
        fma_ok &= same(fo[i], want_f)
        fmul_ok &= same(po[i], want_p)
        differs += not same(nearest(Fraction(float(want_p)) + z, dtype), want_f)
    lines[dtype] = [
        "fma_fmul %s fma %s %d fused-differs %d"
        % (dtype, "exact" if fma_ok else "WRONG", a.size, differs),
        "fma_fmul %s fmul %s %d" % (dtype, "exact" if fmul_ok else "WRONG", a.size)]
for dtype in ["float32", "float64", "float16", "bfloat16"]:
    print("\n".join(lines.get(dtype, ["fma_fmul %s missing" % dtype])))
