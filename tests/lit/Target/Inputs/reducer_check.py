"""Runs the reducer.py (or reducer-dst.py) artifacts with tlc-run and checks them against
NumPy: float sums in float64 (relative 1e-5: the association order is the
target's), maxima, minima and integer bit reductions exactly.

Usage: reducer_check.py TLC_RUN ARTIFACT_DIR WORKDIR [tlc-run options...]"""

import functools
import glob
import json
import os
import subprocess
import sys

import numpy as np


def run(tlc_run, meta, work, name, inputs, extra):
    ind, out = os.path.join(work, name, "in"), os.path.join(work, name, "out")
    os.makedirs(ind, exist_ok=True)
    for k, v in inputs.items():
        np.save(os.path.join(ind, k + ".npy"), v)
    subprocess.run([tlc_run, meta, "--inputs", ind, "--save", out] + extra,
                   check=True, stdout=subprocess.DEVNULL)
    return lambda k: np.load(os.path.join(out, k + ".npy"))


def report(name, bad, total):
    print("%s: %s, %d of %d differ" % (name, "ok" if bad == 0 else "WRONG",
                                       bad, total))


def main():
    tlc_run, art, work = sys.argv[1:4]
    extra = sys.argv[4:]
    metas = {json.load(open(p))["name"]: p
             for p in glob.glob(os.path.join(art, "*.json"))}
    rng = np.random.default_rng(9)

    x = rng.standard_normal((256, 256)).astype(np.float32)
    x64 = x.astype(np.float64)
    for name in ("column_stats", "column_stats_dst"):
        if name not in metas:
            continue
        got = run(tlc_run, metas[name], work, name, {"X": x}, extra)
        bad = int(np.count_nonzero(~np.isclose(got("Sum"), x64.sum(0),
                                               rtol=1e-5, atol=1e-4)))
        bad += int(np.count_nonzero(got("Max") != x.max(0)))
        bad += int(np.count_nonzero(got("Min") != x.min(0)))
        report(name, bad, 3 * 256)
    if "column_bits" not in metas:
        return

    xi = rng.integers(-2**31, 2**31, (64, 32), dtype=np.int64).astype(np.int32)
    xi[:, 0] = -1  # an all-ones column keeps bitand's identity
    got = run(tlc_run, metas["column_bits"], work, "column_bits",
              {"X": xi}, extra)
    want_and = functools.reduce(np.bitwise_and, xi)
    want_or = functools.reduce(np.bitwise_or, xi) | np.int32(0x100000)
    want_xor = functools.reduce(np.bitwise_xor, xi) ^ np.int32(5)
    bad = int(np.count_nonzero(got("And") != want_and))
    bad += int(np.count_nonzero(got("Or") != want_or))
    bad += int(np.count_nonzero(got("Xor") != want_xor))
    report("column_bits", bad, 3 * 32)

    a = rng.standard_normal((8, 128)).astype(np.float32)
    got = run(tlc_run, metas["row_stats"], work, "row_stats", {"A": a}, extra)
    bad = int(np.count_nonzero(~np.isclose(got("S"),
                                           a.astype(np.float64).sum(1),
                                           rtol=1e-5, atol=1e-4)))
    bad += int(np.count_nonzero(got("Mx") != a.max(1)))
    report("row_stats", bad, 2 * 8)


main()
