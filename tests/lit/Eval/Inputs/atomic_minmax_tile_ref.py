"""NumPy oracle of atomic-minmax-tile.py (run directory as argv[1]):
C = max(C_in, A rows of block 0..3), B = min(Init, A)."""
import os
import sys

import numpy as np

d = sys.argv[1]
a = np.load(os.path.join(d, "fold_max", "inputs", "A.npy"))
c0 = np.load(os.path.join(d, "fold_max", "inputs", "C.npy"))
c = np.load(os.path.join(d, "fold_max", "C.npy"))
want = np.maximum.reduce([c0] + [a[b * 16:(b + 1) * 16] for b in range(4)])
print("fold_max", bool((c == want).all()))
init = np.load(os.path.join(d, "local_min", "inputs", "Init.npy"))
a2 = np.load(os.path.join(d, "local_min", "inputs", "A.npy"))
b2 = np.load(os.path.join(d, "local_min", "B.npy"))
print("local_min", bool((b2 == np.minimum(init, a2)).all()))
