"""Runs the warp-GEMM artifacts of the intrinsics-emitter lit tests and
compares each kernel's C with NumPy.

Usage: gemm_run.py TLC_RUN ARTIFACT_DIR WORKDIR [tlc-run options...]

A and B are filled with small integers (exact in float16, bfloat16, float8
and int8), so every product and partial sum is exact in float32 and int32:
C must equal NumPy's int64 product exactly. A is read as (K, M) when its
first extent is not C's M, B as (N, K) when its first extent is C's N (the
tests keep M, N and K distinct). Prints one line per kernel."""

import glob
import json
import os
import subprocess
import sys

import numpy as np

NPY = {"float16": np.float16, "int8": np.int8, "uint8": np.uint8,
       "int32": np.int32, "float32": np.float32}


def main():
    tlc_run, art, work = sys.argv[1:4]
    extra = sys.argv[4:]
    rng = np.random.default_rng(7)
    for meta_path in sorted(glob.glob(os.path.join(art, "*.json"))):
        meta = json.load(open(meta_path))
        params = {p["name"]: p for p in meta["params"]}
        M, N = params["C"]["shape"]
        a_shape, b_shape = params["A"]["shape"], params["B"]["shape"]
        name = meta["name"]
        inputs = os.path.join(work, name, "in")
        out = os.path.join(work, name, "out")
        os.makedirs(inputs, exist_ok=True)
        ints = {}
        for p in ("A", "B"):
            dt = params[p]["dtype"]
            lo = 0 if dt == "uint8" else -4
            v = rng.integers(lo, 5, size=params[p]["shape"])
            ints[p] = v
            # float8 and bfloat16 inputs are read from float32 files.
            np.save(os.path.join(inputs, p + ".npy"),
                    v.astype(NPY.get(dt, np.float32)))
        subprocess.run([tlc_run, meta_path, "--inputs", inputs, "--save", out]
                       + extra, check=True, stdout=subprocess.DEVNULL)
        a = ints["A"] if a_shape[0] == M else ints["A"].T
        b = ints["B"].T if b_shape[0] == N else ints["B"]
        want = a.astype(np.int64) @ b.astype(np.int64)
        got = np.load(os.path.join(out, "C.npy"))
        bad = int(np.count_nonzero(got.astype(np.int64) != want))
        print("%s: %s, %d of %d elements differ" %
              (name, "ok" if bad == 0 else "WRONG", bad, want.size))


main()
