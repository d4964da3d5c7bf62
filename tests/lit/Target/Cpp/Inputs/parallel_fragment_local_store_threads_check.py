"""NumPy oracle of parallel-fragment-local-store-threads.py: thread t holds
A[t + 128] in register 0 and A[t] in register 1; its `l` ends as 2 A[t]."""
import os
import sys

import numpy as np

d = sys.argv[1]
A = np.load(os.path.join(d, "inputs", "A.npy"))
t = np.arange(256) % 128
want = {"B": np.float32(2.0) * A[t] + np.float32(3.0),
        "C": np.float32(2.0) * A[:128]}
for name, w in want.items():
    got = np.load(os.path.join(d, name + ".npy"))
    assert got.dtype == np.float32 and w.dtype == np.float32
    print(name, "ok" if np.array_equal(got, w) else
          "WRONG %d of %d" % (np.count_nonzero(got != w), got.size))
