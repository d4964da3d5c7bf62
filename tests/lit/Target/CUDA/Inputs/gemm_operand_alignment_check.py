"""C = A[:, a_off:a_off+16] @ B[:, b_off:b_off+32] (or dynamic_k's sum) of a
saved gemm-operand-alignment run, in float64 NumPy: prints ok or the error."""
import sys

import numpy as np

out = sys.argv[1]
A = np.load(f"{out}/A.npy").astype(np.float64)
B = np.load(f"{out}/B.npy").astype(np.float64)
C = np.load(f"{out}/C.npy")
if sys.argv[2] == "dynamic":
    # dynamic_k: the sum over ko < 4 of A[:, ko*step:+32] @ B[ko*32:+32, :].
    step = int(sys.argv[3])
    ref = sum(A[:, ko * step:ko * step + 32] @ B[ko * 32:ko * 32 + 32, :]
              for ko in range(4))
    label = ("gemm dynamic", step)
else:
    a_off, b_off = int(sys.argv[2]), int(sys.argv[3])
    ref = A[:, a_off:a_off + 16] @ B[:, b_off:b_off + 32]
    label = ("gemm region", a_off, b_off)
err = np.abs(C - ref).max() / max(1.0, np.abs(ref).max())
print(*label, "ok" if err < 1e-3 else f"WRONG {err}")
