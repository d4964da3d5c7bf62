"""NumPy oracle of tests/lit/Target/Cpp/intrinsics.py: prints one PASS or
FAIL line per output of the saved run directory argv[1]."""
import os
import sys

import numpy as np

d = sys.argv[1]
ld = lambda n: np.load(os.path.join(d, n + ".npy"))
ins = lambda n: np.load(os.path.join(d, "inputs", n + ".npy"))
x, mask, b = ins("X"), ins("Mask").astype(bool), ins("Bytes").astype(np.int64)
stats0 = ins("Stats").astype(np.int64)  # inputs of atomic_max/min/or
m, n = x.shape
bm = 32
shifted = np.full_like(x, 2.5)
shifted[7:] = x[:-7]  # rows read at i - 7: out of range reads give 2.5
want_y = np.where(np.repeat(mask[:, 1:4].any(1), bm)[:, None], shifted, -1.0).astype(np.float32)
want_flags = np.stack([mask.any(1), mask[:, 0:2].all(1)], 1)
vals = np.arange(m // bm) * 7 - 3
orv = stats0[2]
for by in range(m // bm):
    orv |= 1 << by
want_stats = np.array([max(stats0[0], vals.max()), min(stats0[1], vals.min()), orv, 11])
want_dot = np.stack([(b[:, 0:4] * b[:, 4:8]).sum(1), (b[:, 4:8] ** 2).sum(1)], 1)
for name, got, want in [("Y", ld("Y"), want_y), ("Flags", ld("Flags"), want_flags),
                        ("Stats", ld("Stats").astype(np.int64), want_stats),
                        ("Dot", ld("Dot").astype(np.int64), want_dot)]:
    ok = got.shape == want.shape and np.array_equal(got.astype(np.float64), want.astype(np.float64))
    print(name, "PASS" if ok else "FAIL", "" if ok else (got.reshape(-1)[:8], want.reshape(-1)[:8]))
