"""mma-c-padded-atoms.py's CPU outputs against float64 NumPy (the saved run
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
    ok = got.shape == want.shape and np.allclose(got, want, rtol=2e-2,
                                                 atol=2e-2)
    print(kernel, name, "ok" if ok else "BAD")


c = load("gemm96", "A", True) @ load("gemm96", "B", True)
check("gemm96", "C", c)
c = load("rowsum96", "A", True) @ load("rowsum96", "B", True)
check("rowsum96", "C", c)
check("rowsum96", "R", c.sum(1))
