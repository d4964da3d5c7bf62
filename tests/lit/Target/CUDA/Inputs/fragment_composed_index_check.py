"""NumPy reference of fragment-composed-index.py: one line per kernel with
True when the saved outputs under argv[1] match."""
import os
import sys

import numpy as np

root = sys.argv[1]

# flatten: B is A row-major (rows past M are not written).
a = np.load(os.path.join(root, "flatten", "inputs", "A.npy"))
b = np.load(os.path.join(root, "flatten", "B.npy"))
print("flatten", np.array_equal(b, a.reshape(-1)))

# rotate: per block of 256 (zeros past the end), Y[k] = 2 * (X[k'] + 1)
# with k' = (k + 5) mod 256 inside the block.
x = np.load(os.path.join(root, "rotate", "inputs", "X.npy")).astype(np.float64)
y = np.load(os.path.join(root, "rotate", "Y.npy"))
m = x.shape[0]
xp = np.zeros((m + 255) // 256 * 256)
xp[:m] = x
blocks = xp.reshape(-1, 256)
want = (2 * (np.roll(blocks, -5, axis=1) + 1)).reshape(-1)[:m]
print("rotate", np.abs(y - want).max() < 1e-5)
