"""range-fragment-carry.py's outputs against float64 NumPy: C = (A @ B) *
0.5 + bias, for each saved run directory given."""
import sys

import numpy as np

for name, d in zip(("if", "ws"), sys.argv[1:]):
    a = np.load(d + "/inputs/A.npy").astype(np.float64)
    b = np.load(d + "/inputs/B.npy").astype(np.float64)
    bias = np.load(d + "/inputs/bias.npy").astype(np.float64)
    c = np.load(d + "/C.npy")
    ref = (a @ b) * 0.5 + bias[None, :]
    print(name, "close", bool(np.allclose(c, ref, rtol=1e-4, atol=1e-3)))
