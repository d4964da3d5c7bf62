#!/usr/bin/python3
"""NumPy reference for examples/gemm_splitk.py.

Inputs: A (M, K), B (K, N) float16 and, optionally, C (M, N) float32, the
value of C before the kernel runs (zeros when C.npy is absent). The kernel
accumulates into C in place, so the output is C = C_before + A @ B (float32).
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
    ctx.size("N", b.shape[1])
    c = ctx.input("C", optional=True)
    c = np.zeros((a.shape[0], b.shape[1])) if c is None else c.astype(np.float64)
    ctx.save("C", c + a @ b, "float32")


if __name__ == "__main__":
    main()
