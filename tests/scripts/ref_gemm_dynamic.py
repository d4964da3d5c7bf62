#!/usr/bin/python3
"""NumPy reference for examples/gemm_dynamic.py.

Inputs: A ((K, M) if trans_A else (M, K)), B ((N, K) if trans_B else
(K, N)) float16. Parameters: trans_A, trans_B (default false). Output:
C = op(A) @ op(B) as float16. The sizes m, n, k come from the inputs.
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
    if ctx.param("trans_A", False):
        a = a.T
    if ctx.param("trans_B", False):
        b = b.T
    if a.shape[1] != b.shape[0]:
        sys.exit(f"error: K mismatch: op(A) is {a.shape}, op(B) is {b.shape}")
    ctx.size("m", a.shape[0])
    ctx.size("k", a.shape[1])
    ctx.size("n", b.shape[1])
    ctx.save("C", a @ b, "float16")


if __name__ == "__main__":
    main()
