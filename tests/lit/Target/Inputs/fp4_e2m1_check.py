"""Runs the fp4-e2m1.py artifacts (quant and decode) with tlc-run and
checks them against NumPy.

Usage: fp4_e2m1_check.py TLC_RUN ARTIFACT_DIR WORKDIR [tlc-run options...]

The oracle is the OCP MX table of e2m1's magnitudes {0, 0.5, 1, 1.5, 2, 3,
4, 6} (code = index, sign bit 3): the nearest magnitude, a tie going to the
even code (the one whose mantissa bit is 0), values past 6 (infinity
included) to 6, NaN to +6. fp4 tensors travel as uint8 .npy files of the
bytes, element 2k in the low nibble."""

import glob
import json
import os
import subprocess
import sys

import numpy as np

MAGNITUDES = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0])
VALUES = np.concatenate([MAGNITUDES, -MAGNITUDES])  # code -> value


def oracle_codes(x):
    x = np.asarray(x, dtype=np.float64)
    mag = np.where(np.isnan(x), 6.0, np.minimum(np.abs(x), 6.0))
    dist = np.abs(mag[:, None] - MAGNITUDES[None, :])
    best = dist.min(axis=1, keepdims=True)
    # Among the nearest (one, or two at a tie), the even code.
    tied = dist == best
    even = tied & (np.arange(8)[None, :] % 2 == 0)
    code = np.where(even.any(axis=1), even.argmax(axis=1), tied.argmax(axis=1))
    sign = np.signbit(x) & ~np.isnan(x)
    return (code + 8 * sign).astype(np.uint8)


def pack(codes):
    codes = codes.reshape(-1, 2)
    return (codes[:, 0] | (codes[:, 1] << 4)).astype(np.uint8)


def unpack(data):
    data = data.reshape(-1)
    return np.stack([data & 0xF, data >> 4], axis=1).reshape(-1)


def run(tlc_run, meta, inputs, out, extra):
    subprocess.run([tlc_run, meta, "--inputs", inputs, "--save", out] + extra,
                   check=True, stdout=subprocess.DEVNULL)


def main():
    tlc_run, art, work = sys.argv[1:4]
    extra = sys.argv[4:]
    metas = {json.load(open(p))["name"]: p
             for p in glob.glob(os.path.join(art, "*.json"))}

    # decode: every code, in each of the 4 rows in a different order.
    inputs, out = os.path.join(work, "decode", "in"), os.path.join(
        work, "decode", "out")
    os.makedirs(inputs, exist_ok=True)
    codes = np.stack([np.roll(np.arange(16, dtype=np.uint8), 3 * r)
                      for r in range(4)])
    np.save(os.path.join(inputs, "Q.npy"), pack(codes).reshape(4, 8))
    run(tlc_run, metas["decode"], inputs, out, extra)
    got = np.load(os.path.join(out, "F.npy"))
    want = VALUES[codes]
    bad = int(np.count_nonzero((got != want) |
                               (np.signbit(got) != np.signbit(want))))
    print("decode: %s, %d of %d differ" % ("ok" if bad == 0 else "WRONG",
                                          bad, want.size))

    # quant: the 16 values, every tie, the boundaries around them, specials
    # and random values over the range and past it.
    n = 1024
    special = [0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 6.0, 7.0, 1e30,
               np.inf, np.nan, 0.0, 1e-30, 1.4e-45, 5.999, 6.001, 4.9999]
    ties = (MAGNITUDES[1:] + MAGNITUDES[:-1]) / 2
    near = np.concatenate([np.nextafter(ties.astype(np.float32), np.float32(0)),
                           np.nextafter(ties.astype(np.float32),
                                        np.float32(10))])
    base = np.concatenate([VALUES, special, ties, near]).astype(np.float32)
    base = np.concatenate([base, -base])
    rng = np.random.default_rng(11)
    x = np.concatenate([base, rng.uniform(-8, 8, n - base.size)])
    x = x.astype(np.float32)
    inputs, out = os.path.join(work, "quant", "in"), os.path.join(
        work, "quant", "out")
    os.makedirs(inputs, exist_ok=True)
    np.save(os.path.join(inputs, "X.npy"), x)
    run(tlc_run, metas["quant"], inputs, out, extra)
    q = np.load(os.path.join(out, "Q.npy"))
    y = np.load(os.path.join(out, "Y.npy"))
    want = oracle_codes(x)
    bad_q = int(np.count_nonzero(unpack(q) != want)) if q.dtype == np.uint8 \
        and q.shape == (n // 2,) else n
    bad_y = int(np.count_nonzero((y != VALUES[want]) |
                                 (np.signbit(y) != np.signbit(VALUES[want]))))
    print("quant: %s, %d of %d codes and %d values differ" %
          ("ok" if bad_q == bad_y == 0 else "WRONG", bad_q, n, bad_y))


main()
