"""NumPy reference of fragment-flat-index.py: one line per kernel instance
saved under argv[1], PASS when its output matches."""
import os
import sys

import numpy as np

root = sys.argv[1]


def load(kernel, name, inputs=False):
    return np.load(os.path.join(root, kernel, "inputs" if inputs else "",
                                name + ".npy"))


for kernel in sorted(os.listdir(root)):
    a = load(kernel, "A", True)
    b = load(kernel, "B")
    if kernel.startswith("composable_copy"):
        want = a.reshape(-1)
    elif kernel == "rows_of_seven":
        a = a.astype(np.float64)
        want = a * (np.arange(a.shape[0]) % 4 + 1)[:, None] + np.arange(7)
    else:
        a = a.astype(np.float64)
        i = np.arange(a.shape[0])[:, None] % 24
        j = np.arange(a.shape[1])[None, :] % 40
        want = a * 2 + (i * 40 + j)
    ok = b.shape == want.shape and np.allclose(b.astype(np.float64), want,
                                               rtol=0, atol=1e-4)
    print(kernel, "PASS" if ok else "FAIL")
