# The oracle of ../quantize-lop3-decode.py: NumPy emulating the PTX of
# BitBLAS's decoder on each 32-bit word of B: lop3.b32 d, w >> 4i,
# 0x000f000f, 0x64006400 with immLut (0xf0 & 0xcc) | 0xaa, i.e.
# (a & b) | c, then sub.f16x2 d, d, MEDIAN in float16 (two halves per word,
# the low half first). Prints one line per directory.
import sys

import numpy as np


def lop3(a, b, c, lut):
    out = np.zeros_like(a)
    for bit in range(32):
        ia = (a >> bit) & 1
        ib = (b >> bit) & 1
        ic = (c >> bit) & 1
        idx = (ia << 2) | (ib << 1) | ic
        out |= ((np.uint32(lut) >> idx) & 1) << bit
    return out


def decode(words, signed):
    median = np.array([0x6408 if signed else 0x6400] * 2, dtype=np.uint16).view(np.float16)
    out = np.zeros((words.size, 8), dtype=np.float16)
    for i in range(4):
        h = lop3(words >> np.uint32(4 * i), np.uint32(0x000F000F), np.uint32(0x64006400),
                 (0xF0 & 0xCC) | 0xAA)
        pair = h.astype("<u4").view(np.float16).reshape(-1, 2)
        pair = (pair - median).astype(np.float16)
        out[:, 2 * i] = pair[:, 0]
        out[:, 2 * i + 1] = pair[:, 1]
    return out


for d, name, signed in zip(sys.argv[1:], ["decode_i4u_to_f16", "decode_i4s_to_f16"], [False, True]):
    b = np.load(d + "/inputs/B.npy").astype(np.int8)
    words = np.ascontiguousarray(b).view("<u4").reshape(-1)
    want = decode(words, signed)
    got = np.load(d + "/C.npy").astype(np.float16)
    print(name, "exact" if np.array_equal(got, want) else f"differs at {np.argwhere(got != want)[:4].tolist()}")
