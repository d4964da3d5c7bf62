"""Runs the int4.py artifacts (arith, decode, convert, udecode) with
tlc-run and checks them against NumPy.

Usage: int4_check.py TLC_RUN ARTIFACT_DIR WORKDIR [tlc-run options...]

int4 (uint4) tensors travel as int8 (uint8) .npy files of their bytes
(last extent halved), element 2k in the low nibble. The oracle computes in int64:
narrowing to int4 keeps the value modulo 16 in [-8, 7]; floats round
toward zero and saturate to [-8, 7] (NaN to 0)."""

import glob
import json
import os
import subprocess
import sys

import numpy as np


def wrap4(x):
    return ((np.asarray(x, dtype=np.int64) + 8) % 16) - 8


def pack(values):
    codes = (np.asarray(values, dtype=np.int64) & 0xF).reshape(-1, 2)
    return (codes[:, 0] | (codes[:, 1] << 4)).astype(np.uint8).view(np.int8)


def unpack(data):
    b = np.asarray(data).view(np.uint8).reshape(-1).astype(np.int64)
    return wrap4(np.stack([b & 0xF, b >> 4], axis=1).reshape(-1))


def run(tlc_run, meta, inputs, out, extra):
    subprocess.run([tlc_run, meta, "--inputs", inputs, "--save", out] + extra,
                   check=True, stdout=subprocess.DEVNULL)


def dirs(work, name):
    inputs = os.path.join(work, name, "in")
    os.makedirs(inputs, exist_ok=True)
    return inputs, os.path.join(work, name, "out")


def report(name, bad, total):
    print("%s: %s, %d of %d differ" % (name, "ok" if bad == 0 else "WRONG",
                                       bad, total))


def main():
    tlc_run, art, work = sys.argv[1:4]
    extra = sys.argv[4:]
    metas = {json.load(open(p))["name"]: p
             for p in glob.glob(os.path.join(art, "*.json"))}
    rng = np.random.default_rng(5)

    # arith: every pair of int8 values' low nibbles appears; sums wrap.
    n = 256
    a = rng.integers(-128, 128, n).astype(np.int8)
    b = rng.integers(-128, 128, n).astype(np.int8)
    a[:16], b[:16] = np.arange(-8, 8), 7  # 7 + 7 = 14 wraps to -2, ...
    inputs, out = dirs(work, "arith")
    np.save(os.path.join(inputs, "A.npy"), a)
    np.save(os.path.join(inputs, "B.npy"), b)
    run(tlc_run, metas["arith"], inputs, out, extra)
    p = np.load(os.path.join(out, "P.npy"))
    q = np.load(os.path.join(out, "Q.npy"))
    want = wrap4(wrap4(a) + wrap4(b))
    bad = n if p.dtype != np.int8 or p.shape != (n // 2,) else int(
        np.count_nonzero(unpack(p) != want))
    bad += int(np.count_nonzero(q != want * 3))
    report("arith", bad, 2 * n)

    # decode: the 16 codes in each row, rotated.
    inputs, out = dirs(work, "decode")
    vals = np.stack([np.roll(np.arange(-8, 8), 5 * r) for r in range(4)])
    np.save(os.path.join(inputs, "X.npy"), pack(vals).reshape(4, 8))
    run(tlc_run, metas["decode"], inputs, out, extra)
    f = np.load(os.path.join(out, "F.npy"))
    s = np.load(os.path.join(out, "S.npy"))
    bad = int(np.count_nonzero(f != vals))
    bad += vals.size if s.shape != (4, 8) else int(
        np.count_nonzero(unpack(s) != wrap4(vals * vals).reshape(-1)))
    report("decode", bad, 2 * vals.size)

    # convert: rounding toward zero, saturation, NaN, infinities.
    n = 128
    special = np.array([0.0, -0.0, 0.5, -0.5, 0.999, -0.999, 1.0, -1.0, 6.9,
                        7.0, 7.5, 8.0, 100.0, -7.9, -8.0, -8.5, -9.0, -1e30,
                        1e30, np.inf, -np.inf, np.nan], dtype=np.float32)
    x = np.concatenate([special, rng.uniform(-12, 12, n - special.size)])
    x = x.astype(np.float32)
    inputs, out = dirs(work, "convert")
    np.save(os.path.join(inputs, "X.npy"), x)
    run(tlc_run, metas["convert"], inputs, out, extra)
    c = np.load(os.path.join(out, "C.npy"))
    w = np.load(os.path.join(out, "W.npy"))
    want = np.where(np.isnan(x), 0,
                    np.clip(np.trunc(np.nan_to_num(x, posinf=1e9,
                                                   neginf=-1e9)), -8, 7))
    bad = n if c.shape != (n // 2,) else int(
        np.count_nonzero(unpack(c) != want))
    bad += int(np.count_nonzero(w != want))
    report("convert", bad, 2 * n)

    # udecode: uint4, the 16 codes zero extended; 3x wraps modulo 16.
    inputs, out = dirs(work, "udecode")
    codes = np.stack([np.roll(np.arange(16), 3 * r) for r in range(4)])
    np.save(os.path.join(inputs, "X.npy"),
            pack(codes).view(np.uint8).reshape(4, 8))
    run(tlc_run, metas["udecode"], inputs, out, extra)
    f = np.load(os.path.join(out, "F.npy"))
    s = np.load(os.path.join(out, "S.npy"))
    bad = int(np.count_nonzero(f != codes))
    got = (np.stack([s & 0xF, s >> 4], axis=-1).reshape(-1)
           if s.dtype == np.uint8 and s.shape == (4, 8) else None)
    bad += codes.size if got is None else int(
        np.count_nonzero(got != (3 * codes.reshape(-1)) % 16))
    report("udecode", bad, 2 * codes.size)


main()
