"""Runs the vector-element-buffers.py artifacts with tlc-run and checks
them against NumPy.

Usage: vector_element_buffers_check.py TLC_RUN ARTIFACT_DIR WORKDIR [tlc-run options...]

scan_*: A is (16, 128 * lanes) of small integers in the scalar dtype, a
quarter of the rows all zero and a quarter all one over the scanned
columns; Any[r] / All[r] are whether any / every scalar of A[r, 8 * lanes:
40 * lanes] is nonzero (issue 2714's oracle). roundtrip_*: B = 2 * A."""

import glob
import json
import os
import subprocess
import sys

import numpy as np

SCANS = {"scan_int8x2": (np.int8, 2), "scan_float16x2": (np.float16, 2),
         "scan_float32x4": (np.float32, 4)}
ROUNDTRIPS = {"roundtrip_float16x2": (np.float16, 2),
              "roundtrip_int8x4": (np.int8, 4)}


def run(tlc_run, meta, inputs, out, extra):
    subprocess.run([tlc_run, meta, "--inputs", inputs, "--save", out] + extra,
                   check=True, stdout=subprocess.DEVNULL)


def main():
    tlc_run, art, work = sys.argv[1:4]
    extra = sys.argv[4:]
    metas = {json.load(open(p))["name"]: p
             for p in glob.glob(os.path.join(art, "*.json"))}
    rng = np.random.default_rng(2714)
    for name, (dtype, lanes) in SCANS.items():
        rows, cols, begin, end = 16, 128, 8, 40
        a = rng.integers(-4, 5, (rows, cols * lanes)).astype(dtype)
        rows_perm = rng.permutation(rows)
        a[rows_perm[:4], begin * lanes:end * lanes] = 0
        a[rows_perm[4:8], begin * lanes:end * lanes] = 1
        # One nonzero lane at the slice's far end, and one zero lane in an
        # otherwise all-one row: a scan that misses lanes gets them wrong.
        a[rows_perm[0], end * lanes - 1] = 3
        a[rows_perm[4], begin * lanes + 1] = 0
        inputs = os.path.join(work, name, "in")
        out = os.path.join(work, name, "out")
        os.makedirs(inputs, exist_ok=True)
        np.save(os.path.join(inputs, "A.npy"), a)
        run(tlc_run, metas[name], inputs, out, extra)
        nz = a[:, begin * lanes:end * lanes] != 0
        want_any = nz.any(axis=1).astype(np.int8)
        want_all = nz.all(axis=1).astype(np.int8)
        got_any = np.load(os.path.join(out, "Any.npy"))
        got_all = np.load(os.path.join(out, "All.npy"))
        bad = int(np.count_nonzero(got_any != want_any) +
                  np.count_nonzero(got_all != want_all))
        print("%s: %s, %d of %d differ (%d rows any, %d all)" %
              (name, "ok" if bad == 0 else "WRONG", bad, 2 * rows,
               int(want_any.sum()), int(want_all.sum())))
    for name, (dtype, lanes) in ROUNDTRIPS.items():
        rows, cols = 8, 32
        a = rng.integers(-50, 50, (rows, cols * lanes)).astype(dtype)
        inputs = os.path.join(work, name, "in")
        out = os.path.join(work, name, "out")
        os.makedirs(inputs, exist_ok=True)
        np.save(os.path.join(inputs, "A.npy"), a)
        run(tlc_run, metas[name], inputs, out, extra)
        got = np.load(os.path.join(out, "B.npy"))
        want = (a.astype(np.float64) * 2).astype(dtype)
        bad = int(np.count_nonzero(got != want))
        print("%s: %s, %d of %d differ" %
              (name, "ok" if bad == 0 else "WRONG", bad, want.size))


if __name__ == "__main__":
    main()
