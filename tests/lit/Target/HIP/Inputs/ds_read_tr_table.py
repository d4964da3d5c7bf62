"""The lane table of T.ds_read_tr16_b64 / T.ds_read_tr8_b64 (ds-read-tr.py),
written from the instruction's description, against a run's outputs.

With n = 64 / E elements of E bits in a lane's 8 bytes (n = 4 for tr16, 8
for tr8), lane l of row group g = l // 16 addresses the chunk of block row
n g + (l % 16) // (16 / n), columns n (l % (16 / n)) .. + n - 1 of X, and
receives column l % 16 of rows n g .. n g + n - 1: Y[l][v] = X[n g + v][l %
16], element v in bits E v of the lane's uint32x2 (word 0 first). A table of
the read without the exchange (what ds_read_b64 gives: the lane's own
chunk) must not match, so the check can fail.
Usage: ds_read_tr_table.py RUN_DIR (tlc-run --save's directory).
"""
import os
import sys

import numpy as np

d = sys.argv[1]
for kernel, bits, dtype in (("tr16", 16, np.uint16), ("tr8", 8, np.uint8)):
    n = 64 // bits
    across = 16 // n
    x = np.load(os.path.join(d, "inputs", "X%d.npy" % bits)).view(dtype)
    y = np.load(os.path.join(d, "Y%d.npy" % bits)).view(dtype).reshape(64, n)
    want = np.empty((64, n), dtype)
    own = np.empty((64, n), dtype)
    for lane in range(64):
        g, j = lane // 16, lane % 16
        for v in range(n):
            want[lane, v] = x[n * g + v, j]
            own[lane, v] = x[n * g + j // across, n * (j % across) + v]
    bad = np.argwhere(y != want)
    print(kernel, "table:", "match" if bad.size == 0 else
          "lane %d element %d differs" % tuple(bad[0]))
    print(kernel, "without the exchange:",
          "match" if np.array_equal(y, own) else "differs")
