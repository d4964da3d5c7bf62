"""NumPy reference of partial-wavefront.py's row_sums: argv[1] the
directory `tlc-run --save` wrote; prints True when B is A's row sums."""
import os
import sys

import numpy as np

a = np.load(os.path.join(sys.argv[1], "inputs", "A.npy")).astype(np.float64)
b = np.load(os.path.join(sys.argv[1], "B.npy"))
print(b.shape == (a.shape[0],) and bool(np.allclose(b, a.sum(axis=1),
                                                    rtol=1e-5, atol=1e-5)))
