"""NumPy oracle of gemm-fused.py: argv[1] is a `tlc-run --save` directory
(inputs/A.npy, inputs/B.npy float32, C.npy float32), argv[2] the kind: half
or bf16 (the inputs rounded to that type, to nearest even, as the kernel's
copy to shared memory does) or tiny (the operands the kernel builds). C
must equal, bit for bit, the float32 loop nest over k in order with the
product and the sum each rounded to float32."""
import os
import sys

import numpy as np

d, kind = sys.argv[1], sys.argv[2]
a = np.load(os.path.join(d, "inputs", "A.npy")).astype(np.float32)
b = np.load(os.path.join(d, "inputs", "B.npy")).astype(np.float32)
c = np.load(os.path.join(d, "C.npy"))


def bf16(x):
    u = x.view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return u.astype(np.uint32).view(np.float32)


if kind == "half":
    a, b = a.astype(np.float16).astype(np.float32), b.astype(np.float16).astype(np.float32)
elif kind == "bf16":
    a, b = bf16(a), bf16(b)
else:
    a = np.zeros_like(a)
    b = np.zeros_like(b)
    a[:, 0], a[:, 1] = 2.0**-60, 2.0**-72 * (1 + 2.0**-7)
    b[0, :], b[1, :] = 2.0**-60, 2.0**-72
acc = np.zeros(c.shape, np.float32)
with np.errstate(under="ignore"):
    for k in range(a.shape[1]):
        acc = (acc + np.outer(a[:, k], b[k]).astype(np.float32)).astype(np.float32)
if kind == "tiny":
    # The separate product rounds to a tie that stays at 2^-120; fused, the
    # sum would round up by one ulp.
    assert (acc == np.float32(2.0**-120)).all()
bad = int((c.view(np.uint32) != acc.view(np.uint32)).sum())
print(f"{kind}:", "ok" if bad == 0 else f"BAD {bad} elements", f"({c.shape[0]} x {c.shape[1]})")
