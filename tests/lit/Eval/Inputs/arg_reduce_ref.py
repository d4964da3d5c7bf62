"""NumPy oracle of arg-reduce.py: argv[1] the inputs of
arg_reduce_inputs.py, argv[2] the outputs tlc-run saved. NumPy's argmax and
argmin pick the first index on ties and the first NaN, as TileLang's
T.reduce_argmax / T.reduce_argmin."""
import os
import sys

import numpy as np

# kernel: (kind, dim, keepdim)
KERNELS = {
    "argmax_rows": ("max", 1, False),
    "argmin_rows_keepdim": ("min", -1, True),
    "argmax_dim0": ("max", 0, False),
    "argmin_middle": ("min", 1, False),
    "argmax_last_256": ("max", -1, True),
    "argmin_vector": ("min", 0, True),
    "argmax_f16_shared": ("max", 1, False),
    "argmin_bf16_shared_src": ("min", 1, False),
    "argmax_f64_shared_dst": ("max", 1, False),
    "argmin_tail_7": ("min", 1, False),
    "argmax_tail_129": ("max", 1, False),
    "argmax_i64": ("max", 1, False),
    "argmin_i64": ("min", 1, False),
    "argmax_u16": ("max", 1, False),
    "argmin_u64": ("min", 1, False),
    "argmax_i8_pad": ("max", 1, False),
}

for name, (kind, dim, keepdim) in KERNELS.items():
    if not os.path.exists(os.path.join(sys.argv[2], name)):
        continue
    a = np.load(os.path.join(sys.argv[1], name, "A.npy"))
    b = np.load(os.path.join(sys.argv[2], name, "B.npy"))
    want = getattr(np, "arg" + kind)(a, axis=dim)
    if keepdim:
        want = np.expand_dims(want, dim)
    ok = b.shape == want.shape and bool((b == want).all())
    print(name, "PASS" if ok else "FAIL", "" if ok else (b.ravel(), want.ravel()))
