"""GPU output of the tf32 GEMM (tlc-run --save DIR) against float64 NumPy
models of A and B read as tf32: truncated (RZ, what tlc's CPU target models)
and rounded to nearest (RN), and against the full-f32 operands. Per element,
the bound of any f32 summation order of K exact products is
K * 2^-24 * sum_k |a_k b_k|; prints the worst |gpu - model| / bound and how
many elements exceed it, per model."""
import sys
import numpy as np
d = sys.argv[1]
a = np.load(d + "/inputs/A.npy"); b = np.load(d + "/inputs/B.npy").T  # B is [N, K]
c = np.load(d + "/C.npy").astype(np.float64)
u = a.view(np.uint32); v = b.view(np.uint32)
rz = lambda x: (x & np.uint32(0xFFFFE000)).view(np.float32).astype(np.float64)
rn = lambda x: ((x + np.uint32(0x1000)) & np.uint32(0xFFFFE000)).view(np.float32).astype(np.float64)
K = a.shape[1]
for name, A, B in (("tf32 RZ", rz(u), rz(v)), ("tf32 RN", rn(u), rn(v)),
                   ("f32", a.astype(np.float64), b.astype(np.float64))):
    want = A @ B
    bound = K * 2.0**-24 * (np.abs(A) @ np.abs(B))
    r = np.abs(c - want) / bound
    print(f"{name}: max |gpu-model|/bound {r.max():.3g}, elements over bound {int((r > 1).sum())} of {r.size}, max abs err {np.abs(c - want).max():.3g}")
