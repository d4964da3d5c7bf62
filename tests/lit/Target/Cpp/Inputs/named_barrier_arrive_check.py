"""NumPy oracle of named-barrier-arrive.py: argv[1] and argv[2] hold what
tlc-run saved for the handshake and ring kernels (inputs under
inputs/)."""
import os
import sys

import numpy as np

roots = {"handshake": sys.argv[1], "ring": sys.argv[2]}


def load(k, name, inputs=False):
    return np.load(os.path.join(roots[k], "inputs" if inputs else "", name + ".npy"))


# The consumer reads the slot after the producer's write of the same round
# and before its next one.
ok = np.array_equal(load("handshake", "out"), load("handshake", "inp", True) + 1)
print("handshake", "OK" if ok else "FAIL")
a = load("ring", "A", True).astype(np.float64)
want = 2.0 * a + np.arange(a.size)
ok = np.array_equal(load("ring", "B").astype(np.float64), want.astype(np.float32))
print("ring", "OK" if ok else "FAIL")
