"""Runs the act_quant artifact of fp4-act-quant.py on bf16 inputs and
checks scale and the packed fp4 output against NumPy.

Usage: fp4_act_quant_ref.py TLC_RUN MANIFEST WORKDIR

x is random, rounded to bfloat16 (its float32 file holds bf16 values).
scale = 2^ceil(log2(max(amax, 6 * 2^-126) / 6)) per 32-wide group; the
codes are x / scale clamped to [-6, 6] and rounded to the nearest e2m1
value, a tie to the even code (the OCP MX table, as fp4_e2m1_check.py)."""

import json
import os
import subprocess
import sys

import numpy as np

MAGNITUDES = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0])


def codes_of(v):
    mag = np.minimum(np.abs(v), 6.0)
    dist = np.abs(mag[..., None] - MAGNITUDES)
    tied = dist == dist.min(axis=-1, keepdims=True)
    even = tied & (np.arange(8) % 2 == 0)
    code = np.where(even.any(axis=-1), even.argmax(axis=-1),
                    tied.argmax(axis=-1))
    return (code + 8 * np.signbit(v)).astype(np.uint8)


def main():
    tlc_run, manifest, work = sys.argv[1:4]
    meta = json.load(open(manifest))
    M, N = next(p for p in meta["params"] if p["name"] == "x")["shape"]
    group = 32
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((M, N)) * rng.uniform(0.01, 30, (M, 1)))
    x = x.astype(np.float32)
    x = (x.view(np.uint32) & 0xFFFF0000).view(np.float32)  # exact bf16
    inputs = os.path.join(work, "in")
    out = os.path.join(work, "out")
    os.makedirs(inputs, exist_ok=True)
    np.save(os.path.join(inputs, "x.npy"), x)
    subprocess.run([tlc_run, manifest, "--inputs", inputs, "--save", out],
                   check=True, stdout=subprocess.DEVNULL)
    g = x.astype(np.float64).reshape(M, N // group, group)
    amax = np.maximum(np.abs(g).max(axis=-1), 6 * 2.0**-126)
    # amax * (1/6) in float32, as the kernel multiplies.
    q = (amax.astype(np.float32) * np.float32(1.0 / 6.0)).astype(np.float64)
    scale = 2.0 ** np.ceil(np.log2(q))
    want_codes = codes_of(
        np.clip((g.astype(np.float32) /
                 scale[..., None].astype(np.float32)).astype(np.float64),
                -6, 6)).reshape(M, N)
    got_scale = np.load(os.path.join(out, "scale.npy"))
    got = np.load(os.path.join(out, "quant.npy"))
    codes = np.stack([got & 0xF, got >> 4], axis=-1).reshape(M, N)
    bad_s = int(np.count_nonzero(got_scale != scale))
    bad_q = int(np.count_nonzero(codes != want_codes))
    print("act_quant: %s, %d scales and %d of %d codes differ" %
          ("ok" if bad_s == bad_q == 0 else "WRONG", bad_s, bad_q, M * N))


main()
