#!/usr/bin/python3
"""NumPy reference for examples/transpose.py.

Input: X (M, N) float32. Output: Y = X^T (N, M) float32.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ref_common import RefContext, round_to  # noqa: E402


def main():
    ctx = RefContext(__doc__)
    x = ctx.input("X")
    ctx.size("M", x.shape[0])
    ctx.size("N", x.shape[1])
    ctx.save("Y", x.T, str(x.dtype))


if __name__ == "__main__":
    main()
