"""NumPy reference of fragment-replica-store.py: prints `replica B True
C True D True E True` when the outputs saved under argv[1] match the
float64 computation from the saved inputs (f32 tolerance)."""
import os
import sys

import numpy as np

root = sys.argv[1]
g = np.load(os.path.join(root, "inputs", "G.npy")).astype(np.float64)
a = np.load(os.path.join(root, "inputs", "A.npy")).astype(np.float64)
m = g.max(axis=0)
o = np.zeros_like(a)
for k in range(g.shape[0]):
    s = g[k] - m
    o += a * s[:, None]
ref = {"B": o, "C": 3.0 * (g[-1] - m) + m, "D": m + 1.0, "E": m}
words = ["replica"]
for name, want in ref.items():
    got = np.load(os.path.join(root, name + ".npy")).astype(np.float64)
    ok = got.shape == want.shape and bool(
        np.abs(got - want).max() <= 1e-5 * (1 + np.abs(want).max()))
    words += [name, str(ok)]
print(" ".join(words))
