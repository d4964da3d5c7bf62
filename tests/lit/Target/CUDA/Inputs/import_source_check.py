"""Checks import-source.py's CPU output against NumPy."""
import os
import sys

import numpy as np

out = sys.argv[1]
load = lambda name: np.load(os.path.join(out, name + ".npy"))
a, c = load("inputs/A"), load("inputs/C").astype(np.float64)
ok = np.array_equal(load("B"), a + 1) and np.allclose(
    load("D"), c * 3.0 + 0.5, rtol=1e-6, atol=1e-6)
print("import_source", "OK" if ok else "MISMATCH")
