#!/usr/bin/python3
"""NumPy reference for examples/softmax.py.

Input: X (M, N) float16. Output: Y = softmax(X, axis=-1) as float16.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ref_common import RefContext, round_to  # noqa: E402


def main():
    ctx = RefContext(__doc__)
    x = ctx.input("X").astype(np.float64)
    ctx.size("M", x.shape[0])
    ctx.size("N", x.shape[1])
    e = np.exp(x - x.max(axis=1, keepdims=True))
    ctx.save("Y", e / e.sum(axis=1, keepdims=True), "float16")


if __name__ == "__main__":
    main()
