"""NumPy oracle of bind-type-annotation.py (n = 5)."""
import os
import sys

import numpy as np

root = sys.argv[1]
a = np.load(os.path.join(root, "A.npy"))
f = np.load(os.path.join(root, "F.npy"))
t = np.arange(64)
ok = np.array_equal(a, 5 * 3 + t) and np.allclose(f, t / 2.0)
print("PASS" if ok else "FAIL")
