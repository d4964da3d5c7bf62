"""Checks C of a float64 or bfloat16-accumulator GEMM run that `tlc-run
--save` wrote against NumPy. Usage: check_f64_bf16acc.py OUT f64|bf16acc
[trans_A trans_B as 0/1].

f64: C must equal A @ B to within 1e-13 of sum |A||B| per element (the
products and sums of double-precision MFMA; a float32 path misses by
~1e-7, which is what this tells apart).
bf16acc: C is rounded to bfloat16 after every 16 k (one
v_mfma_f32_16x16x16bf16_1k into the accumulator widened to float32): the
model adds each 16-wide block of exact products to the bfloat16 partial
sum in float64, rounds to float32 and then to bfloat16 (nearest even, on
the bits); C must equal it exactly."""
import sys

import numpy as np

out, mode = sys.argv[1], sys.argv[2]
trans_a, trans_b = (sys.argv[3] == "1", sys.argv[4] == "1") if len(sys.argv) > 4 else (False, False)
a = np.load(f"{out}/inputs/A.npy").astype(np.float64)
b = np.load(f"{out}/inputs/B.npy").astype(np.float64)
a = a.T if trans_a else a
b = b.T if trans_b else b
c = np.load(f"{out}/C.npy")


def to_bf16(x):
    """float32 -> bfloat16 (round to nearest even), returned as float32."""
    u = np.ascontiguousarray(x, np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return (u.astype(np.uint32) << 16).view(np.float32)


if mode == "f64":
    ref = a @ b
    scale = np.abs(a) @ np.abs(b)
    err = np.abs(c.astype(np.float64) - ref) / np.maximum(scale, 1e-300)
    bad = int(np.count_nonzero(err > 1e-13))
    print(f"f64 gemm {c.shape} {c.dtype}: {bad} of {c.size} elements differ "
          f"(max relative {err.max():.3g})")
else:
    k = a.shape[1]
    model = np.zeros(c.shape, np.float32)
    for k0 in range(0, k, 16):
        block = a[:, k0:k0 + 16] @ b[k0:k0 + 16, :]
        model = to_bf16((model.astype(np.float64) + block).astype(np.float32))
    bad = int(np.count_nonzero(c.astype(np.float32) != model))
    once = to_bf16((a @ b).astype(np.float32))
    print(f"bf16-accumulator gemm {c.shape}: {bad} of {c.size} elements differ from "
          f"rounding every 16 k ({int(np.count_nonzero(once != model))} differ between "
          f"rounding every 16 k and once)")
sys.exit(1 if bad else 0)
