"""63 (2^-14 + 2^-24) max over (n, b) of sum_h |W| sum_d |Kv| |Q| in float64
from the fp8 inputs tlc-run --save wrote: fp8-accumulation-epilogue.test's
oracle of the largest per-element bound tlc-run prints for Logits."""
import os
import sys

import numpy as np

d = sys.argv[1]
q = np.abs(np.load(os.path.join(d, "inputs", "Q.npy")).astype(np.float64))
k = np.abs(np.load(os.path.join(d, "inputs", "Kv.npy")).astype(np.float64))
w = np.abs(np.load(os.path.join(d, "inputs", "W.npy")).astype(np.float64))
m = ((k @ q.T) * w).reshape(128, 4, 16).sum(axis=2)
print("%.6e" % (63 * (2.0**-14 + 2.0**-24) * m.max()))
