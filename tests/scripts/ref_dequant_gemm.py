#!/usr/bin/python3
"""NumPy reference for examples/dequant_gemm.py.

Inputs: A (M, K) float16; B (N, K // 2) uint8 packing two weights per byte
(low nibble = even k), each the signed value + 8; Scale (N, ceil(K /
group_size)) float16. Parameter: group_size (default 128). Output:
C = A @ W^T as float16 with W[n, k] = (nibble - 8) * Scale[n, k // group_size]
rounded to float16, as the kernel dequantises in float16.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ref_common import RefContext, round_to  # noqa: E402


def main():
    ctx = RefContext(__doc__)
    a = ctx.input("A").astype(np.float64)
    packed = ctx.input("B").astype(np.uint8)
    scale = ctx.input("Scale").astype(np.float64)
    group_size = ctx.param("group_size", 128)
    m, k = a.shape
    n = packed.shape[0]
    ctx.size("M", m)
    ctx.size("N", n)
    ctx.size("K", k)
    if packed.shape[1] * 2 != k:
        sys.exit(f"error: B has {packed.shape[1]} bytes per row, expected K // 2 = {k // 2}")
    if scale.shape != (n, -(-k // group_size)):
        sys.exit(f"error: Scale has shape {scale.shape}, expected {(n, -(-k // group_size))}")
    nibbles = np.empty((n, k), dtype=np.int64)
    nibbles[:, 0::2] = packed & 0xF
    nibbles[:, 1::2] = packed >> 4
    groups = np.arange(k) // group_size
    w = round_to((nibbles - 8) * scale[:, groups], "float16").astype(np.float64)
    ctx.save("C", a @ w.T, "float16")


if __name__ == "__main__":
    main()
