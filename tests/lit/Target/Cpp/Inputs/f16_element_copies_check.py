"""Inputs and NumPy oracle of tests/lit/Target/Cpp/f16-element-copies.py.

  gen DIR: A (float16: random bit patterns, every class), X (float32: random
  values, bfloat16 halfway cases, NaN, infinities, overflow to infinity),
  B (bfloat16 values as float32, tlc-run's file type for bfloat16).
  check IN OUT: prints `NAME: K of N equal` per output (bits, NaN as NaN).
"""
import os
import sys

import numpy as np

M, N = 37, 45


def bf16_round(x):
    """float32 -> bfloat16 (round to nearest even; NaN stays NaN), as the
    float32 holding the bfloat16 value."""
    b = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    r = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16 << 16).astype(np.uint32)
    return np.where(np.isnan(x), np.float32(np.nan), r.view(np.float32))


def gen(d):
    rng = np.random.default_rng(13)
    a = rng.integers(0, 1 << 16, (M, N), dtype=np.uint32).astype(np.uint16)
    a.flat[:8] = [0x0000, 0x8000, 0x0001, 0x83FF, 0x7C00, 0xFC00, 0x7E01,
                  0x7BFF]
    np.save(os.path.join(d, "A.npy"), a.view(np.float16))
    x = rng.standard_normal((M, N)).astype(np.float32) * np.float32(1e3)
    ties = rng.integers(0, 1 << 16, 200, dtype=np.uint32) << 16 | 0x8000
    x.flat[:200] = ties.view(np.float32)  # halfway between two bfloat16
    x.flat[200:206] = [np.nan, np.inf, -np.inf, 3.4e38, -0.0, 1e-40]
    x.flat[206] = np.uint32(0x7F7FFFFF).view(np.float32)  # rounds to inf
    np.save(os.path.join(d, "X.npy"), x)
    b = rng.integers(0, 1 << 16, (M, N), dtype=np.uint32) << 16
    np.save(os.path.join(d, "B.npy"), b.view(np.float32))


def same(got, want):
    nan = np.isnan(got.astype(np.float32)) & np.isnan(want.astype(np.float32))
    eq = got.view(np.uint8).reshape(got.shape + (-1,)) == \
        want.view(np.uint8).reshape(want.shape + (-1,))
    return int((eq.all(-1) | nan).sum())


def check(din, dout):
    a = np.load(os.path.join(din, "A.npy"))
    x = np.load(os.path.join(din, "X.npy"))
    b = np.load(os.path.join(din, "B.npy"))
    with np.errstate(all="ignore"):
        want = {
            "Scaled": (a.astype(np.float32) *
                       np.float32(np.float16(0.3))).astype(np.float16),
            "Rounded": bf16_round(x),
            "Widened": b,
            "Copied": a,
        }
    for name, w in want.items():
        got = np.load(os.path.join(dout, name + ".npy")).astype(w.dtype)
        print(f"{name}: {same(got, w)} of {w.size} equal")


if __name__ == "__main__":
    gen(sys.argv[2]) if sys.argv[1] == "gen" else check(*sys.argv[2:4])
