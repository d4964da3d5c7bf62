"""NumPy oracle of layout-permuted-access.py: argv[1] holds what tlc-run
saved (one folder per kernel, inputs under inputs/). int4 tensors are bytes,
element 2b in the low nibble of byte b and 2b + 1 in the high one."""
import os
import sys

import numpy as np

root = sys.argv[1]


def load(d, name, inputs=False):
    return np.load(os.path.join(root, d, "inputs" if inputs else "", name + ".npy"))


def pack_int4(values):
    nibbles = values.astype(np.int64) & 0xF
    return (nibbles[0::2] | (nibbles[1::2] << 4)).astype(np.uint8)


for d in sorted(os.listdir(root)):
    a = load(d, "A", True).astype(np.float64)
    if d.startswith("packed_sink"):
        # T.cast to int4 truncates toward zero (the inputs stay in [-8, 7]).
        assert np.abs(a).max() < 8
        ok = np.array_equal(load(d, "B").view(np.uint8), pack_int4(np.trunc(a)))
        ok &= np.array_equal(load(d, "C"), np.concatenate([a[0::2], a[1::2]]).astype(np.float32))
    elif d.startswith("tiled_sink"):
        want = np.empty(128)
        t, k = np.meshgrid(np.arange(64), np.arange(2), indexing="ij")
        want[(t + 64 * k).ravel()] = 2.0 * a[(2 * t + k).ravel()]
        ok = np.array_equal(load(d, "C").astype(np.float64), want.reshape(8, 16))
    elif d.startswith("unrelated_reads"):
        ok = np.array_equal(load(d, "B").view(np.uint8), load(d, "Q", True).view(np.uint8))
        ok &= np.array_equal(load(d, "C"), load(d, "A", True))
    else:
        continue
    print(d, "PASS" if ok else "FAIL")
