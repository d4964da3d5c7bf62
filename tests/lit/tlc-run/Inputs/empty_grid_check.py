"""argv[1]: a directory `tlc-run --save` wrote; prints, per kernel, the
shape of X and whether the run added 1 to each element of the input
(`added`) or left it as it was (`untouched`)."""
import os
import sys

import numpy as np

root = sys.argv[1]
for name in sorted(os.listdir(root)):
    before = np.load(os.path.join(root, name, "inputs", "X.npy"))
    after = np.load(os.path.join(root, name, "X.npy"))
    state = ("untouched" if np.array_equal(before, after) else
             "added" if np.array_equal(after, before + np.float32(1)) else
             "other")
    print(name, list(after.shape), state)
