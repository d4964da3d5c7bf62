"""NumPy oracle of strided-params.py: the outputs tlc-run saved under
argv[1]/KERNEL against the saved inputs (tlc-run places the inputs at
their strides and reads outputs back from theirs; the saved tensors are
the logical ones)."""
import os
import sys

import numpy as np

d = sys.argv[1]


def load(run, name, inputs=False):
    return np.load(os.path.join(d, run, "inputs" if inputs else "",
                                name + ".npy"))


A, P, Q = (load("views", n, True) for n in "APQ")
print("views", np.allclose(load("views", "B"), A * 2 + P - Q, rtol=1e-6,
                           atol=1e-6))
X = load("pitched", "X", True)
print("pitched", X.shape == (37, 256) and
      np.allclose(load("pitched", "Z"), X * 3 + 1, rtol=1e-6, atol=1e-6))
A, B = (load("gemm", n, True).astype(np.float32) for n in "AB")
print("gemm_views", np.allclose(load("gemm", "C"), A @ B, rtol=1e-3, atol=1e-3))
