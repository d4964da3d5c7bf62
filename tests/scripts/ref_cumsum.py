#!/usr/bin/python3
"""NumPy reference for examples/cumsum.py.

Input: X (batch, seq_len, heads) float32. Parameters: chunk_size (default
64), reverse (default false). Output: Y, the inclusive cumulative sum along
seq_len restarted at every chunk_size boundary (suffix sums when reverse).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ref_common import RefContext, round_to  # noqa: E402


def main():
    ctx = RefContext(__doc__)
    x = ctx.input("X").astype(np.float64)
    chunk = ctx.param("chunk_size", 64)
    reverse = ctx.param("reverse", False)
    for name, size in zip(("batch", "seq_len", "heads"), x.shape):
        ctx.size(name, size)
    y = np.empty_like(x)
    for start in range(0, x.shape[1], chunk):
        part = x[:, start:start + chunk, :]
        if reverse:
            y[:, start:start + chunk, :] = np.cumsum(part[:, ::-1, :], axis=1)[:, ::-1, :]
        else:
            y[:, start:start + chunk, :] = np.cumsum(part, axis=1)
    ctx.save("Y", y, "float32")


if __name__ == "__main__":
    main()
