"""C = A[:, a_off:a_off+16] @ B[:, b_off:b_off+32] of a saved gemm-operand-
alignment run, in float64 NumPy: prints the largest error."""
import sys

import numpy as np

out, a_off, b_off = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
A = np.load(f"{out}/A.npy").astype(np.float64)
B = np.load(f"{out}/B.npy").astype(np.float64)
C = np.load(f"{out}/C.npy")
ref = A[:, a_off:a_off + 16] @ B[:, b_off:b_off + 32]
err = np.abs(C - ref).max() / max(1.0, np.abs(ref).max())
print("gemm region", a_off, b_off, "ok" if err < 1e-3 else f"WRONG {err}")
