"""Checks access-ptr.py's CPU output against NumPy."""
import os
import sys

import numpy as np

out = sys.argv[1]
load = lambda name: np.load(os.path.join(out, name + ".npy"))
a = load("inputs/A").astype(np.float64)
s, g = load("S"), load("G")
# S: each row's sum; G: loc = [A[r, 2], A[r, 5], A[r, 5] + 1, A[r, 5] + 2]
# (store_pair wrote loc[0:2], then fill3 through &loc[1] overwrote 1..3).
want = np.stack([a[:, 2], a[:, 5], a[:, 5] + 1, a[:, 5] + 2], axis=1)
ok = np.allclose(s, a.sum(1), rtol=1e-5, atol=1e-5) and np.allclose(
    g, want, rtol=1e-6, atol=1e-6)
print("access_ptr", "OK" if ok else "MISMATCH")
