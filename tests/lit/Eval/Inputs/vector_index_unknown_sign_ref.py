"""NumPy oracle of vector-index-unknown-sign.py (run directories of the
load and the store kernel as argv[1] and argv[2])."""
import os
import sys

import numpy as np

load, store = sys.argv[1], sys.argv[2]
a = np.load(os.path.join(load, "inputs", "A.npy"))
b = np.load(os.path.join(load, "B.npy"))
want = np.stack([a[np.arange(t - 2, t + 2)] for t in range(4)])  # Python wraps
print("load_unknown_sign", bool((b == want).all()))
b = np.load(os.path.join(store, "inputs", "B.npy"))
a = np.load(os.path.join(store, "A.npy"))
want = np.full(1024, -1, np.float32)
for t in range(4):
    want[np.arange(t - 2, t + 2)] = b[t]
print("store_unknown_sign", bool((a == want).all()))
