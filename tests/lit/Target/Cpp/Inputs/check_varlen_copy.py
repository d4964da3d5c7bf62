"""NumPy reference of varlen-copy.py: OUT TOTAL N; one line per kernel."""
import os
import sys

import numpy as np

out, total, N = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])


def load(kernel, name, inputs=False):
    return np.load(os.path.join(out, kernel, "inputs" if inputs else "", name + ".npy"))


def rows(x, start, n, block, fill):
    """Tile of `block` rows: x[start + i] for i < min(n, block) (0 outside
    x), `fill` elsewhere."""
    t = np.full((block,) + x.shape[1:], fill, dtype=x.dtype)
    for i in range(min(max(n, 0), block)):
        if 0 <= start + i < x.shape[0]:
            t[i] = x[start + i]
        else:
            t[i] = 0
    return t


k = "varlen_rows"
x, st, ln = load(k, "X", True), load(k, "Starts", True), load(k, "Lens", True)
y = load(k, "Y")
ok = all((y[b] == rows(x, b * 72 + st[b], 20 + ln[b], 32, -1)).all()
         for b in range(5))
print(k, ok)

k = "varlen_fragment"
x, st, ln = load(k, "X", True), load(k, "Starts", True), load(k, "Lens", True)
y, z0, z = load(k, "Y"), load(k, "Z", True), load(k, "Z")
ok_y = True
ref = z0.copy()
for b in range(5):
    s, n = b * 72 + st[b], 20 + ln[b]
    t = rows(x, s, n, 32, 0.5) * 2
    ok_y &= bool((y[b] == t).all())
    for i in range(min(max(n, 0), 32)):
        if 0 <= s + i < total:
            ref[s + i] = z0[s + i] + t[i]
print(k, ok_y, bool((z == ref).all()))

k = "dynamic_row"
x = load(k, "X", True)
y, z0, z = load(k, "Y"), load(k, "Z", True), load(k, "Z")
ok_y = True
ref = z0.copy()
for b in range(4):
    t = np.full(128, 7, dtype=x.dtype)
    m = min(N, 128)
    t[:m] = x[b, :m]
    ok_y &= bool((y[b] == t).all())
    ref[b, :m] = z0[b, :m] + t[:m]
print(k, ok_y, bool((z == ref).all()))
