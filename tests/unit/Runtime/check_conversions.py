#!/usr/bin/python3
"""Compares the CPU target's small-float rounding with independent oracles.

float16: NumPy's own float32 -> float16 cast (round to nearest even).
bfloat16, float8_e4m3fn, float8_e5m2: tests/scripts/ref_common.py (NumPy
code written for the references, satfinite for fp8).

Usage: check_conversions.py TLC_CONVERT_DUMP
"""

import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from ref_common import round_bfloat16, round_float8_e4m3fn, round_float8_e5m2  # noqa: E402


def values():
    rng = np.random.default_rng(1234)
    parts = [
        rng.standard_normal(20000),
        rng.standard_normal(20000) * 1000,
        rng.standard_normal(5000) * 1e-4,
        rng.standard_normal(5000) * 1e-7,
        rng.uniform(-70000, 70000, 5000),
        np.ldexp(1.0, np.arange(-30, 20)),
    ]
    x = np.concatenate(parts).astype(np.float32)
    # Exact ties and their neighbours for every format.
    half_ties = np.float32(np.arange(1, 2048) * 2.0**-11 + 1.0)
    e4m3_ties = np.float32((np.arange(16, 32) + 0.5) * 2.0**-4)
    sub = np.float32(np.arange(0, 64) * 2.0**-26)
    x = np.concatenate([x, half_ties, e4m3_ties, sub, -x[:1000]])
    bits = x.view(np.uint32)
    x = np.concatenate([x, (bits + 1).view(np.float32), (bits - 1).view(np.float32)])
    return x[np.isfinite(x)]


def main():
    tool = sys.argv[1]
    x = values()
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "in.bin"), os.path.join(d, "out.bin")
        x.astype("<f4").tofile(src)
        subprocess.run([tool, src, dst], check=True)
        got = np.fromfile(dst, dtype="<f4").reshape(-1, 4)
    with np.errstate(over="ignore"):
        expected = {
            "float16": x.astype(np.float16).astype(np.float32),
            "bfloat16": round_bfloat16(x),
            "float8_e4m3fn": round_float8_e4m3fn(x),
            "float8_e5m2": round_float8_e5m2(x),
        }
    failed = False
    # Decoding: every binary16 bit pattern against NumPy's float16.
    with tempfile.TemporaryDirectory() as d:
        dst = os.path.join(d, "f16.bin")
        subprocess.run([tool, "--decode-f16", dst], check=True)
        have = np.fromfile(dst, dtype="<f4")
    want = np.arange(65536, dtype=np.uint16).view(np.float16).astype(np.float32)
    bad = ~((have.view(np.uint32) == want.view(np.uint32)) | (np.isnan(have) & np.isnan(want)))
    if bad.any():
        i = int(np.argmax(bad))
        print(f"FAIL float16 decode: {int(bad.sum())} of 65536 bit patterns differ; "
              f"first: 0x{i:04x} -> {have[i]!r}, expected {want[i]!r}")
        failed = True
    else:
        print("ok   float16 decode: all 65536 bit patterns agree")
    for col, (name, want) in enumerate(expected.items()):
        have = got[:, col]
        bad = ~((have == want) | (np.isnan(have) & np.isnan(want)))
        # Signed zeros must agree too.
        bad |= (have == 0) & (want == 0) & (np.signbit(have) != np.signbit(want))
        if bad.any():
            i = int(np.argmax(bad))
            print(f"FAIL {name}: {int(bad.sum())} of {len(x)} values differ; "
                  f"first: {x[i]!r} -> {have[i]!r}, expected {want[i]!r}")
            failed = True
        else:
            print(f"ok   {name}: {len(x)} values agree")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
