"""NumPy oracle of parallel-nested.py: B = A + 1 for each kernel (run
directory as argv[1])."""
import os
import sys

import numpy as np

d = sys.argv[1]
for k in ("nested2", "nested3"):
    a = np.load(os.path.join(d, k, "inputs", "A.npy"))
    b = np.load(os.path.join(d, k, "B.npy"))
    print(k, bool(np.allclose(b, a + np.float32(1.0), rtol=0, atol=1e-6)))
