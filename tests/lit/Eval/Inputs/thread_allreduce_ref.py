"""NumPy oracle of thread-allreduce.py: recomputes every thread's result of
each kernel from its saved input (run directory as argv[1])."""
import os
import sys

import numpy as np

d = sys.argv[1]
# name: (X, Y, reduce over y, combine, identity, condition (tx + ty) even)
kernels = {
    "sum_x": (32, 2, False, "sum", 0, False),
    "sum_y4": (4, 8, True, "sum", 0, False),
    "sum_y2": (2, 32, True, "sum", 0, False),
    "max_y3": (3, 5, True, "max", -2**31, True),
    "sum_y32": (32, 4, True, "sum", 0, False),
    "fsum_x24": (24, 1, False, "sum", 0, False),
}
for name, (X, Y, over_y, kind, identity, cond) in kernels.items():
    a = np.load(os.path.join(d, name, "inputs", "A.npy"))
    c = np.load(os.path.join(d, name, "C.npy"))
    G = a.shape[0]
    v = a.reshape(G, Y, X).astype(np.float64 if a.dtype == np.float32 else np.int64)
    if cond:
        ty, tx = np.meshgrid(np.arange(Y), np.arange(X), indexing="ij")
        v = np.where((tx + ty) % 2 == 0, v, identity)
    axis = 1 if over_y else 2
    r = v.sum(axis, keepdims=True) if kind == "sum" else v.max(axis, keepdims=True)
    want = np.broadcast_to(r, v.shape).reshape(G, X * Y)
    if a.dtype == np.float32:
        ok = np.allclose(c, want, rtol=1e-5, atol=1e-4)
    else:
        want = (want + 2**31) % 2**32 - 2**31
        ok = bool((c.astype(np.int64) == want).all())
    print(name, ok, "" if ok else (c, want))

# pair_y8: (sum, count) of the values > 0 of each group of 8 threads along y.
a = np.load(os.path.join(d, "pair_y8", "inputs", "A.npy")).astype(np.int64)
c = np.load(os.path.join(d, "pair_y8", "C.npy")).astype(np.int64)
n = np.load(os.path.join(d, "pair_y8", "D.npy")).astype(np.int64)
v = a.reshape(-1, 8, 4)
pos = v > 0
want_s = np.broadcast_to(np.where(pos, v, 0).sum(1, keepdims=True), v.shape).reshape(a.shape)
want_n = np.broadcast_to(pos.sum(1, keepdims=True), v.shape).reshape(a.shape)
want_s = (want_s + 2**31) % 2**32 - 2**31
ok = bool((c == want_s).all() and (n == want_n).all()) and len(np.unique(want_n)) > 1
print("pair_y8", ok)
