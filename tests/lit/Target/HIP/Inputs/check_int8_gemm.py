"""Checks C = A @ B (or A @ B^T) of an int8 GEMM run that `tlc-run --save`
wrote, exactly, against NumPy in int64 wrapped to int32."""
import sys

import numpy as np

out, trans_b = sys.argv[1], sys.argv[2] == "tn"
a = np.load(f"{out}/inputs/A.npy").astype(np.int64)
b = np.load(f"{out}/inputs/B.npy").astype(np.int64)
c = np.load(f"{out}/C.npy")
ref = (a @ (b.T if trans_b else b)).astype(np.int32)
bad = int(np.count_nonzero(c != ref))
print(f"int8 gemm {c.shape}: {bad} of {c.size} elements differ")
sys.exit(1 if bad else 0)
