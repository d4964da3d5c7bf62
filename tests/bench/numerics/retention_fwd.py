"""Retention forward (examples/linear_attention/example_retention_fwd): does
the order of the f32 sums alone, through the kernel's f16 intermediates,
move the f16 output as far as the H200 and the CPU target differ?

The kernel (per head h, chunks of 64 rows, log_decay = log2(1 - 2^(-5-h))):
s = (Q * scale) K^T (f32) masked and decayed, rounded to f16; o = decay *
((Q * scale) f16(H)) + f16(s) V, rounded to f16; then H = decay^64 H +
K^T f16(V * decay) (f32). The state H is rounded to f16 every chunk before
its product with Q; for heads whose decay is close to 1 it grows to
hundreds, where an f16 ulp is 0.06-0.25. Three NumPy emulations with
exactly these roundings: float32 BLAS sums; the f32 products summed in
float64 and rounded once (another order); every exp2 one ulp up (CUDA's
exp2f against the host's exp2). The oracle is float64 with no f16
intermediates. Prints, per head, how many outputs the other two put
outside f16's tolerance of the first, and each one's largest error against
the oracle. Inputs: standard normal (tlc-run's), one batch, S = 4096,
DK = DV = 64 (one K/V block of the D = 128 program).

usage: retention_fwd.py [HEADS]  (default: heads 0, 10, 19, 31)
"""
import sys

import numpy as np

S, D, C = 4096, 64, 64
heads = [int(h) for h in sys.argv[1:]] or [0, 10, 19, 31]
rng = np.random.default_rng(0)
f16, f32, f64 = np.float16, np.float32, np.float64


def ex2(x, up):
    """exp2 in float32, one ulp up when ``up`` (CUDA's exp2f is within 2
    ulp; the host's is another function)."""
    e = np.exp2(np.asarray(x, f32)).astype(f32)
    return np.nextafter(e, f32(np.inf)) if up else e


def mm(a, b, exact):
    if exact:
        return (a.astype(f64) @ b.astype(f64)).astype(f32)
    return a.astype(f32) @ b.astype(f32)


for hd in heads:
    q = rng.standard_normal((S, D)).astype(f16)
    k = rng.standard_normal((S, D)).astype(f16)
    v = rng.standard_normal((S, D)).astype(f16)
    ld = np.log2(f32(1) - np.exp2(f32(-5.0 - hd))).astype(f32)
    qs = (q.astype(f32) * f32(D ** -0.5)).astype(f16)
    r = np.arange(C)
    outs = []
    for exact, up in ((False, False), (True, False), (False, True)):
        dmask = np.where(r[:, None] >= r[None, :],
                         ex2((r[:, None] - r[None, :]) * ld, up), 0).astype(f32)
        h = np.zeros((D, D), f32)
        o_all = np.zeros((S, D), f16)
        for c in range(S // C):
            sl = slice(c * C, (c + 1) * C)
            s = (mm(qs[sl], k[sl].T, exact) * dmask).astype(f16)
            o = ex2((r + 1) * ld, up)[:, None] * \
                mm(qs[sl], h.astype(f16), exact)
            o = o + mm(s, v[sl], exact)
            o_all[sl] = o.astype(f16)
            vd = (v[sl].astype(f32) *
                  ex2((C - r - 1) * ld, up)[:, None]).astype(f16)
            h = ex2(f32(C) * ld, up) * h + mm(k[sl].T, vd, exact)
        outs.append(o_all.astype(f64))
    # float64 oracle: o_t = sum_{u <= t} decay^(t-u) (q_t . k_u) v_u
    dec = 2.0 ** f64(ld)
    h64 = np.zeros((D, D))
    ref = np.zeros((S, D))
    q64, k64, v64 = qs.astype(f64), k.astype(f64), v.astype(f64)
    for t in range(S):
        h64 = dec * h64 + np.outer(k64[t], v64[t])
        ref[t] = q64[t] @ h64
    a, b, e = outs

    def bad(x, y):
        return int(np.sum(np.abs(x - y) > 1e-2 + 1e-2 * np.abs(y)))
    print(f"head {hd}: |ref| max {np.abs(ref).max():.3g}; outside f16 "
          f"tolerance of the first emulation: {bad(b, a)} of {a.size} for "
          f"the other f32 order, {bad(e, a)} for exp2 one ulp up (max |diff| "
          f"{np.abs(b - a).max():.3g}, {np.abs(e - a).max():.3g}); max error "
          f"vs float64: {np.abs(a - ref).max():.3g}, "
          f"{np.abs(b - ref).max():.3g}, {np.abs(e - ref).max():.3g}")
