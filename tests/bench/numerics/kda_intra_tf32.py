"""KDA chunk_bwd_intra (examples/KDA/chunk_bwd_intra): one ulp of exp2 through
TF32 operands, against f32's verify tolerance.

Its float32 gemms (dAqk x kg with kg = k * exp2(gn - g)) run as mma.sync
.tf32 on the GPU, and the CPU target reads f32 x f32 gemm operands as tf32
the same way (the low 13 bits dropped; tests/lit/Target/Cpp/gemm-tf32.py).
An f32 value one ulp away (CUDA's exp2f against the host's exp2) falls on
the other side of a tf32 truncation boundary with probability about
2^-13, and then moves the operand by a whole tf32 ulp (2^-10 relative):
the sum moves by ~1e-3 of that term, beyond f32's tolerance (rtol 1e-3,
atol 1e-4) where the sum is smaller than the term. This emulation (NumPy,
standard normal inputs as tlc-run's and the script's, sums of K terms as
the kernel's sub-chunk gemms) counts the outputs two exp2s one ulp apart
put outside f32 tolerance of each other.

usage: kda_intra_tf32.py [OUTPUTS] [K]   (default 1,048,576 outputs, K = 16)
"""
import sys

import numpy as np

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
K = int(sys.argv[2]) if len(sys.argv) > 2 else 16
rng = np.random.default_rng(0)
f32 = np.float32


def tf32(x):
    return (x.astype(f32).view(np.uint32) & np.uint32(0xFFFFE000)).view(f32)


bad = total = 0
for _ in range(max(1, n // (1 << 18))):
    m = min(n, 1 << 18)
    a = rng.standard_normal((m, K)).astype(f32)
    k = rng.standard_normal((m, K)).astype(f32)
    d = (rng.standard_normal((m, K)) - rng.standard_normal((m, K))).astype(f32)
    e = np.exp2(d).astype(f32)
    outs = []
    for ex in (e, np.nextafter(e, f32(np.inf))):
        kg = (k * ex).astype(f32)
        prod = tf32(a).astype(np.float64) * tf32(kg).astype(np.float64)
        outs.append(prod.astype(f32).sum(axis=1, dtype=f32).astype(np.float64))
    o0, o1 = outs
    bad += int(np.sum(np.abs(o1 - o0) > 1e-4 + 1e-3 * np.abs(o0)))
    total += m
print(f"K = {K}: {bad} of {total} outputs outside float32 tolerance between "
      f"exp2 and exp2 one ulp up ({bad / total:.2e} per output)")
