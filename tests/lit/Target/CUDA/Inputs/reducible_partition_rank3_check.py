"""reducible-partition-rank3.py's CPU outputs against float64 NumPy (the
saved run directory given): one `NAME ok` / `NAME BAD` line per output."""
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


check("midsum", "S", load("midsum", "A", True).sum(1))
check("lastsum", "S", (load("lastsum", "A", True) * 2.0 + 1.0).sum(2))
check("lastmax", "M", load("lastmax", "A", True).max(2, keepdims=True))
check("firstsum", "S", load("firstsum", "A", True).sum(0))
