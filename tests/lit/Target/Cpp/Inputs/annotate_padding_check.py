"""NumPy check of annotate-padding.py's saved runs: one line per kernel."""
import os
import sys

import numpy as np

out = sys.argv[1]


def load(kernel, name, inputs=False):
    d = os.path.join(out, kernel, "inputs" if inputs else "")
    return np.load(os.path.join(d, name + ".npy"))


# copied: A's 100 elements, then the pad 7.
a, b = load("copied", "A", inputs=True), load("copied", "B")
print("copied", bool((b[:100] == a).all() and (b[100:] == 7).all()))
# shifted: B[i, j] = A[i - 10, j], the pad 7.5 where i - 10 < 0.
a, b = load("shifted", "A", inputs=True), load("shifted", "B")
ref = np.full(a.shape, 7.5, dtype=a.dtype)
ref[10:] = a[:-10]
print("shifted", bool((b == ref).all()))
