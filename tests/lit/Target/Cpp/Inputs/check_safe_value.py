"""NumPy reference of safe-value.py: OUT M N; prints one line per kernel."""
import os
import sys

import numpy as np

out, M, N = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])


def load(kernel, name, inputs=False):
    d = os.path.join(out, kernel, "inputs" if inputs else "")
    return np.load(os.path.join(d, name + ".npy"))


# shifted: B[i, j] = A[i - 10, j], 10 where i - 10 < 0.
a = load("shifted", "A", inputs=True)
b = load("shifted", "B")
ref = np.full((M, N), 10, dtype=a.dtype)
ref[10:] = a[:M - 10]
print("shifted", bool((b == ref).all()))

# tiles: C is A padded with -2.5 up to whole 64 x 32 tiles.
a = load("tiles", "A", inputs=True)
c = load("tiles", "C")
ref = np.full(c.shape, -2.5, dtype=a.dtype)
ref[:M, :N] = a
print("tiles", bool((c == ref).all()), c.shape)
