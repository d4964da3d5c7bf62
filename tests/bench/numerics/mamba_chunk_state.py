"""Mamba chunk_state (examples/linear_attention/example_mamba_chunk_state):
how far one ulp of exp2 moves the f16 output, against a float64 oracle.

Per chunk, Output[p, n] = sum_l x[l, p] * scale[l] * B[l, n] with
scale[l] = exp2((dA_cs_last - dA_cs[l]) * log2(e)) * dt[l]; the kernel rounds
x[l, p] * scale[l] to f16 (xt_local) before the f32 gemm, and the result to
f16. Two emulations of exactly that (NumPy, float32/float16), one with
exp2 as the host computes it and one with every exp2 one ulp up (CUDA's
exp2f is within 2 ulp, not correctly rounded), on tlc-run's inputs
(standard normal; dA_cumsum is then not a cumulative sum of negative
values, so the scale reaches e^6) and on inputs of the script's kind
(dA_cumsum a cumulative sum of values <= 0, dt in (0, 0.1)): how many
outputs the two put outside f16's tolerance of each other, and each one's
error against the float64 oracle.

usage: mamba_chunk_state.py [CHUNKS]   (chunks of 256 x 64 x 128, default 40)
"""
import sys

import numpy as np

L, P, N = 256, 64, 128
chunks = int(sys.argv[1]) if len(sys.argv) > 1 else 40
LOG2E = np.float32(1.44269504)
rng = np.random.default_rng(0)


def f16(a):
    return a.astype(np.float16)


def run(kind):
    bad = cnt = 0
    max_ab = max_a = max_b = 0.0
    err_a = err_b = 0.0
    for _ in range(chunks):
        x = f16(rng.standard_normal((L, P)))
        Bm = f16(rng.standard_normal((L, N)))
        if kind == "tlc-run":
            dt = f16(rng.standard_normal(L))
            cs = f16(rng.standard_normal(L))
        else:
            dt = f16(rng.uniform(0, 0.1, L))
            cs = f16(np.cumsum(-rng.uniform(0, 0.05, L)))
        last = np.float32(cs[-1])
        arg = last * LOG2E - cs.astype(np.float32) * LOG2E
        e = np.exp2(arg.astype(np.float32))
        e_up = np.nextafter(e, np.float32(np.inf))
        outs = []
        for ex in (e, e_up):
            scale = ex * dt.astype(np.float32)
            xt = f16(x.astype(np.float32) * scale[:, None])
            outs.append(f16(xt.astype(np.float32).T @ Bm.astype(np.float32)))
        exact = (x.astype(np.float64) *
                 (np.exp(np.float64(cs[-1]) - cs.astype(np.float64)) *
                  dt.astype(np.float64))[:, None]).T @ Bm.astype(np.float64)
        a, b = (o.astype(np.float64) for o in outs)
        bad += int(np.sum(np.abs(a - b) > 1e-2 + 1e-2 * np.abs(b)))
        cnt += a.size
        max_ab = max(max_ab, float(np.max(np.abs(a - b))))
        max_a = max(max_a, float(np.max(np.abs(exact))))
        err_a = max(err_a, float(np.max(np.abs(a - exact))))
        err_b = max(err_b, float(np.max(np.abs(b - exact))))
    print(f"{kind} inputs: {bad} of {cnt} outputs outside f16 tolerance "
          f"between exp2 and exp2 + 1 ulp (max |diff| {max_ab:.3g}, "
          f"max |output| {max_a:.3g}); max error vs float64: "
          f"{err_a:.3g} and {err_b:.3g}")


run("tlc-run")
if chunks < 500:
    run("script-like")
