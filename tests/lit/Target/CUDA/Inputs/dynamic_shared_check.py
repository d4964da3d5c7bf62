"""NumPy reference of dynamic-shared-buffer.py: each argument is a
directory `tlc-run --save` wrote for one value of n; one line per kernel
with True when its outputs match."""
import os
import sys

import numpy as np

for root in sys.argv[1:]:
    a = np.load(os.path.join(root, "scan_rows", "inputs", "A.npy"))
    b = np.load(os.path.join(root, "scan_rows", "B.npy"))
    want = np.cumsum(a, axis=1, dtype=np.int32)
    print("scan_rows n=%d" % a.shape[1],
          b.shape == want.shape and bool((b == want).all()))
    x = np.load(os.path.join(root, "two_buffers", "inputs", "X.npy"))
    y = np.load(os.path.join(root, "two_buffers", "inputs", "Y.npy"))
    z = np.load(os.path.join(root, "two_buffers", "Z.npy"))
    i = np.arange(x.shape[0])
    want = x.astype(np.float32) * 2 + y.astype(np.float32) + (i % 64) * 0.5
    print("two_buffers n=%d" % x.shape[0],
          z.shape == want.shape and bool(np.allclose(z, want, rtol=1e-6,
                                                     atol=1e-6)))
