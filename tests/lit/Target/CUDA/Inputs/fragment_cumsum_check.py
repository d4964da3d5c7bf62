"""NumPy reference of fragment-cumsum.py: one line per kernel with True
when the saved outputs under argv[1] match blockwise cumulative sums."""
import os
import sys

import numpy as np


def blockwise(x, block, axis, reverse):
    """Cumulative sums of x within blocks of \\p block along \\p axis (zero
    padding past the end does not change the sums of the real elements,
    except in reverse, where the padding comes first and adds zero)."""
    out = np.zeros_like(x)
    for s in range(0, x.shape[axis], block):
        sl = [slice(None)] * x.ndim
        sl[axis] = slice(s, s + block)
        part = x[tuple(sl)]
        if reverse:
            part = np.flip(np.cumsum(np.flip(part, axis), axis), axis)
        else:
            part = np.cumsum(part, axis)
        out[tuple(sl)] = part
    return out


root = sys.argv[1]
# The instances in the order the program makes them (the second kernel of
# one name is saved as NAME_1).
for d, name, block, axis, reverse in [
        ("cumsum_tile", "tile dim 0 forward", 32, 0, False),
        ("cumsum_tile_1", "tile dim 1 reverse", 64, 1, True)]:
    a = np.load(os.path.join(root, d, "inputs", "A.npy")).astype(np.float64)
    b = np.load(os.path.join(root, d, "B.npy"))
    print(name, np.abs(b - blockwise(a, block, axis, reverse)).max() < 1e-3)
x = np.load(os.path.join(root, "cumsum_row", "inputs", "X.npy")).astype(np.float64)
y = np.load(os.path.join(root, "cumsum_row", "Y.npy"))
print("row forward", np.abs(y - blockwise(2 * x, 96, 0, False)).max() < 1e-3)
p = np.load(os.path.join(root, "cumsum_cube", "inputs", "P.npy")).astype(np.float64)
q = np.load(os.path.join(root, "cumsum_cube", "Q.npy"))
print("cube dim 1", np.abs(q - np.cumsum(p, 2)).max() < 1e-3)
