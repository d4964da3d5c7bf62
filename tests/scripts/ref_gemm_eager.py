#!/usr/bin/python3
"""NumPy reference for examples/gemm_eager.py.

Inputs: A (M, K), B (N, K) float16. Output: C = relu(A @ B^T) as float16.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ref_common import RefContext, round_to  # noqa: E402


def main():
    ctx = RefContext(__doc__)
    a = ctx.input("A").astype(np.float64)
    b = ctx.input("B").astype(np.float64)
    ctx.size("M", a.shape[0])
    ctx.size("K", a.shape[1])
    ctx.size("N", b.shape[0])
    ctx.save("C", np.maximum(a @ b.T, 0.0), "float16")


if __name__ == "__main__":
    main()
