"""NumPy oracle of parallel-fragment-local-store.py: thread t holds A[t + 128]
in register 0 and A[t] in register 1 and runs its iterations in that order."""
import os
import sys

import numpy as np

d = sys.argv[1]
A = np.load(os.path.join(d, "inputs", "A.npy"))
t = np.arange(256) % 128
# l: the last iteration of thread t stores 2 * A[t].
B = np.float32(2.0) * A[t] + np.float32(3.0)
# acc: 0 * 0.5 + A[t + 128], then * 0.5 + A[t], in float32.
acc = np.float32(0.0) * np.float32(0.5) + A[t + 128]
acc = acc * np.float32(0.5) + A[t]
for name, want in (("B", B), ("C", acc)):
    got = np.load(os.path.join(d, name + ".npy"))
    assert got.dtype == np.float32 and want.dtype == np.float32
    print(name, "ok" if np.array_equal(got, want) else
          "WRONG %d of %d" % (np.count_nonzero(got != want), got.size))
