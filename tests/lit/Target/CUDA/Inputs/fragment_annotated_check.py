"""NumPy reference of fragment-annotated.py: prints `rms True` when the
saved Y under argv[1] is X scaled by the reciprocal root mean square of
its row (float64 reference, f32 tolerance)."""
import os
import sys

import numpy as np

root = sys.argv[1]
x = np.load(os.path.join(root, "inputs", "X.npy")).astype(np.float64)
y = np.load(os.path.join(root, "Y.npy"))
ref = x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6)
print("rms", bool(np.abs(y - ref).max() <= 1e-5 * (1 + np.abs(ref).max())))
