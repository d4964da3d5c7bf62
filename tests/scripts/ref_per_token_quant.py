#!/usr/bin/python3
"""NumPy reference for examples/per_token_quant.py.

Input: X (M, N) bfloat16 (as float32). Outputs, computed in float32 like the
kernel: amax[m] = max(max |X[m, :]|, 1e-4); X_scale = amax / 448 (float32);
X_fp8 = clamp(X * (448 / amax), -448, 448) rounded to float8_e4m3fn
(stored as float32).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ref_common import RefContext, round_to  # noqa: E402


def main():
    ctx = RefContext(__doc__)
    x = ctx.input("X").astype(np.float32)
    ctx.size("M", x.shape[0])
    ctx.size("N", x.shape[1])
    fp8_max = np.float32(448.0)
    amax = np.maximum(np.abs(x).max(axis=1), np.float32(1e-4)).astype(np.float32)
    inv_scale = (fp8_max / amax).astype(np.float32)
    y = np.clip(x * inv_scale[:, None], -fp8_max, fp8_max).astype(np.float32)
    ctx.save("X_fp8", y, "float8_e4m3fn")
    ctx.save("X_scale", amax / fp8_max, "float32")


if __name__ == "__main__":
    main()
