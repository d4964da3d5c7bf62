#!/usr/bin/python3
"""NumPy reference of per-thread-views.py's gather_blocks (float64 sums)."""
import sys

import numpy as np

d = sys.argv[1] + "/"
x = np.load(d + "inputs/X.npy").astype(np.float64)
off = np.load(d + "inputs/Offsets.npy")
cnt = np.load(d + "inputs/Counts.npy")
y = np.load(d + "Y.npy").astype(np.float64)
bn = y.shape[1]
ref = np.full(y.shape, -1.0)
for g in range(y.shape[0]):
    s = sum(x[off[g, b]:off[g, b] + bn] for b in range(cnt[g]))
    ref[g, :cnt[g]] = s[:cnt[g]]
err = np.abs(y - ref).max()
print("counts", cnt, "max_abs_err", err, "ok", bool(np.allclose(y, ref, 1e-5, 1e-5)))
