"""Runs the preshuffled-B GEMM artifacts of intrinsics-emitter-mfma-preshuffle
and compares each kernel's C with NumPy.

Usage: preshuffle_run.py TLC_RUN ARTIFACT_DIR WORKDIR [tlc-run options...]

A is (M, K); B is 4-D, tiles of 16 columns by pk = k_pack * k_dim values of
K: [N / 16, K / pk, 16, pk] when B is stored K-inner (C = A B^T), else
[K / pk, N / 16, pk, 16] (C = A B). NumPy un-shuffles B from the tile
indices written here, independently of the emitter. Inputs are small
integers, so C must equal NumPy's int64 product exactly."""

import glob
import json
import os
import subprocess
import sys

import numpy as np

NPY = {"float16": np.float16, "int8": np.int8, "int32": np.int32, "float32": np.float32}


def main():
    tlc_run, art, work = sys.argv[1:4]
    extra = sys.argv[4:]
    rng = np.random.default_rng(11)
    for meta_path in sorted(glob.glob(os.path.join(art, "*.json"))):
        meta = json.load(open(meta_path))
        params = {p["name"]: p for p in meta["params"]}
        M, N = params["C"]["shape"]
        K = params["A"]["shape"][1]
        b4 = params["B"]["shape"]
        k_inner = b4[0] == N // 16
        name = meta["name"]
        inputs, out = os.path.join(work, name, "in"), os.path.join(work, name, "out")
        os.makedirs(inputs, exist_ok=True)
        a = rng.integers(-4, 5, size=(M, K))
        b = rng.integers(-4, 5, size=b4)
        for p, v in (("A", a), ("B", b)):
            np.save(os.path.join(inputs, p + ".npy"),
                    v.astype(NPY.get(params[p]["dtype"], np.float32)))
        subprocess.run([tlc_run, meta_path, "--inputs", inputs, "--save", out] + extra,
                       check=True, stdout=subprocess.DEVNULL)
        if k_inner:  # b[nt, kt, n, k] is B^T[16 nt + n][pk kt + k]
            bt = b.transpose(0, 2, 1, 3).reshape(N, K)
            want = a @ bt.T
        else:  # b[kt, nt, k, n] is B[pk kt + k][16 nt + n]
            bk = b.transpose(0, 2, 1, 3).reshape(K, N)
            want = a @ bk
        got = np.load(os.path.join(out, "C.npy")).astype(np.int64)
        bad = int(np.count_nonzero(got != want))
        print("%s: %s, %d of %d elements differ" % (name, "ok" if bad == 0 else "WRONG",
                                                  bad, want.size))


main()
