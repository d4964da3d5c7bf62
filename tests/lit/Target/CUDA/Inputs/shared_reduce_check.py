"""Checks shared-reduce.py's output against NumPy (float64 sums)."""
import os, sys
import numpy as np
ld = lambda n: np.load(os.path.join(sys.argv[1], n + ".npy"))
x = ld("X").astype(np.float64)
res = {
    "sum": np.allclose(ld("Rows"), x.sum(axis=1), rtol=1e-4, atol=1e-4),
    "max": np.array_equal(ld("Cols"), x.max(axis=0).astype(np.float32)),
    "absmax": np.array_equal(ld("Amax")[:, 0], np.abs(x).max(axis=1).astype(np.float32)),
    "min": np.array_equal(ld("Mins"), x.min(axis=1).astype(np.float32)),
    "accumulate": np.allclose(ld("Acc"), 1.0 + x.sum(axis=0), rtol=1e-4, atol=1e-4),
}
print(" ".join("%s %s" % (k, "OK" if v else "MISMATCH") for k, v in res.items()))
