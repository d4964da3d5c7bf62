"""Checks unsigned-min-max.py's output against NumPy's unsigned max, min and clip."""
import os, sys
import numpy as np
ld = lambda n: np.load(os.path.join(sys.argv[1], n + ".npy"))
x8, x32 = ld("X8"), ld("X32")
assert x8.max() > 127 and x32.max() >= 2**31
res = {
    "max8": np.array_equal(ld("Max8"), x8.max(axis=1)),
    "min8": np.array_equal(ld("Min8"), x8.min(axis=1)),
    "clamp8": np.array_equal(ld("Clamp8"), np.clip(x8, 100, 200).astype(np.uint8)),
    "max32": np.array_equal(ld("Max32"), x32.max(axis=1)),
    "min32": np.array_equal(ld("Min32"), x32.min(axis=1)),
    "clamp32": np.array_equal(ld("Clamp32"), np.clip(x32, 1000, 3000000000).astype(np.uint32)),
}
print(" ".join("%s %s" % (k, "OK" if v else "MISMATCH") for k, v in res.items()))
