"""Runs the q-multiply-shift.py artifact with tlc-run and checks it against
Python integers.

Usage: q_multiply_shift_check.py TLC_RUN ARTIFACT_DIR WORKDIR [tlc-run options...]

The oracle is TVM's definition of q_multiply_shift_per_axis: x shifted
left by ls when the flag is nonzero, times y, plus 2^(rs + q - 1),
floor-divided by 2^(rs + q), taken modulo 2^32 as an int32."""

import glob
import json
import os
import subprocess
import sys

import numpy as np


def oracle(x, y, ls, rs, q, lshift):
    v = (int(x) << int(ls)) if lshift else int(x)
    v = v * int(y)
    t = int(rs) + int(q)
    v = (v + (1 << (t - 1))) >> t
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def main():
    tlc_run, art, work = sys.argv[1:4]
    extra = sys.argv[4:]
    meta = [p for p in glob.glob(os.path.join(art, "*.json"))
            if json.load(open(p))["name"] == "qms"][0]
    rng = np.random.default_rng(5)
    n = 512
    x = rng.integers(-(1 << 20), 1 << 20, n).astype(np.int32)
    x[:8] = [0, 1, -1, 127, -128, (1 << 20) - 1, -(1 << 20), 3]
    m = rng.integers(1 << 29, (1 << 31) - 1, n).astype(np.int32)
    m[:4] = [1 << 30, (1 << 31) - 1, 1 << 29, 1]
    ls = rng.integers(0, 4, n).astype(np.int32)
    rs = rng.integers(0, 8, n).astype(np.int32)
    f = rng.integers(-1, 2, n).astype(np.int32)  # -1 and 1 are true
    inputs, out = os.path.join(work, "in"), os.path.join(work, "out")
    os.makedirs(inputs, exist_ok=True)
    for name, a in (("X", x), ("M", m), ("LS", ls), ("RS", rs), ("F", f)):
        np.save(os.path.join(inputs, name + ".npy"), a)
    subprocess.run([tlc_run, meta, "--inputs", inputs, "--save", out] + extra,
                   check=True, stdout=subprocess.DEVNULL)
    y = np.load(os.path.join(out, "Y.npy"))
    z = np.load(os.path.join(out, "Z.npy"))
    want_y = np.array([oracle(x[i], m[i], ls[i], rs[i], 31, f[i] != 0)
                       for i in range(n)], dtype=np.int64)
    want_z = np.array([oracle(x[i], m[i], 2, 7, 15, False) for i in range(n)],
                      dtype=np.int64)
    bad = int(np.count_nonzero(y != want_y) + np.count_nonzero(z != want_z))
    print("qms: %s, %d of %d differ" % ("ok" if bad == 0 else "WRONG", bad,
                                       2 * n))


if __name__ == "__main__":
    main()
