"""mbarrier-sm80.py's output against float64 NumPy, for the saved run
directory given: B = sum over k of (k + 1) * A[k]."""
import sys

import numpy as np

d = sys.argv[1]
a = np.load(d + "/inputs/A.npy").astype(np.float64)
ref = (np.arange(1, 9, dtype=np.float64)[:, None] * a).sum(axis=0)
print("B close", bool(np.allclose(np.load(d + "/B.npy"), ref, rtol=1e-5, atol=1e-4)))
