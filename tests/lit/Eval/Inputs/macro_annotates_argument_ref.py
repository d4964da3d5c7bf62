"""NumPy oracle of macro-annotates-argument.py: A doubled in place."""
import os
import sys

import numpy as np

root = sys.argv[1]
a = np.load(os.path.join(root, "inputs", "A.npy")).astype(np.float64)
ok = np.allclose(np.load(os.path.join(root, "A.npy")), a * 2.0)
print("PASS" if ok else "FAIL")
