"""Inputs of arg-reduce.py: DIR/<kernel>/A.npy for every kernel, with many
ties (few distinct values), and for float kernels signed zeros, infinities
and NaNs in chosen rows (argv[1] is DIR)."""
import os
import sys

import numpy as np

KERNELS = {
    "argmax_rows": ((4, 128), "float32"),
    "argmin_rows_keepdim": ((4, 128), "float32"),
    "argmax_dim0": ((128, 4), "float32"),
    "argmin_middle": ((4, 16, 8), "float32"),
    "argmax_last_256": ((2, 4, 64), "float32"),
    "argmin_vector": ((128,), "float32"),
    "argmax_f16_shared": ((8, 256), "float16"),
    "argmin_bf16_shared_src": ((8, 256), "bfloat16"),
    "argmax_f64_shared_dst": ((8, 256), "float64"),
    "argmin_tail_7": ((4, 7), "float32"),
    "argmax_tail_129": ((4, 129), "float32"),
    "argmax_i64": ((4, 128), "int64"),
    "argmin_i64": ((4, 128), "int64"),
    "argmax_u16": ((4, 128), "uint16"),
    "argmin_u64": ((4, 128), "uint64"),
    "argmax_i8_pad": ((2, 7, 4), "int8"),
}

rng = np.random.default_rng(11)
for name, (shape, dtype) in KERNELS.items():
    if dtype.startswith("float") or dtype == "bfloat16":
        x = rng.integers(-8, 9, shape).astype(np.float64)
        if x.ndim == 2 and x.shape[0] == 8:
            # The special rows of TileLang's test, for max and min alike.
            x[0, 200] = x[0, 33] = np.inf
            x[1, 0] = -np.inf
            x[1, 130] = x[1, 63] = np.nan
            x[2] = np.nan
            x[3] = np.inf
            x[4] = -np.inf
            x[5] = 0.0
            x[5, 0] = -0.0
            x[6, -1] = np.nan
            x[7, 255] = -np.inf
        elif x.ndim == 2 and x.shape[1] in (7, 129):
            # The extreme last: every index of the row is looked at.
            x[:] = -2.0
            x[:, -1] = 7.0 if name.startswith("argmax") else -7.0
            x[3, 2] = np.nan
        else:
            x.flat[5] = np.nan
        # tlc-run reads bfloat16 inputs from float32 arrays (these values
        # are all exact in bfloat16).
        a = x.astype(np.float32 if dtype == "bfloat16" else dtype)
    elif dtype == "int64":
        a = np.full(shape, 2**60, dtype=np.int64)
        a[:, 97] += 1
        a[:, 3] -= 1
        a[1, 5] -= 1
        a[2, 100] += 1
    else:
        info = np.iinfo(dtype)
        a = rng.integers(0, 32, shape).astype(dtype)
        if dtype == "int8":
            # Rows at the extreme of the type: equal identities choose 0.
            a[0] = info.min
            a[1, :, 0] = info.min
        else:
            a[0] = info.max
            a[1, 7] = info.max
            a[2, 9] = info.min
    os.makedirs(os.path.join(sys.argv[1], name), exist_ok=True)
    np.save(os.path.join(sys.argv[1], name, "A.npy"), a)
