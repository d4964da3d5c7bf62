"""NumPy oracle of the gemm-*.py programs: argv[1] is a `tlc-run --save`
directory holding inputs/A.npy, inputs/B.npy and C.npy, argv[2] the mode,
argv[3] and argv[4] transpose_A and transpose_B (0/1). Prints one verdict
line per check.

Modes:
  tf32   f32 A and B read as tf32 (13 low mantissa bits dropped, as the
         CUDA tensor cores read f32 bits; tlc's CPU target models it),
         f32 accumulation: within 1e-5 of the float64 product of the
         truncated operands, and visibly apart from the full-f32 product
         (so the truncation is really there).
  f64    float64 product, within 1e-12.
  int    integer product, exactly (int32 wrap-around).
  f16    f16 A and B accumulated in an f16 fragment: every argv[5] = 16 k
         (one mma.sync .f16 instruction's K) the products are added to the
         f16 values in f32, in k order, then rounded to f16 (tlc's CPU
         target, which must equal this bit for bit).
"""
import os
import sys

import numpy as np

d, mode = sys.argv[1], sys.argv[2]
trans_a, trans_b = sys.argv[3] == "1", sys.argv[4] == "1"
a = np.load(os.path.join(d, "inputs", "A.npy"))
b = np.load(os.path.join(d, "inputs", "B.npy"))
c = np.load(os.path.join(d, "C.npy"))
if trans_a:
    a = a.T
if trans_b:
    b = b.T


def tf32(x):
    return (x.astype(np.float32).view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


if mode == "tf32":
    want = tf32(a).astype(np.float64) @ tf32(b).astype(np.float64)
    full = a.astype(np.float64) @ b.astype(np.float64)
    err = np.abs(c - want).max()
    print("tf32 model:", "ok" if err <= 1e-5 * max(1.0, np.abs(want).max()) else f"BAD {err}")
    print("differs from f32:", "ok" if np.abs(c - full).max() > 1e-4 else "BAD (not truncated)")
elif mode == "f64":
    want = a.astype(np.float64) @ b.astype(np.float64)
    err = np.abs(c - want).max()
    print("f64:", "ok" if err <= 1e-12 * max(1.0, np.abs(want).max()) else f"BAD {err}")
elif mode == "int":
    want = (a.astype(np.int64) @ b.astype(np.int64) + 2**31) % 2**32 - 2**31
    bad = int((c.astype(np.int64) != want).sum())
    print("int:", "ok" if bad == 0 else f"BAD {bad} elements")
elif mode == "f16":
    bk = int(sys.argv[5])
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    want = np.zeros((a.shape[0], b.shape[1]), np.float16)
    for k0 in range(0, a.shape[1], bk):
        acc = want.astype(np.float32)
        for k in range(k0, min(k0 + bk, a.shape[1])):
            acc = acc + np.outer(a32[:, k], b32[k])
        want = acc.astype(np.float16)
    bad = int((c.view(np.uint16) != want.view(np.uint16)).sum())
    print("f16:", "ok" if bad == 0 else f"BAD {bad} elements")
print("shape:", c.shape)
