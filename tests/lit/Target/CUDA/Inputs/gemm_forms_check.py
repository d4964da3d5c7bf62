"""Checks one saved T.gemm run (tlc-run --save DIR) against NumPy in float64.

Usage: gemm_forms_check.py DIR TRANS_A TRANS_B
Prints "NAME: ok" or "NAME: MISMATCH max-error".
"""
import sys

import numpy as np

d, trans_a, trans_b = sys.argv[1], sys.argv[2] == "1", sys.argv[3] == "1"
a = np.load(d + "/inputs/A.npy").astype(np.float64)
b = np.load(d + "/inputs/B.npy").astype(np.float64)
c = np.load(d + "/C.npy").astype(np.float64)
if trans_a:
    a = a.T
if trans_b:
    b = b.T
ref = a @ b
err = np.abs(c - ref).max()
tol = 1e-6 if np.issubdtype(np.load(d + "/C.npy").dtype, np.integer) else 1e-3
ok = c.shape == ref.shape and err <= tol * max(1.0, np.abs(ref).max())
print(d.rsplit("/", 1)[-1] + (": ok" if ok else ": MISMATCH %g" % err))
