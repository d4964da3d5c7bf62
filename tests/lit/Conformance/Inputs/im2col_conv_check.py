"""Checks e-im2col-conv.py's CPU output against NumPy's direct convolution.

Usage: im2col_conv_check.py OUT K S D P: out[n, oh, ow, f] = sum over kh,
kw, c of data[n, oh*S + kh*D - P, ow*S + kw*D - P, c] * kernel[kh, kw, c, f]
(zero outside the image), in float64, against the float16 output.
"""
import os
import sys

import numpy as np

out, k, s, d, p = sys.argv[1], *map(int, sys.argv[2:6])
load = lambda name: np.load(os.path.join(out, name + ".npy"))
x = load("inputs/data").astype(np.float64)
w = load("inputs/kernel").astype(np.float64)
y = load("out").astype(np.float64)
n, h, wd, c = x.shape
oh = (h + 2 * p - d * (k - 1) - 1) // s + 1
ow = (wd + 2 * p - d * (k - 1) - 1) // s + 1
xp = np.zeros((n, h + 2 * p, wd + 2 * p, c))
xp[:, p:p + h, p:p + wd, :] = x
ref = np.zeros((n, oh, ow, w.shape[3]))
for kh in range(k):
    for kw in range(k):
        patch = xp[:, kh * d:kh * d + (oh - 1) * s + 1:s,
                   kw * d:kw * d + (ow - 1) * s + 1:s, :]
        ref += patch @ w[kh, kw]
ok = y.shape == ref.shape and np.allclose(y, ref, rtol=1e-2, atol=1e-2)
print("im2col_conv", y.shape, "OK" if ok else "MISMATCH",
      float(np.abs(y - ref).max()) if y.shape == ref.shape else "")
