"""NumPy oracle of parallel-lowercase.py: each kernel's output from its
saved input (run directory as argv[1])."""
import os
import sys

import numpy as np

d = sys.argv[1]


def load(kernel, name, inputs=False):
    return np.load(os.path.join(d, kernel, "inputs" if inputs else "", name + ".npy"))


a = load("scale_var", "A", True)
b = load("scale_var", "B")
want = a * np.float32(3.0) + np.arange(a.shape[0], dtype=np.float32)
print("scale_var", b.shape, bool(np.allclose(b, want, rtol=1e-6, atol=1e-6)))

a = load("strided", "A", True)
b = load("strided", "B")
want = np.zeros_like(a)
want[1:] = a[1:] + a[:-1]
print("strided", b.shape, bool(np.allclose(b, want, rtol=1e-6, atol=1e-6)))
