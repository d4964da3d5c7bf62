#!/usr/bin/python3
"""NumPy reference for examples/elementwise_add.py.

Inputs: A, B (M, N). Output: C = A + B in the inputs' dtype (float32 by
default; float16 when the kernel was built with dtype=T.float16).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ref_common import RefContext, round_to  # noqa: E402


def main():
    ctx = RefContext(__doc__)
    a = ctx.input("A")
    b = ctx.input("B")
    ctx.size("M", a.shape[0])
    ctx.size("N", a.shape[1])
    dtype = "float16" if a.dtype == np.float16 else "float32"
    ctx.save("C", a.astype(np.float64) + b.astype(np.float64), dtype)


if __name__ == "__main__":
    main()
