# NumPy's answer for named-barrier-count.py's scan kernel (argv[1]: its
# tlc-run --save output): the inclusive prefix sum of each row.
import sys

import numpy as np

d = sys.argv[1]
a = np.load(f"{d}/inputs/A.npy")
out = np.load(f"{d}/Out.npy")
want = np.cumsum(a.astype(np.int64), axis=1).astype(np.int32)
print("scan", "ok" if np.array_equal(out, want) else "WRONG")
