"""NumPy oracle of kernel-tileir-hints.py: argv[1] holds what tlc-run saved
(one folder per instance, KV.npy, Idx.npy and Out.npy in each).
Out[s, d] = sum over j of KV[Idx[s, j], d] where Idx[s, j] >= 0."""
import os
import sys

import numpy as np

root = sys.argv[1]
for dirpath, _, files in sorted(os.walk(root)):
    if "Out.npy" not in files:
        continue
    kv = np.load(os.path.join(dirpath, "KV.npy")).astype(np.float64)
    idx = np.load(os.path.join(dirpath, "Idx.npy"))
    out = np.load(os.path.join(dirpath, "Out.npy"))
    want = np.zeros(out.shape, np.float64)
    for s in range(idx.shape[0]):
        for j in range(idx.shape[1]):
            if idx[s, j] >= 0:
                want[s] += kv[idx[s, j]]
    has_pad = bool((idx < 0).any())
    ok = has_pad and np.allclose(out, want, rtol=1e-5, atol=1e-4)
    print(os.path.relpath(dirpath, root), "PASS" if ok else "FAIL",
          "" if ok else (has_pad, np.abs(out - want).max()))
