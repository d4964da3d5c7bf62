"""Checks fragment-shared-reduce.py's output against NumPy (float64 sums)."""
import os, sys
import numpy as np
ld = lambda n: np.load(os.path.join(sys.argv[1], n + ".npy"))
x = ld("X").astype(np.float64)
i = ld("I").astype(np.int64)
irows = (i.sum(axis=1) + 2**31) % 2**32 - 2**31
res = {
    "sum": np.allclose(ld("Rows"), 2 * x.sum(axis=1), rtol=1e-4, atol=1e-4),
    "max": np.array_equal(ld("Cols"), x.max(axis=0).astype(np.float32)),
    "absmax": np.array_equal(ld("Amax")[:, 0], np.abs(x).max(axis=1).astype(np.float32)),
    "min": np.array_equal(ld("Mins"), np.minimum(0.25, x.min(axis=1)).astype(np.float32)),
    "abssum": ld("Total").shape == () and
              np.allclose(ld("Total"), np.abs(x[0]).sum(), rtol=1e-4, atol=1e-4),
    "int": np.array_equal(ld("IRows"), irows.astype(np.int32)),
}
print(" ".join("%s %s" % (k, "OK" if v else "MISMATCH") for k, v in res.items()))
