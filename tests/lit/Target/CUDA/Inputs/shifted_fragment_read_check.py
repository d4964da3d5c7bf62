"""Checks shifted-fragment-read.py's CPU output against NumPy in float64."""
import os
import sys

import numpy as np

out = sys.argv[1]
load = lambda name: np.load(os.path.join(out, name + ".npy"))
acc = load("A").astype(np.float64) @ load("B").astype(np.float64)
want = acc.copy()
want[32:64] *= 2.0
corner = acc[8:24, 24:56] - (acc[40:56, 0:32] + 1.0)
ok = (np.allclose(load("Out"), want, rtol=1e-3, atol=1e-3) and
      np.allclose(load("Corner"), corner, rtol=1e-3, atol=1e-3))
print("split_store", "OK" if ok else "MISMATCH")
