"""NumPy oracle of fill-runtime-extent.py.

  fill_runtime_extent_ref.py inputs DIR  writes Bounds (0 <= a <= b <= 96
                                         per row, one empty row), XIn, YIn
  fill_runtime_extent_ref.py check DIR   X is XIn with X[r, a:b] = 7, Y is
                                         YIn with Y[r, a:b, 1:3] = 0"""
import os
import sys

import numpy as np

ROWS, COLS = 8, 96
mode, d = sys.argv[1], sys.argv[2]
if mode == "inputs":
    rng = np.random.default_rng(5)
    a = rng.integers(0, COLS, ROWS)
    b = np.minimum(a + rng.integers(0, 40, ROWS), COLS)
    b[3] = a[3]  # an empty slice
    os.makedirs(d, exist_ok=True)
    np.save(os.path.join(d, "Bounds.npy"), np.stack([a, b], axis=1).astype(np.int32))
    np.save(os.path.join(d, "XIn.npy"), rng.integers(-100, 100, (ROWS, COLS)).astype(np.int64))
    np.save(os.path.join(d, "YIn.npy"), rng.standard_normal((ROWS, COLS, 4)).astype(np.float32))
    sys.exit(0)
bounds = np.load(os.path.join(d, "inputs", "Bounds.npy"))
x0 = np.load(os.path.join(d, "inputs", "XIn.npy"))
y0 = np.load(os.path.join(d, "inputs", "YIn.npy"))
x = np.load(os.path.join(d, "X.npy"))
y = np.load(os.path.join(d, "Y.npy"))
wx, wy = x0.copy(), y0.copy()
for r, (a, b) in enumerate(bounds):
    wx[r, a:b] = 7
    wy[r, a:b, 1:3] = 0
print("fill_rows X", bool((x == wx).all()), "Y", bool((y == wy).all()))
