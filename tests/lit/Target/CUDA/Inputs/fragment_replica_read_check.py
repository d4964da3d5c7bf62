"""NumPy reference of fragment-replica-read-store.py: prints `replica-read
B True C True` when the outputs saved under argv[1] match the float64
computation from the saved inputs (f32 tolerance)."""
import os
import sys

import numpy as np

root = sys.argv[1]
g = np.load(os.path.join(root, "inputs", "G.npy")).astype(np.float64)
a = np.load(os.path.join(root, "inputs", "A.npy")).astype(np.float64)
m = g.max(axis=0)
s = np.zeros_like(m)
o = np.zeros_like(a)
for k in range(g.shape[0]):
    d = g[k] - m
    m2 = 2.0 * s + d
    s = s + d
    o += a * s[:, None]
words = ["replica-read"]
for name, want in (("B", o), ("C", m2)):
    got = np.load(os.path.join(root, name + ".npy")).astype(np.float64)
    ok = got.shape == want.shape and bool(
        np.abs(got - want).max() <= 1e-5 * (1 + np.abs(want).max()))
    words += [name, str(ok)]
print(" ".join(words))
