"""NumPy reference of safe-value-negative-zero-sim.test: OUT [OUT...].

Out is A in its first 50 rows and -0.0 (sign bit set) in the rest; one
line per kernel and output directory."""
import os
import sys

import numpy as np

for out in sys.argv[1:]:
    for kernel in ("rows", "tiles"):
        a = np.load(os.path.join(out, kernel, "inputs", "A.npy"))
        o = np.load(os.path.join(out, kernel, "Out.npy"))
        rows = a.shape[0]
        inside = bool((o[:rows] == a).all())
        past = o[rows:]
        negzero = bool((past == 0).all() and np.signbit(past).all())
        print(kernel, "inside", inside, "negative-zero", negzero)
