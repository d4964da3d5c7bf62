"""NumPy oracle of parametrize-iterables.py (run directory as argv[1]): the
first instance is op "lt"; row 0 is A < B, row 1 its negation, row 2
2 A - B > 0."""
import os
import sys

import numpy as np

d = sys.argv[1]
# One kernel (--kernel): tlc-run saves into the directory itself.
a = np.load(os.path.join(d, "inputs", "A.npy"))
b = np.load(os.path.join(d, "inputs", "B.npy"))
c = np.load(os.path.join(d, "C.npy"))
want = np.stack([a < b, ~(a < b), 2 * a - b > 0]).astype(np.int32)
print("compare lt", c.shape, bool((c == want).all()))
