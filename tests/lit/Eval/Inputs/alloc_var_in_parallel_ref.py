"""NumPy oracle of alloc-var-in-parallel.py: argv[1] holds what tlc-run
saved (one folder per kernel, inputs under inputs/)."""
import os
import sys

import numpy as np

root = sys.argv[1]


def load(d, name, inputs=False):
    return np.load(os.path.join(root, d, "inputs" if inputs else "", name + ".npy"))


for d in sorted(os.listdir(root)):
    a = load(d, "A", True).astype(np.float64)
    if d.startswith("select_sign"):
        ok = np.array_equal(load(d, "B"), np.where(a > 0, 1.0, -1.0))
    elif d.startswith("running_init"):
        ok = np.allclose(load(d, "B"), a * 8.0)
    else:
        continue
    print(d, "PASS" if ok else "FAIL")
