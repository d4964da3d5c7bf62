"""NumPy model of a buffer resource 8 bytes short of the tensor (CDNA3 ISA:
dword loads range-checked per component): colsum_dynamic's S with the
tensor's last two f32 elements read as zero. argv[1]: the `tlc-run --save`
directory; argv[2]: block rows. Prints True when S matches."""
import os
import sys

import numpy as np

d = sys.argv[1]
block = int(sys.argv[2])
a = np.load(os.path.join(d, "inputs", "A.npy")).astype(np.float64)
s = np.load(os.path.join(d, "S.npy"))
a.reshape(-1)[-2:] = 0
m, n = a.shape
blocks = -(-m // block)
pad = np.zeros((blocks * block, n))
pad[:m] = a
want = pad.reshape(blocks, block, n).sum(axis=1)
print(s.shape == want.shape and bool(np.allclose(s, want, rtol=1e-5, atol=1e-5)))
