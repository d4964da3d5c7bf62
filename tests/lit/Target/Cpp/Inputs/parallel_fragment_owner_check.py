"""Oracle of parallel-fragment-local-store-layouts.py on sm_90a's layouts.

The wgmma.mma_async m64nNk16 accumulator fragment (PTX ISA, "Register
fragments and shared memory matrix layouts", wgmma .m64nNk16 D): warp w of
the warpgroup holds rows 16 w .. 16 w + 15; lane l holds rows 16 w + l / 4
and 16 w + l / 4 + 8, columns 8 j + 2 (l % 4) and 8 j + 2 (l % 4) + 1 for
every j. So element (r, c) is on thread 32 (r / 16) + 4 (r % 8) + (c % 8) / 2.
Every D[r, c] is the largest C of its owning thread's elements; C is A @ B
(float64 here, float32 accumulation there)."""
import os
import sys

import numpy as np

d = sys.argv[1]
A = np.load(os.path.join(d, "inputs", "A.npy")).astype(np.float64)
B = np.load(os.path.join(d, "inputs", "B.npy")).astype(np.float64)
C = np.load(os.path.join(d, "C.npy"))
D = np.load(os.path.join(d, "D.npy"))
want_c = A @ B
c_ok = np.allclose(C, want_c, rtol=1e-5, atol=1e-5)
r, c = np.meshgrid(np.arange(64), np.arange(32), indexing="ij")
owner = 32 * (r // 16) + 4 * (r % 8) + (c % 8) // 2
best = np.full(128, -np.inf, np.float32)
np.maximum.at(best, owner.ravel(), C.ravel())
want_d = best[owner]
print("C", "ok" if c_ok else "WRONG")
print("D", "ok" if np.array_equal(D, want_d) else
      "WRONG %d of %d" % (np.count_nonzero(D != want_d), D.size))
