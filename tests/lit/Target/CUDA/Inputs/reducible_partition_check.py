"""reducible-partition.py's CPU outputs against float64 NumPy (the saved run
directory given): one `NAME ok` / `NAME BAD` line per output."""
import os
import sys

import numpy as np

root = sys.argv[1]


def load(kernel, name, inputs=False):
    return np.load(os.path.join(root, kernel, "inputs" if inputs else "",
                                name + ".npy")).astype(np.float64)


def check(kernel, name, want):
    got = load(kernel, name)
    ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-5,
                                                 atol=1e-4)
    print(kernel, name, "ok" if ok else "BAD")


check("colsum", "S", load("colsum", "A", True).sum(0))
check("colmax", "M", load("colmax", "A", True).max(0))
check("keepsum", "S", load("keepsum", "A", True).sum(0, keepdims=True))
