"""Writes unsigned-min-max.py's inputs: uint8 and uint32 values over their whole
range (half of them at or above 2^(bits-1), where a signed comparison errs)."""
import os, sys
import numpy as np
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)
np.save(os.path.join(out, "X8.npy"), rng.integers(0, 256, (8, 64), dtype=np.uint8))
np.save(os.path.join(out, "X32.npy"), rng.integers(0, 2**32, (8, 64), dtype=np.uint32))
