#!/usr/bin/python3
"""NumPy reference for examples/rms_norm.py.

Inputs: X (M, N), W (N,) float16. Parameter: eps (default 1e-6).
Output: Y = X / sqrt(mean(X^2, axis=-1) + eps) * W as float16.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ref_common import RefContext, round_to  # noqa: E402


def main():
    ctx = RefContext(__doc__)
    x = ctx.input("X").astype(np.float64)
    w = ctx.input("W").astype(np.float64)
    eps = ctx.param("eps", 1e-6)
    ctx.size("M", x.shape[0])
    ctx.size("N", x.shape[1])
    rms = np.sqrt((x * x).mean(axis=1, keepdims=True) + eps)
    ctx.save("Y", x / rms * w[None, :], "float16")


if __name__ == "__main__":
    main()
