"""NumPy reference of fragment-reshape.py: one line per check with True
when the saved outputs under argv[1] match (the indexer against float64
sums, the element-wise products exactly)."""
import os
import sys

import numpy as np

root = sys.argv[1]


def load(kernel, name, inputs=True):
    sub = ("inputs",) if inputs else ()
    return np.load(os.path.join(root, kernel, *sub, name + ".npy"))


heads = 8
q = load("indexer", "Q").astype(np.float64)
k = load("indexer", "K").astype(np.float64)
kscale = load("indexer", "KScale").astype(np.float64)
w = load("indexer", "W").astype(np.float64)
logits = load("indexer", "Logits", inputs=False)
S, N = logits.shape
# logits[s, n] = sum_h relu(q[s * heads + h] . k[n]) * w[s, h] * kscale[n]
dots = (q @ k.T).reshape(S, heads, N)
ref = (np.maximum(dots, 0) * w[:, :, None]).sum(axis=1) * kscale[None, :]
print("indexer", bool(np.abs(logits - ref).max() <= 1e-3 * (1 + np.abs(ref).max())))

# One f32 product per element: NumPy's f32 multiply rounds it the same way.
a = load("flatten", "A")
b = load("flatten", "B", inputs=False)
M = a.shape[0]
scale = np.arange(1, b.shape[1] + 1, dtype=np.float32)
print("flatten", bool((b == a.reshape(M, -1) * scale).all()))
c = load("flatten", "C", inputs=False)
tx = np.arange(c.shape[0], dtype=np.float64)[:, None, None]
print("local", bool((c == np.arange(8).reshape(1, 2, 4) * tx + np.arange(2)[None, :, None]).all()))
