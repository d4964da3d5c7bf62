"""Checks C of a float32, float16-accumulator or integer GEMM run that
`tlc-run --save` wrote against NumPy. Usage: check_dtype_gemm.py OUT
f32|f16acc|int [trans_A trans_B as 0/1].

f32: C must equal float64 A @ B to within 1e-6 of sum |A||B| per element
(f32 products are exact on the MFMA f32 instructions; tf32 products, which
drop 13 mantissa bits, miss by ~1e-3).
f16acc: C is rounded to float16 after every 16 k (one
v_mfma_f32_16x16x16f16 into the widened accumulator): the model adds each
16-wide block of exact products to the float16 partial sum in float64 and
rounds to float32, then float16; C must equal it exactly.
int: C must equal the int64 A @ B wrapped to int32 exactly."""
import sys

import numpy as np

out, mode = sys.argv[1], sys.argv[2]
trans_a, trans_b = (sys.argv[3] == "1", sys.argv[4] == "1") if len(sys.argv) > 4 else (False, False)
a = np.load(f"{out}/inputs/A.npy").astype(np.float64)
b = np.load(f"{out}/inputs/B.npy").astype(np.float64)
a = a.T if trans_a else a
b = b.T if trans_b else b
c = np.load(f"{out}/C.npy")
if mode == "int":
    a64 = np.load(f"{out}/inputs/A.npy").astype(np.int64)
    b64 = np.load(f"{out}/inputs/B.npy").astype(np.int64)
    ref = ((a64.T if trans_a else a64) @ (b64.T if trans_b else b64)).astype(np.int32)
    bad = int(np.count_nonzero(c != ref))
    print(f"int gemm {c.shape}: {bad} of {c.size} elements differ")
elif mode == "f32":
    ref = a @ b
    scale = np.abs(a) @ np.abs(b)
    err = np.abs(c.astype(np.float64) - ref) / np.maximum(scale, 1e-30)
    bad = int(np.count_nonzero(err > 1e-6))
    print(f"f32 gemm {c.shape}: {bad} of {c.size} elements differ (max relative {err.max():.3g})")
else:
    k = a.shape[1]
    model = np.zeros(c.shape, np.float16)
    for k0 in range(0, k, 16):
        block = a[:, k0:k0 + 16] @ b[k0:k0 + 16, :]
        model = (model.astype(np.float64) + block).astype(np.float32).astype(np.float16)
    bad = int(np.count_nonzero(c != model))
    print(f"f16-accumulator gemm {c.shape}: {bad} of {c.size} elements differ from rounding every 16 k")
sys.exit(1 if bad else 0)
