"""guarded-fragment-default.py's CPU outputs against float64 NumPy (the
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


a = load("rows", "A", True)
f = a * 2 + 1
check("rows", "B", f)
check("rows", "R", f.sum(1))
check("rows", "S", f)
check("rows", "M", a.max(1))
a = load("cols", "A", True)
f = a + 1.5
check("cols", "B", f)
check("cols", "D", load("cols", "D", True) + f)
a = load("flat", "A", True)
f = a - 0.25
check("flat", "B", f)
check("flat", "T1", np.array([f.sum()]))
check("flat", "Z", np.zeros(100))
