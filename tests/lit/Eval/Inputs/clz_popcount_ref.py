"""NumPy oracle of clz-popcount.py.

  clz_popcount_ref.py inputs DIR   writes DIR/A.npy: 0, -1, every power of
                                   two and its neighbours, then random int64
  clz_popcount_ref.py check DIR    for each instance saved in DIR, the
                                   leading zeros and one bits of A's low
                                   `width` bits, with Python integers; one
                                   line per dtype in a fixed order"""
import os
import sys

import numpy as np

mode, d = sys.argv[1], sys.argv[2]
if mode == "inputs":
    vals = [0, -1, 1, -(1 << 63), (1 << 63) - 1]
    for bit in range(1, 63):
        vals += [(1 << bit) - 1, 1 << bit, (1 << bit) + 1, -(1 << bit)]
    rng = np.random.default_rng(11)
    vals += rng.integers(-(1 << 63), (1 << 63) - 1, 512 - len(vals)).tolist()
    os.makedirs(d, exist_ok=True)
    np.save(os.path.join(d, "A.npy"), np.array(vals[:512], dtype=np.int64))
    sys.exit(0)
WIDTH = {"int8": 8, "uint8": 8, "int16": 16, "uint16": 16, "int32": 32,
         "uint32": 32, "int64": 64, "uint64": 64}

# Instances in main()'s order: bit_counts, bit_counts_1, ... bit_counts_7.
ORDER = list(WIDTH)
lines = {}
for kernel in sorted(os.listdir(d)):
    path = os.path.join(d, kernel)
    if not kernel.startswith("bit_counts") or not os.path.isdir(path):
        continue
    index = int(kernel.rsplit("_", 1)[1]) if kernel != "bit_counts" else 0
    dtype = ORDER[index]
    a = np.load(os.path.join(path, "inputs", "A.npy"))
    z = np.load(os.path.join(path, "Z.npy"))
    p = np.load(os.path.join(path, "P.npy"))
    w = WIDTH[dtype]
    vals = [int(v) % (1 << w) for v in a.tolist()]
    clz_ok = all(int(z[i]) == w - v.bit_length() for i, v in enumerate(vals))
    pop_ok = all(int(p[i]) == bin(v).count("1") for i, v in enumerate(vals))
    lines[dtype] = "bit_counts %s clz %s popcount %s" % (
        dtype, "ok" if clz_ok else "WRONG", "ok" if pop_ok else "WRONG")
for dtype in ORDER:
    print(lines.get(dtype, "bit_counts %s missing" % dtype))
