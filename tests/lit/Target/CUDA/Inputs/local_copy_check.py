"""NumPy reference of local-copy.py: one line per kernel, PASS when the
saved outputs under argv[1] match."""
import os
import sys

import numpy as np

root = sys.argv[1]


def load(kernel, name, inputs=False):
    return np.load(os.path.join(root, kernel, "inputs" if inputs else "",
                                name + ".npy"))


def report(kernel, expected, atol=1e-5):
    got = load(kernel, "B")
    ok = got.shape == expected.shape and np.allclose(got, expected, atol=atol)
    print(kernel, "PASS" if ok else "FAIL")


a = load("scalar_local", "A", True)
report("scalar_local", a * np.float16(2))
a = load("row_local", "A", True)
report("row_local", a * np.arange(8, dtype=np.float32))
a = load("converting_local", "A", True)
report("converting_local", a.astype(np.float16).astype(np.float32))
a = load("shared_to_local", "A", True)
report("shared_to_local", a[::-1].sum(1), atol=1e-4)
