"""Runs the unpacked-floats.py artifacts (e2m1, e2m3, e3m2) with tlc-run
and checks them against NumPy.

Usage: unpacked_floats_check.py TLC_RUN ARTIFACT_DIR WORKDIR [tlc-run options...]

The oracle is the OCP MX value table of each format, written out below
(code = index into the magnitudes, the sign one bit above them): T.Cast
from float32 picks the nearest magnitude, a tie going to the even code,
values past the largest (infinity included) the largest, NaN the positive
largest; the sign bit is the input's. A byte read as the dtype is the code
in its low 4 (e2m1) or 6 (e2m3, e3m2) bits."""

import glob
import json
import os
import subprocess
import sys

import numpy as np

# OCP Microscaling Formats (MX) v1.0, section 5.3: FP4 E2M1 (bias 1), FP6
# E2M3 (bias 1) and FP6 E3M2 (bias 3), no infinities or NaN.
E2M1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]
E2M3 = [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875,
        1.0, 1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875,
        2.0, 2.25, 2.5, 2.75, 3.0, 3.25, 3.5, 3.75,
        4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5]
E3M2 = [0.0, 0.0625, 0.125, 0.1875, 0.25, 0.3125, 0.375, 0.4375,
        0.5, 0.625, 0.75, 0.875, 1.0, 1.25, 1.5, 1.75,
        2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 7.0,
        8.0, 10.0, 12.0, 14.0, 16.0, 20.0, 24.0, 28.0]
FORMATS = {"e2m1": np.array(E2M1), "e2m3": np.array(E2M3),
           "e3m2": np.array(E3M2)}


def oracle_codes(x, mags):
    n = len(mags)
    x = np.asarray(x, dtype=np.float64)
    mag = np.where(np.isnan(x), mags[-1], np.minimum(np.abs(x), mags[-1]))
    dist = np.abs(mag[:, None] - mags[None, :])
    best = dist.min(axis=1, keepdims=True)
    tied = dist == best
    even = tied & (np.arange(n)[None, :] % 2 == 0)
    code = np.where(even.any(axis=1), even.argmax(axis=1), tied.argmax(axis=1))
    sign = np.signbit(x) & ~np.isnan(x)
    return (code + n * sign).astype(np.uint8)


def run(tlc_run, meta, inputs, out, extra):
    subprocess.run([tlc_run, meta, "--inputs", inputs, "--save", out] + extra,
                   check=True, stdout=subprocess.DEVNULL)


def main():
    tlc_run, art, work = sys.argv[1:4]
    extra = sys.argv[4:]
    metas = {json.load(open(p))["name"]: p
             for p in glob.glob(os.path.join(art, "*.json"))}
    rng = np.random.default_rng(7)
    n = 1024
    for name in ("e2m1", "e2m3", "e3m2"):
        mags = FORMATS[name]
        values = np.concatenate([mags, -mags])  # code -> value
        top = mags[-1]
        ties = (mags[1:] + mags[:-1]) / 2
        t32 = ties.astype(np.float32)
        x = np.concatenate([
            mags, -mags, ties, -ties,
            np.nextafter(t32, np.float32(0)), np.nextafter(t32, np.float32(np.inf)),
            -np.nextafter(t32, np.float32(np.inf)),
            [top * 1.01, top * 2, top * 3, 1e30, np.inf, -np.inf, np.nan,
             -0.0, 1e-30, -1e-30, 1.4e-45, mags[1] / 4, -mags[1] / 4,
             mags[1] / 2, -mags[1] / 2],
        ]).astype(np.float32)
        x = np.concatenate([x, rng.uniform(-1.5 * top, 1.5 * top,
                                           n - len(x)).astype(np.float32)])
        raw = np.arange(n, dtype=np.int64).astype(np.uint8)  # every byte, 4x
        inputs = os.path.join(work, name, "in")
        out = os.path.join(work, name, "out")
        os.makedirs(inputs, exist_ok=True)
        np.save(os.path.join(inputs, "X.npy"), x)
        np.save(os.path.join(inputs, "Bytes.npy"), raw)
        run(tlc_run, metas[name], inputs, out, extra)

        got = np.load(os.path.join(out, "D.npy"))
        want = values[raw & (2 * len(mags) - 1)]
        bad = int(np.count_nonzero((got != want) |
                                   (np.signbit(got) != np.signbit(want))))
        print("%s decode: %s, %d of %d differ" %
              (name, "ok" if bad == 0 else "WRONG", bad, n))

        codes = np.load(os.path.join(out, "Codes.npy"))
        back = np.load(os.path.join(out, "Y.npy"))
        want_codes = oracle_codes(x, mags)
        bad = (codes != want_codes) | (back != values[want_codes]) | \
            (np.signbit(back) != np.signbit(values[want_codes]))
        for i in np.flatnonzero(bad)[:5]:
            print("  x=%r: code %d (want %d), value %r" %
                  (float(x[i]), codes[i], want_codes[i], float(back[i])))
        print("%s round: %s, %d of %d differ" %
              (name, "ok" if not bad.any() else "WRONG",
               int(np.count_nonzero(bad)), n))


if __name__ == "__main__":
    main()
