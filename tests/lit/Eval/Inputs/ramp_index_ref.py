"""NumPy oracle of ramp-index.py: each kernel's output from its saved input
(run directory as argv[1])."""
import os
import sys

import numpy as np

d = sys.argv[1]


def load(kernel, name, inputs=False):
    return np.load(os.path.join(d, kernel, "inputs" if inputs else "", name + ".npy"))


a = load("ramp_copy", "A", True)
b = load("ramp_copy", "B")
print("ramp_copy", b.shape, bool((b == a).all()))

a = load("ramp_deinterleave", "A", True)
c = load("ramp_deinterleave", "C")
cols = a.shape[1] // 2
want = np.concatenate([a[:, 0::2], a[:, 1::2]], axis=1)
print("ramp_deinterleave", c.shape, bool((c == want).all()))
