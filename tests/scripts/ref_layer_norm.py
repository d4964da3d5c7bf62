#!/usr/bin/python3
"""NumPy reference for examples/layer_norm.py.

Inputs: X (M, N), gamma (N,), beta (N,) float16. Parameter: eps (default
1e-5). Output: Y = (X - mean) / sqrt(var + eps) * gamma + beta as float16,
with the biased variance over the last axis.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ref_common import RefContext, round_to  # noqa: E402


def main():
    ctx = RefContext(__doc__)
    x = ctx.input("X").astype(np.float64)
    gamma = ctx.input("gamma").astype(np.float64)
    beta = ctx.input("beta").astype(np.float64)
    eps = ctx.param("eps", 1e-5)
    ctx.size("M", x.shape[0])
    ctx.size("N", x.shape[1])
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    ctx.save("Y", (x - mean) / np.sqrt(var + eps) * gamma + beta, "float16")


if __name__ == "__main__":
    main()
