"""NumPy oracle of per-thread.py: recomputes every output from the saved
input (run directory as argv[1]) and prints one line per output."""
import os
import sys

import numpy as np

d = sys.argv[1]
x = np.load(os.path.join(d, "inputs", "X.npy")).astype(np.int64)
out = {n: np.load(os.path.join(d, n + ".npy")) for n in
       ("Scan", "WarpMax", "BlockSum", "WarpSum", "Reversed")}
threads = 128
wrap = lambda a: ((a + 2**31) % 2**32 - 2**31)
blocks = x.reshape(-1, threads)
scan = np.concatenate([np.zeros((blocks.shape[0], 1), np.int64),
                       np.cumsum(blocks, 1)[:, :-1]], 1)
warps = x.reshape(-1, 32)
arg = warps.argmax(1)  # the first of equal maxima, as the kernel breaks ties
want_max = np.stack([warps.max(1), arg], 1)
# The butterfly of T.warp_reduce_sum: offsets 1, 2, 4, 8, 16, each lane
# adding lane ^ offset's value, in float32.
f = (x.astype(np.float32) * np.float32(0.1)).reshape(-1, 32)
for off in (1, 2, 4, 8, 16):
    f = f + f[:, np.arange(32) ^ off]
rev = (blocks * 2)[:, ::-1].reshape(-1)
checks = [("Scan", out["Scan"], wrap(scan.reshape(-1))),
          ("WarpMax", out["WarpMax"], want_max),
          ("BlockSum", out["BlockSum"], wrap(blocks.sum(1))),
          ("WarpSum", out["WarpSum"], f.reshape(-1)),
          ("Reversed", out["Reversed"], wrap(rev))]
for name, got, want in checks:
    ok = got.shape == want.shape and np.array_equal(got, want)
    print(name, "equal" if ok else "DIFFERS in %d" % np.sum(got != want))
