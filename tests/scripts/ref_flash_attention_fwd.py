#!/usr/bin/python3
"""NumPy reference for examples/flash_attention_fwd.py.

Inputs: Q, K, V (batch, heads, seq_len, dim) float16. Output:
Output = softmax(Q K^T / sqrt(dim)) V as float16 (no mask).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ref_common import RefContext, round_to  # noqa: E402


def attention(q, k, v, causal=False):
    """q, k, v: (..., seq, dim) float64 -> (..., seq, dim)."""
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if causal:
        s = q.shape[-2]
        scores = np.where(np.tril(np.ones((s, s), dtype=bool)), scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    p = np.exp(scores)
    return (p / p.sum(axis=-1, keepdims=True)) @ v


def main():
    ctx = RefContext(__doc__)
    q = ctx.input("Q").astype(np.float64)
    k = ctx.input("K").astype(np.float64)
    v = ctx.input("V").astype(np.float64)
    for name, size in zip(("batch", "heads", "seq_len", "dim"), q.shape):
        ctx.size(name, size)
    ctx.save("Output", attention(q, k, v), "float16")


if __name__ == "__main__":
    main()
