"""NumPy oracle of dialect-keyword-hints.py: argv[1] holds what tlc-run
saved (one folder per kernel, inputs under inputs/)."""
import os
import sys

import numpy as np

root = sys.argv[1]


def load(d, name, inputs=False):
    return np.load(os.path.join(root, d, "inputs" if inputs else "", name + ".npy"))


for d in sorted(os.listdir(root)):
    if d.startswith("hinted_copy"):
        ok = np.allclose(load(d, "B"), load(d, "A", True).astype(np.float64) + 1.0)
    elif d.startswith("rocm_gemm"):
        want = load(d, "A", True).astype(np.float64) @ load(d, "B", True).astype(np.float64)
        ok = np.allclose(load(d, "C"), want, rtol=1e-3, atol=1e-2)
    elif d.startswith("neutral_scale"):
        want = load(d, "A", True).astype(np.float64) * 2.0
        want[:4] += 1.0
        ok = np.allclose(load(d, "B"), want)
    else:
        continue
    print(d, "PASS" if ok else "FAIL")
