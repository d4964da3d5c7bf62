"""NumPy oracle of atomic-add-region-value.py (run directory as argv[1])."""
import os
import sys

import numpy as np

d = sys.argv[1]  # one kernel: tlc-run saves into the directory itself
c0 = np.load(os.path.join(d, "inputs", "C.npy"))
c = np.load(os.path.join(d, "C.npy"))
s = np.load(os.path.join(d, "S.npy"))
want = c0.astype(np.float64)
for b in range(4):
    want[b * 4:b * 4 + 12, 8:40] += 2.5
want_s = np.ones((4, 32))
want_s[1:3, 4:20] += 3
ok_c = bool(np.allclose(c, want, rtol=0, atol=1e-5))
print("region_add C", ok_c, "S", bool((s == want_s).all()))
