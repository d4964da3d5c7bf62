"""Checks a saved T.tma_gather4 run (Conformance/i-mbarrier-expect-tx.py)
against NumPy: Out[i] = Table[Ids[min(i, num - 1)]], a row outside the
table reading zeros (TMA fills out-of-bounds boxes with zero)."""
import os
import sys

import numpy as np

for kernel in sorted(os.listdir(sys.argv[1])):
    d = os.path.join(sys.argv[1], kernel)
    table = np.load(os.path.join(d, "inputs", "Table.npy"))
    ids = np.load(os.path.join(d, "inputs", "Ids.npy"))
    out = np.load(os.path.join(d, "Out.npy"))
    want = np.zeros((ids.size, table.shape[1]), table.dtype)
    inside = (ids >= 0) & (ids < table.shape[0])
    want[inside] = table[ids[inside]]
    ok = np.array_equal(out, want)
    print(f"{kernel}: {'equal' if ok else 'DIFFERENT'} "
          f"({int(inside.sum())} rows inside, {int((~inside).sum())} outside)")
