"""NumPy reference of scalar-fragment-reduce.py: one line per kernel, PASS
when the saved outputs under argv[1] match."""
import os
import sys

import numpy as np

root = sys.argv[1]


def load(kernel, name, inputs=False):
    return np.load(os.path.join(root, kernel, "inputs" if inputs else "",
                                name + ".npy"))


def report(kernel, expected):
    got = load(kernel, "B")
    ok = got.shape == expected.shape and np.allclose(got, expected, atol=1e-5)
    print(kernel, "PASS" if ok else "FAIL")


a = load("one_element", "A", True).astype(np.float64)
report("one_element", np.full(128, 1.0 + a[2]))
a = load("rows", "A", True).astype(np.float64)
report("rows", np.array([(-a).max(), a.max()]))
