"""NumPy oracle of if-then-else-lazy.py: argv[1:] are directories where
tlc-run saved a run of its `picks` kernel (A under inputs/, B beside it)."""
import os
import sys

import numpy as np

for root in sys.argv[1:]:
    a = np.load(os.path.join(root, "inputs", "A.npy")).astype(np.float32)
    b = np.load(os.path.join(root, "B.npy"))
    n = a.size
    want = np.empty((5, n), np.float32)
    for t in range(n):
        want[0, t] = np.float32(2.0) * a[t - 3] if t >= 3 else np.float32(-1.0)
        want[1, t] = a[t + 1] if t % 2 == 0 else a[t - 1]
        if t >= 1:
            want[2, t] = a[t - 1] + a[t + 1] if t < n - 1 else a[t - 1]
        else:
            want[2, t] = a[t + 1]
        want[3, t] = a[t + 5] if t + 5 < n else np.float32(0.5)
        want[4, t] = a[t - 2] - a[t] if t >= 2 else a[t]
    for row in range(5):
        ok = np.array_equal(b[row], want[row])
        print("row", row, "OK" if ok else "FAIL")
