"""mma-c-odd-atoms.py's CPU outputs against float64 NumPy (the saved run
directory given): one `NAME ok` / `NAME BAD` line per instance."""
import os
import sys

import numpy as np

root = sys.argv[1]
for kernel in ("gemm_nt", "gemm_nt_1", "gemm_nt_2"):
    def load(name, inputs=False):
        return np.load(os.path.join(root, kernel, "inputs" if inputs else "",
                                    name + ".npy")).astype(np.float64)
    want = load("A", True) @ load("B", True).T
    got = load("C")
    ok = got.shape == want.shape and np.allclose(got, want, rtol=2e-2,
                                                 atol=2e-2)
    print(kernel, "ok" if ok else "BAD")
