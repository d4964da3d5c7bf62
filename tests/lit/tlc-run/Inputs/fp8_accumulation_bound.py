"""(K - 1) (2^-14 + 2^-24) max |A| |B|^T in float64 from the fp8 inputs that
tlc-run --save wrote (as float32 .npy, the values of the float8 bytes):
fp8-accumulation.test's oracle of tlc-run's largest per-element fp8 accumulation tolerance."""
import os
import sys

import numpy as np

d, k = sys.argv[1], int(sys.argv[2])
a = np.load(os.path.join(d, "inputs", "A.npy")).astype(np.float64)
b = np.load(os.path.join(d, "inputs", "B.npy")).astype(np.float64)
print("%.6e" % ((k - 1) * (2.0**-14 + 2.0**-24) * (np.abs(a) @ np.abs(b).T).max()))
