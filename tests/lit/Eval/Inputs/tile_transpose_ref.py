"""NumPy oracle of tile-transpose.py (run directory as argv[1]): C is A with
its last two axes swapped (converted to float32)."""
import os
import sys

import numpy as np

d = sys.argv[1]
for kernel in ["transpose_global", "transpose_shared"]:
    a = np.load(os.path.join(d, kernel, "inputs", "A.npy"))
    c = np.load(os.path.join(d, kernel, "C.npy"))
    want = np.swapaxes(a, -1, -2).astype(np.float32)
    print(kernel, c.shape, bool((c == want).all()))
