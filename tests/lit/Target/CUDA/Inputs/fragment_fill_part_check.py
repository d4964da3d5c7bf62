"""Checks fragment-fill-part.py's CPU output against NumPy in float64."""
import os
import sys

import numpy as np

out = sys.argv[1]
load = lambda name: np.load(os.path.join(out, name + ".npy"))
a, b = load("A").astype(np.float64), load("B").astype(np.float64)
c = a @ b
d = c.copy()
c[:, 0:32] = 0.0
d[:, 0:32] = 0.0
d += 1.0
for by in range(2):
    rows = slice(by * 64 + by * 8, by * 64 + by * 8 + 16)
    d[rows, 8:24] = -2.0
    d[by * 64 + 63, :] = 3.0
ok = np.allclose(load("C"), c, rtol=1e-3, atol=1e-3) and np.allclose(load("D"), d, rtol=1e-3, atol=1e-3)
print("fill_part", "OK" if ok else "MISMATCH")
