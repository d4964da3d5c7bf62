"""Runs the reducer.py, reducer-dst.py and reducer-threads.py artifacts with
tlc-run and checks them against NumPy: float sums in float64 (relative 1e-5:
the association order is the target's), maxima, minima, integer sums and
bit reductions exactly.

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


def sums_differ(got, want):
    return int(np.count_nonzero(~np.isclose(got, want, rtol=1e-5, atol=1e-4)))


def column_stats(rng, call):
    x = rng.standard_normal((256, 256)).astype(np.float32)
    got = call({"X": x})
    bad = sums_differ(got("Sum"), x.astype(np.float64).sum(0))
    bad += int(np.count_nonzero(got("Max") != x.max(0)))
    bad += int(np.count_nonzero(got("Min") != x.min(0)))
    return bad, 3 * 256


def column_bits(rng, call):
    xi = rng.integers(-2**31, 2**31, (64, 32), dtype=np.int64).astype(np.int32)
    xi[:, 0] = -1  # an all-ones column keeps bitand's identity
    got = call({"X": xi})
    want_and = functools.reduce(np.bitwise_and, xi)
    want_or = functools.reduce(np.bitwise_or, xi) | np.int32(0x100000)
    want_xor = functools.reduce(np.bitwise_xor, xi) ^ np.int32(5)
    bad = int(np.count_nonzero(got("And") != want_and))
    bad += int(np.count_nonzero(got("Or") != want_or))
    bad += int(np.count_nonzero(got("Xor") != want_xor))
    return bad, 3 * 32


def row_stats(rng, call):
    a = rng.standard_normal((8, 128)).astype(np.float32)
    got = call({"A": a})
    bad = sums_differ(got("S"), a.astype(np.float64).sum(1))
    bad += int(np.count_nonzero(got("Mx") != a.max(1)))
    return bad, 2 * 8


def panel_stats(rng, call, shape):
    # Rank-2 reducers: minima of float32 and sums of int32 over panels.
    x = rng.standard_normal(shape).astype(np.float32)
    xi = rng.integers(-1000, 1000, shape).astype(np.int32)
    got = call({"X": x, "Xi": xi})
    bad = int(np.count_nonzero(got("Min") != x.min(0)))
    bad += int(np.count_nonzero(got("ISum") != xi.astype(np.int64).sum(0)))
    return bad, 2 * x[0].size


def odd_block(rng, call, shape):
    # A sum seeded with 2.5 (counted once), a max, a bitxor seeded with 7
    # and a max of uint32 (unsigned order: values past 2**31).
    x = rng.standard_normal(shape).astype(np.float32)
    xi = rng.integers(-2**31, 2**31, shape, dtype=np.int64).astype(np.int32)
    xu = rng.integers(0, 2**32, shape, dtype=np.uint64).astype(np.uint32)
    got = call({"X": x, "Xi": xi, "Xu": xu})
    bad = sums_differ(got("Sum"), 2.5 + x.astype(np.float64).sum(0))
    bad += int(np.count_nonzero(got("Max") != x.max(0)))
    want_xor = functools.reduce(np.bitwise_xor, xi) ^ np.int32(7)
    bad += int(np.count_nonzero(got("Xor") != want_xor))
    bad += int(np.count_nonzero(got("UMax") != xu.max(0)))
    return bad, 4 * shape[1]


def main():
    tlc_run, art, work = sys.argv[1:4]
    extra = sys.argv[4:]
    metas = []
    for path in glob.glob(os.path.join(art, "*.json")):
        meta = json.load(open(path))
        metas.append((meta["name"], meta, path))
    for name, meta, path in sorted(metas, key=lambda t: t[0]):
        rng = np.random.default_rng(9)
        shapes = {q["name"]: q["shape"] for q in meta["params"]
                  if q.get("kind") == "tensor"}

        def call(inputs):
            return run(tlc_run, path, work, name, inputs, extra)

        if name in ("column_stats", "column_stats_dst"):
            bad, total = column_stats(rng, call)
        elif name == "column_bits":
            bad, total = column_bits(rng, call)
        elif name == "row_stats":
            bad, total = row_stats(rng, call)
        elif name.startswith("panel_stats"):
            bad, total = panel_stats(rng, call, tuple(shapes["X"]))
        elif name.startswith("odd_block"):
            bad, total = odd_block(rng, call, tuple(shapes["X"]))
        else:
            print("%s: WRONG, no check" % name)
            continue
        # Instances of one kernel are told apart by their thread count.
        if name.startswith(("odd_block", "panel_stats")):
            name = "%s (%d threads)" % (name.rstrip("_0123456789"),
                                        meta["launches"][0]["block"][0])
        report(name, bad, total)


main()
