"""NumPy oracle of tma-scatter4.py.

  tma_scatter4_check.py inputs DIR  rows 5, 40, 70 (outside the 64 rows)
                                    and 63; random Src and Out
  tma_scatter4_check.py check DIR   Out[Rows[i], 16:48] = Src[i] where the
                                    row is inside, Out unchanged elsewhere"""
import os
import sys

import numpy as np

mode, d = sys.argv[1], sys.argv[2]
if mode == "inputs":
    rng = np.random.default_rng(3)
    os.makedirs(d, exist_ok=True)
    np.save(os.path.join(d, "Rows.npy"), np.array([5, 40, 70, 63], np.int32))
    np.save(os.path.join(d, "Src.npy"), rng.standard_normal((4, 32)).astype(np.float32))
    np.save(os.path.join(d, "Out.npy"), rng.standard_normal((64, 64)).astype(np.float32))
    sys.exit(0)
rows = np.load(os.path.join(d, "inputs", "Rows.npy"))
src = np.load(os.path.join(d, "inputs", "Src.npy"))
want = np.load(os.path.join(d, "inputs", "Out.npy")).copy()
out = np.load(os.path.join(d, "Out.npy"))
inside = [(i, r) for i, r in enumerate(rows) if 0 <= r < want.shape[0]]
for i, r in inside:
    want[r, 16:48] = src[i]
print(f"scatter4: {'equal' if np.array_equal(out, want) else 'DIFFERENT'} "
      f"({len(inside)} rows inside, {len(rows) - len(inside)} outside)")
