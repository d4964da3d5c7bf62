"""Runs the intrinsics-emitter-lanes.py kernels on the CPU and checks each
lane's elements against the mma.sync fragment tables of the PTX ISA
(section "Matrix Fragments for mma.m16n8k16" / "mma.m16n8k32"), written
here as the ISA states them, register by register.

Usage: intrinsics_emitter_lanes.py TLC_RUN ARTIFACT_DIR WORKDIR [tlc-run options...]"""

import glob
import json
import os
import subprocess
import sys

import numpy as np


def a_table(bits, lane):
    """(row, col) of A registers a0.. of one lane, m16 x k(256 / bits)."""
    group, tig = lane >> 2, lane % 4
    out = []
    if bits == 16:  # a0..a7: rows g (a0,a1,a4,a5) / g+8, cols 2 tig + i%2 (+8 from a4)
        for i in range(8):
            row = group + (8 if i in (2, 3, 6, 7) else 0)
            col = tig * 2 + (i & 1) + (8 if i >= 4 else 0)
            out.append((row, col))
    else:  # a0..a15: rows g (a0..a3, a8..a11) / g+8, cols 4 tig + i%4 (+16 from a8)
        for i in range(16):
            row = group + (8 if i in range(4, 8) or i in range(12, 16) else 0)
            col = tig * 4 + (i & 3) + (16 if i >= 8 else 0)
            out.append((row, col))
    return out


def b_table(bits, lane):
    """(k, n) of B registers b0.. of one lane for one n8 block."""
    group, tig = lane >> 2, lane % 4
    if bits == 16:  # b0..b3: k = 2 tig + i%2 (+8 for b2, b3), n = g
        return [(tig * 2 + (i & 1) + (8 if i >= 2 else 0), group) for i in range(4)]
    # b0..b7: k = 4 tig + i%4 (+16 for b4..b7), n = g
    return [(tig * 4 + (i & 3) + (16 if i >= 4 else 0), group) for i in range(8)]


def c_table(lane):
    """(row, col) of accumulators c0..c3 of one lane for one n8 block."""
    group, tig = lane >> 2, lane % 4
    return [(group + (8 if i >= 2 else 0), tig * 2 + (i & 1)) for i in range(4)]


def main():
    tlc_run, art, work = sys.argv[1:4]
    extra = sys.argv[4:]
    rng = np.random.default_rng(3)
    for meta_path in sorted(glob.glob(os.path.join(art, "*.json"))):
        meta = json.load(open(meta_path))
        params = {p["name"]: p for p in meta["params"]}
        K = params["A"]["shape"][1]
        bits = 16 if K == 16 else 8
        dt = np.float16 if bits == 16 else np.int8
        name = meta["name"]
        inputs = os.path.join(work, name, "in")
        out = os.path.join(work, name, "out")
        os.makedirs(inputs, exist_ok=True)
        # Distinct values: every element is identified by its value.
        a = rng.permutation(16 * K).reshape(16, K) % (2048 if bits == 16 else 120)
        b = rng.permutation(16 * K).reshape(16, K) % (2048 if bits == 16 else 120)
        np.save(os.path.join(inputs, "A.npy"), a.astype(dt))
        np.save(os.path.join(inputs, "B.npy"), b.astype(dt))
        subprocess.run([tlc_run, meta_path, "--inputs", inputs, "--save", out] + extra,
                       check=True, stdout=subprocess.DEVNULL)
        a_lanes = np.load(os.path.join(out, "ALanes.npy")).astype(np.int64)
        b_lanes = np.load(os.path.join(out, "BLanes.npy")).astype(np.int64)
        c = np.load(os.path.join(out, "C.npy")).astype(np.int64)
        bad_a = bad_b = bad_c = 0
        half_b = b_lanes.shape[1] // 2
        for lane in range(32):
            for i, (row, col) in enumerate(a_table(bits, lane)):
                bad_a += a_lanes[lane, i] != a[row, col]
            for blk in range(2):  # B holds columns n 0..7, then 8..15
                for i, (k, n) in enumerate(b_table(bits, lane)):
                    bad_b += b_lanes[lane, blk * half_b + i] != b[blk * 8 + n, k]
                for i, (row, col) in enumerate(c_table(lane)):
                    bad_c += c[row, blk * 8 + col] != lane * 16 + blk * 4 + i
        verdict = lambda bad: "ok" if bad == 0 else "WRONG (%d)" % bad
        print("%s: A %s, B %s, C %s" % (name, verdict(bad_a), verdict(bad_b),
                                        verdict(bad_c)))


main()
