"""NumPy oracle of fragment-runtime-window.py's column_panels run."""
import sys

import numpy as np

d = sys.argv[1] + "/"
a = np.load(d + "inputs/A.npy").astype(np.float64)
c = np.load(d + "C.npy")
D = np.load(d + "D.npy").astype(np.float64)
M, N = a.shape
ref_c = (a * 2 + np.arange(N)[None, :] % 64).astype(np.float32).astype(np.float16)
print("C", "ok" if np.array_equal(c, ref_c) else "MISMATCH")
# back[:, s*5+1 : s*5+6] = A[:, block + s*5+3 : block + s*5+8] (0 past N);
# D's 40 columns per column block are back[:, 1:41].
ref_d = np.zeros_like(D)
for b in range(D.shape[1] // 40):
    for q in range(40):
        s, within = divmod(q, 5)
        col = b * 64 + s * 5 + 3 + within
        ref_d[:, b * 40 + q] = a[:, col] if col < N else 0
print("D", "ok" if np.array_equal(D, ref_d) else "MISMATCH")
