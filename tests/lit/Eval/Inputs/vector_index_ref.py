"""NumPy oracle of vector-index.py: the kernel's output from its saved
inputs (run directory as argv[1])."""
import os
import sys

import numpy as np

d = sys.argv[1]
a = np.load(os.path.join(d, "inputs", "A.npy"))
idx = np.load(os.path.join(d, "inputs", "Idx.npy"))
b = np.load(os.path.join(d, "B.npy"))
want = np.zeros(16, np.float32)
want[0:4] = a[5]
want[4:8] = a[np.arange(3, 11, 2) + 1]
want[8] = a[0] + 3  # the last lane of T.Ramp(A[0], 1, 4) stored last
want[9] = a[-1]
want[10:14] = a[60:64]
want[14] = a[idx[0]]
want[15] = a[idx[1] + 1]
print("vector_index", b.shape, bool((b == want).all()))
