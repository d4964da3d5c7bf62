"""NumPy check of layout-inference-settles.py's saved run (float64)."""
import os
import sys

import numpy as np

out = sys.argv[1]  # one kernel: its files at the top
x = np.load(os.path.join(out, "inputs", "X.npy")).astype(np.float64)
y = np.load(os.path.join(out, "Y.npy"))
block_M = 8
ref = np.empty_like(x)
for r0 in range(0, x.shape[0], block_M):
    t = x[r0:r0 + block_M]
    a = t.sum(axis=1) * 0.5
    b = (t[1] * t).sum(axis=1) - a * a
    ref[r0:r0 + block_M] = (t - a[:, None]) * b[:, None]
print("row_stats", bool(np.allclose(y, ref, rtol=1e-4, atol=1e-3 * np.abs(ref).max())))
