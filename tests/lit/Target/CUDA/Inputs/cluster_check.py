# Compares the Out of a cluster.py run (saved in DIR) with NumPy: each
# output row is the float64 sum of the ROWS * CLUSTER input rows of its
# cluster. Usage: cluster_check.py DIR CLUSTER
import sys

import numpy as np

d, cluster = sys.argv[1], int(sys.argv[2])
x = np.load(d + "/inputs/X.npy").astype(np.float64)
out = np.load(d + "/Out.npy").astype(np.float64)
ref = x.reshape(out.shape[0], -1, x.shape[1]).sum(axis=1)
assert x.shape[0] // out.shape[0] == 16 * cluster, (x.shape, out.shape)
print(bool(np.all(np.abs(out - ref) <= 1e-4 * (1 + np.abs(ref)))))
