"""NumPy oracle of fragment-held-rows.py (float64): the split-softmax
combine of example_mha_inference.py from the saved inputs (run directory as
argv[1]); prints whether the kernel's float16 output is within 1e-2."""
import os
import sys

import numpy as np

d = sys.argv[1]
k = "combine"
glse = np.load(os.path.join(d, "inputs", "glse.npy")).astype(np.float64)
part = np.load(os.path.join(d, "inputs", "Output_partial.npy")).astype(np.float64)
out = np.load(os.path.join(d, "Output.npy")).astype(np.float64)
# glse: [batch, heads, split, seq]; part: [batch, seq, heads, split, dim]
lse_max = glse.max(axis=2)
lse_sum = np.log2(np.exp2(glse - lse_max[:, :, None, :]).sum(axis=2)) + lse_max
scale = np.exp2(glse - lse_sum[:, :, None, :])  # [b, h, s, q]
want = np.einsum("bhsq,bqhsd->bqhd", scale, part)
ok = np.allclose(out, want, rtol=1e-2, atol=1e-2)
print(k, out.shape, bool(ok))
if not ok:
    print("max abs diff", np.abs(out - want).max())
