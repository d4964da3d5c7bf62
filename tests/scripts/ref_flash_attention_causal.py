#!/usr/bin/python3
"""NumPy reference for examples/flash_attention_causal.py.

Inputs: Q, K, V (batch, seq_len, heads, dim) float16 ("BSHD"). Parameter:
is_causal (default true). Output: Output = softmax(mask(Q K^T / sqrt(dim))) V
as float16, where the causal mask keeps key positions <= the query position.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ref_common import RefContext, round_to  # noqa: E402

from ref_flash_attention_fwd import attention  # noqa: E402


def main():
    ctx = RefContext(__doc__)
    # BSHD -> BHSD for the computation.
    q = ctx.input("Q").astype(np.float64).transpose(0, 2, 1, 3)
    k = ctx.input("K").astype(np.float64).transpose(0, 2, 1, 3)
    v = ctx.input("V").astype(np.float64).transpose(0, 2, 1, 3)
    for name, size in zip(("batch", "heads", "seq_len", "dim"), q.shape):
        ctx.size(name, size)
    out = attention(q, k, v, causal=ctx.param("is_causal", True))
    ctx.save("Output", out.transpose(0, 2, 1, 3), "float16")


if __name__ == "__main__":
    main()
