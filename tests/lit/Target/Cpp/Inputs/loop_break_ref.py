"""Oracle of loop-break.py: `inputs DIR` writes A.npy; `check DIR` reruns
the kernel's loops in Python for the saved A and compares B."""
import os
import sys

import numpy as np

mode, d = sys.argv[1], sys.argv[2]
if mode == "inputs":
    np.save(os.path.join(d, "A.npy"), np.array([0, 3, 5, 9], np.int32))
    sys.exit(0)

a = np.load(os.path.join(d, "inputs", "A.npy"))
want = np.zeros((4, 4), np.int32)
for bx, v in enumerate(a.tolist()):
    total = 0
    for i in range(8):
        if i == v:
            break
        total += i
    skipped = sum(i for i in range(8) if i % 3 != v % 3)
    pairs = 0
    for i in range(4):
        for j in range(8):
            if j > i + v:
                break
            pairs += 1
    n = k = 0
    while k < 20:
        k += 1
        if k % 2 == 0:
            continue
        if k > v + 5:
            break
        n += k
    want[bx] = [total, skipped, pairs, n]
got = np.load(os.path.join(d, "B.npy"))
print("B", "equal" if np.array_equal(got, want) else "DIFFERS:\n%s\nwant\n%s"
      % (got, want))
