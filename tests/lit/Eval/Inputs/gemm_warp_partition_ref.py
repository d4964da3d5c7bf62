"""NumPy oracle of gemm-warp-partition-covering.py (run directory as
argv[1]): C = A @ B in float64 from the float16 inputs, within float32
accumulation error."""
import os
import sys

import numpy as np

d = sys.argv[1]
for index, threads in enumerate([256, 384, 416]):
    kernel = "matmul" + ("_%d" % index if index else "")
    a = np.load(os.path.join(d, kernel, "inputs", "A.npy")).astype(np.float64)
    b = np.load(os.path.join(d, kernel, "inputs", "B.npy")).astype(np.float64)
    c = np.load(os.path.join(d, kernel, "C.npy"))
    want = a @ b
    ok = c.shape == want.shape and bool(np.allclose(c, want, rtol=1e-5, atol=1e-4))
    print("matmul %dx%d threads %d %s" % (c.shape[0], c.shape[1], threads, "ok" if ok else "WRONG"))
