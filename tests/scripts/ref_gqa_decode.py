#!/usr/bin/python3
"""NumPy reference for examples/gqa_decode.py.

Inputs: Q (batch, heads, dim), K, V (batch, seqlen_kv, groups, dim) float16;
query head h uses KV head h // (heads // groups). Output: Output (batch,
heads, dim) = softmax(q K^T / sqrt(dim)) V as float16. num_split does not
change the result.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ref_common import RefContext, round_to  # noqa: E402


def main():
    ctx = RefContext(__doc__)
    q = ctx.input("Q").astype(np.float64)
    k = ctx.input("K").astype(np.float64)
    v = ctx.input("V").astype(np.float64)
    batch, heads, dim = q.shape
    _, seqlen_kv, groups, _ = k.shape
    for name, size in (("batch", batch), ("heads", heads), ("dim", dim), ("seqlen_kv", seqlen_kv), ("groups", groups)):
        ctx.size(name, size)
    if heads % groups:
        sys.exit("error: heads must be a multiple of groups")
    rep = heads // groups
    k = np.repeat(k, rep, axis=2)  # (batch, seqlen_kv, heads, dim)
    v = np.repeat(v, rep, axis=2)
    scores = np.einsum("bhd,bshd->bhs", q, k) / np.sqrt(dim)
    scores -= scores.max(axis=-1, keepdims=True)
    p = np.exp(scores)
    p /= p.sum(axis=-1, keepdims=True)
    ctx.save("Output", np.einsum("bhs,bshd->bhd", p, v), "float16")


if __name__ == "__main__":
    main()
