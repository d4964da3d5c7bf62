#!/usr/bin/python3
"""NumPy reference for examples/softmax_rows.py.

Input: X (M, N) float16. Output: Y = softmax(X, axis=-1) as float16,
computed as exp(x - logsumexp(x)) in float64 (block_M and threads do not
change the result).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ref_common import RefContext  # noqa: E402


def main():
    ctx = RefContext(__doc__)
    x = ctx.input("X").astype(np.float64)
    ctx.size("M", x.shape[0])
    ctx.size("N", x.shape[1])
    top = x.max(axis=1, keepdims=True)
    log_sum = top + np.log(np.exp(x - top).sum(axis=1, keepdims=True))
    ctx.save("Y", np.exp(x - log_sum), "float16")


if __name__ == "__main__":
    main()
