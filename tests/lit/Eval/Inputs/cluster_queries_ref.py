"""NumPy oracle of cluster-queries.py: the cluster index is the block
index // cluster_dims (TileLang's KernelLaunchFrame.get_cluster_id)."""
import os
import sys

import numpy as np

root = sys.argv[1]
for d in sorted(os.listdir(root)):
    ids = np.load(os.path.join(root, d, "Ids.npy"))
    if d.startswith("clustered"):
        bx, by = np.meshgrid(np.arange(8), np.arange(6), indexing="ij")
        want = np.stack([bx // 2, (by // 3) * 10], axis=-1)
        print("clustered", "PASS" if np.array_equal(ids, want) else "FAIL")
    elif d.startswith("plain"):
        print("plain", "PASS" if np.array_equal(ids, np.arange(5)) else "FAIL")
