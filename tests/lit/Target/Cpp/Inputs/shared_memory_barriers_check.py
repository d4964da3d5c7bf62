# NumPy's answers for shared-memory-barriers.py's kernels (argv[1]: the
# directory of their tlc-run --save outputs).
import sys

import numpy as np

N, E = 64, 4
d = sys.argv[1]

a = np.load(f"{d}/rotate/inputs/A.npy").reshape(N, E)
b = np.load(f"{d}/rotate/B.npy").reshape(N, E)
print("rotate", "ok" if np.array_equal(b, np.roll(a * np.float32(2), -1, axis=0)) else "WRONG")

a = np.load(f"{d}/rounds/inputs/A.npy").reshape(N, E).astype(np.float32)
v = a.copy()
for r in range(3):
    v = v + v[np.arange(N) ^ (1 << r)]
b = np.load(f"{d}/rounds/B.npy").reshape(N, E)
print("rounds", "ok" if np.allclose(b, v, rtol=1e-6, atol=1e-6) else "WRONG")
