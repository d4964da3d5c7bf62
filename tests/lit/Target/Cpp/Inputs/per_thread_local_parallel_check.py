"""NumPy oracle of per-thread-local-parallel.py: recomputes Y and Z from the
saved input X (run directory as argv[1])."""
import os
import sys

import numpy as np

d = sys.argv[1]
x = np.load(os.path.join(d, "inputs", "X.npy")).astype(np.float32)
threads, local = 64, 8
g = np.arange(x.size) // local          # each thread's global index
tx = g % threads
factor = (tx % 4 + 1).astype(np.float32)
y = x * factor + (np.arange(x.size) % local).astype(np.float32)
rows = y.reshape(-1, 2, local // 2)
z = rows[:, :, 0]
for j in range(1, local // 2):          # the kernel's order, in float32
    z = z + rows[:, :, j]
for name, want in (("Y", y), ("Z", z)):
    got = np.load(os.path.join(d, name + ".npy"))
    print(name, "ok" if np.array_equal(got, want) else
          f"WRONG at {np.argwhere(got != want)[:4].tolist()}")
