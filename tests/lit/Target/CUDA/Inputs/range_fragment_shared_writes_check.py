"""range-fragment-shared-writes.py's outputs against float64 NumPy, for the
saved run directory given: warpgroup g's copy of acc is A_g @ B, and
warpgroup g writes rows [64 g, 64 g + 64) of it (of C, Ct's columns, E and
the atomic add into D)."""
import sys

import numpy as np

d = sys.argv[1]


def load(name, inputs=False):
    return np.load(d + ("/inputs/" if inputs else "/") + name + ".npy").astype(np.float64)


a0, a1, b = load("A0", True), load("A1", True), load("B", True)
bias, d0 = load("bias", True), load("D", True)
acc = np.concatenate(((a0 @ b)[:64], (a1 @ b)[64:]))
refs = {
    "C": acc * 0.5 + bias[None, :],
    "Ct": acc.T,
    "E": acc,
    "D": d0 + acc,
}
for name, ref in refs.items():
    print(name, "close", bool(np.allclose(load(name), ref, rtol=1e-4, atol=1e-3)))
