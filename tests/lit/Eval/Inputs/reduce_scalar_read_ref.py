"""NumPy oracle of reduce-scalar-read-few-elements.py (run directory as
argv[1]): out_max = 2 * max over each row (row_max), max over each row
(row_max_lead, row_max_other); out = 3 * x[:, 37] (pick_lane)."""
import os
import sys

import numpy as np

d = sys.argv[1]
for name, scale in (("row_max", 2.0), ("row_max_lead", 1.0), ("row_max_other", 1.0)):
    x = np.load(os.path.join(d, name, "inputs", "logits.npy"))
    got = np.load(os.path.join(d, name, "out_max.npy"))
    print(name, bool((got == scale * x.max(axis=1)).all()))
x = np.load(os.path.join(d, "pick_lane", "inputs", "x.npy"))
got = np.load(os.path.join(d, "pick_lane", "out.npy"))
print("pick_lane", bool((got == np.float32(3.0) * x[:, 37]).all()))
