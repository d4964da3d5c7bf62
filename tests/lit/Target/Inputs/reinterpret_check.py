"""Checks reinterpret-vectors.py's saved run against NumPy's `.view()`.

Usage: reinterpret_check.py OUTDIR [tr]

OUTDIR holds the .npy files of a `tlc-run --save` of kernel `words` (or,
with `tr`, of kernel `tr_words`, whose input is S). Each lane's words are recomputed here
from the input X with uint32 arithmetic, and every output is compared bit
for bit with the words viewed as float16 / bfloat16 / int8 / uint64 (lane
0 the lowest bits, NumPy's little-endian order). Prints one line per
output: `NAME: match` or `NAME: N of M differ`.
"""

import os
import sys

import numpy as np


def load(out, name):
    return np.load(os.path.join(out, name + ".npy"))


def bf16_bits(a):
    """bfloat16 values saved widened to float32: their top 16 bits."""
    u = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32)
    if np.any(u & 0xFFFF):
        print("B: not a widened bfloat16")
    return (u >> 16).astype(np.uint16)


def quiet_bf16(bits):
    """tlc-run saves bfloat16 widened to float32, which sets a signalling
    NaN's quiet bit: NaN patterns are compared with it set on both sides."""
    bits = np.asarray(bits, dtype=np.uint16)
    nan = ((bits & 0x7F80) == 0x7F80) & ((bits & 0x7F) != 0)
    return np.where(nan, bits | 0x40, bits).astype(np.uint16)


def report(name, got, want):
    got, want = np.asarray(got), np.asarray(want)
    bad = int(np.count_nonzero(got != want))
    print("%s: match" % name if bad == 0 else "%s: %d of %d differ" % (name, bad, want.size))


def main():
    out = sys.argv[1]
    if len(sys.argv) <= 2:
        x = load(os.path.join(out, "inputs"), "X")
    else:
        x = np.zeros(128, dtype=np.uint32)
    with np.errstate(over="ignore"):
        w0 = x[0::2].astype(np.uint32) * np.uint32(2654435761) + np.uint32(40503)
        w1 = x[1::2].astype(np.uint32) * np.uint32(2246822519) + np.uint32(3266489917)
    w = np.stack([w0, w1], axis=1).reshape(-1)  # lane l's words at 2 l, 2 l + 1
    if len(sys.argv) > 2 and sys.argv[2] == "tr":
        # ds_read_b64_tr_b16 (Inputs/ds_read_tr_table.py's rule): lane l of
        # row group g gets column l % 16 of rows 4 g .. 4 g + 3.
        xs = load(os.path.join(out, "inputs"), "S").view(np.uint16).reshape(16, 16)
        lanes = np.array([[xs[4 * (l // 16) + v, l % 16] for v in range(4)] for l in range(64)],
                         dtype=np.uint16).reshape(-1)
        report("H", load(out, "H").view(np.uint16), lanes)
        report("B", quiet_bf16(bf16_bits(load(out, "B"))), quiet_bf16(lanes))
        report("H, lane 0 highest", load(out, "H").view(np.uint16),
               lanes.reshape(-1, 4)[:, ::-1].reshape(-1))
        return
    report("H", load(out, "H").view(np.uint16), w.view(np.float16).view(np.uint16))
    report("B", quiet_bf16(bf16_bits(load(out, "B"))), quiet_bf16(w.view(np.uint16)))
    report("W", load(out, "W"), w)
    report("D", load(out, "D"), w.view(np.uint64))
    report("I8", load(out, "I8"), w.view(np.int8))
    # The opposite order (lane 0 the highest bits) must not match.
    report("H, lane 0 highest", load(out, "H").view(np.uint16),
           w.view(np.uint64).view(np.uint16).reshape(-1, 4)[:, ::-1].reshape(-1))
    report("I8, lane 0 highest", load(out, "I8"),
           w.view(np.int8).reshape(-1, 8)[:, ::-1].reshape(-1))


main()
