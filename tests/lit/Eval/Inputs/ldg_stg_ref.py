"""NumPy oracle of ldg-stg.py (argv[1]: the run directory tlc-run saved)."""
import os
import sys

import numpy as np

d = sys.argv[1]


def load(k, name, inputs=False):
    return np.load(os.path.join(d, k, "inputs" if inputs else "", name + ".npy"))


for k in ("ldg32", "ldg64", "ldg256"):
    print(k, np.array_equal(load(k, "Y"), load(k, "X", True)))
x = load("ldg128_pred", "X", True)
want = np.where(np.arange(x.size) // 4 < x.size // 8, x, 0).astype(np.float32)
print("ldg128_pred", np.array_equal(load("ldg128_pred", "Y"), want))
g = load("half_words", "G", True)
print("half_words", np.array_equal(load("half_words", "H").view(np.uint16),
                                    g.reshape(-1, 2)[:, ::-1].reshape(-1).view(np.uint16)))
x = load("stg128_pred", "X", True)
odd = (np.arange(x.size) // 4) % 2 == 1
want = np.where(odd, x, np.tile(x[:4], x.size // 4))
print("stg128_pred", np.array_equal(load("stg128_pred", "Y"), want))
