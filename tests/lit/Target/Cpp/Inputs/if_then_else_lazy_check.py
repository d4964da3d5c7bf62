"""NumPy oracle of if-then-else-lazy.py: argv[1..3] hold what tlc-run saved
for the shifted, tail and reread kernels (inputs under inputs/)."""
import os
import sys

import numpy as np

roots = dict(zip(["shifted", "tail", "reread"], sys.argv[1:4]))


def load(k, name, inputs=False):
    return np.load(os.path.join(roots[k], "inputs" if inputs else "", name + ".npy"))


a = load("shifted", "A", True).astype(np.float64)
want = np.full(a.size, -1.0)
want[3:] = 2.0 * a[:-3]
ok = np.array_equal(load("shifted", "B"), want.astype(np.float32))
print("shifted", "OK" if ok else "FAIL")

a = load("tail", "A", True).astype(np.float32)
b = load("tail", "B")
want = np.zeros(b.size, np.float32)
for g in range(1, b.size):
    want[g] = (a[g - 1] + a[g] if g < a.size else np.float32(5.0)) + np.float32(1.0)
print("tail", "OK" if np.array_equal(b, want) else "FAIL")

a = load("reread", "A", True)
want = np.where(np.arange(a.size) % 2 == 0, a, 7).astype(np.int32)
print("reread", "OK" if np.array_equal(load("reread", "B"), want) else "FAIL")
