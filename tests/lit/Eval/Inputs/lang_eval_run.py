"""Runs a kernel built for the CPU target on tlc-run's random inputs and
checks its outputs against a reference computed here in plain Python.

Usage: lang_eval_run.py CHECK TLC_RUN ARTIFACTS WORKDIR. CHECK names the
relation (see CHECKS). Reads the .npy files tlc-run saves without NumPy
(little-endian float32, flattened)."""

import os
import struct
import subprocess
import sys


def read_f32(path):
    """The elements of a float32 (or uint8, float16) .npy file, flattened."""
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", path
    hlen = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + hlen].decode("latin1")
    body = data[10 + hlen:]
    if "'|u1'" in header:
        return list(body)
    if "'<f2'" in header:
        return list(struct.unpack("<%de" % (len(body) // 2), body))
    assert "'<f4'" in header, path
    return list(struct.unpack("<%df" % (len(body) // 4), body))


def persistent(t, sms):
    """Y[g] = 2 X[g] + wave, in 300 tiles of 128 over `sms` workers."""
    x, y = t["X"], t["Y"]
    want = [2.0 * x[g] + (g // 128) // sms for g in range(len(x))]
    return [g for g in range(len(x)) if abs(y[g] - want[g]) > 1e-4]


def vector_let(t):
    """Per row r of 16 x 16: B[r, 0:4] = A[r, 8:12] + 1, B[r, 4:8] =
    A[r, 0:4], B[r, 8:12] = A[r, 12:16], B[r, 12:16] = A[r, 4:8]."""
    a, b = t["A"], t["B"]
    bad = []
    for r in range(16):
        for j in range(4):
            want = {j: a[r * 16 + 8 + j] + 1, 4 + j: a[r * 16 + j],
                    8 + j: a[r * 16 + 12 + j], 12 + j: a[r * 16 + 4 + j]}
            for col, w in want.items():
                if abs(b[r * 16 + col] - w) > 1e-6:
                    bad.append(r * 16 + col)
    return bad


def region_value(t):
    """Per row r of 8 x 16: B[r, 8:16] = A[r, 0:8], B[r, 0:8] = A[r, 8:16]."""
    a, b = t["A"], t["B"]
    return [r * 16 + c for r in range(8) for c in range(16)
            if b[r * 16 + c] != a[r * 16 + (c + 8) % 16]]


def slice_step(t):
    """Per row r of 8 x 16: B[r, 0:8] = A[r, 0:16:2], B[r, 8:12] =
    A[r, 1:9:2], B[r, 12:16] = A[r, 9:16:2]."""
    a, b = t["A"], t["B"]
    src = list(range(0, 16, 2)) + list(range(1, 9, 2)) + list(range(9, 16, 2))
    return [r * 16 + c for r in range(8) for c in range(16)
            if b[r * 16 + c] != a[r * 16 + src[c]]]


def partial_copy(t):
    """B (32 x 32): rows 0-15 = A rows 32-47, rows 16-31 = A rows 0-15."""
    a, b = t["A"], t["B"]
    src = lambda row: row + 32 if row < 16 else row - 16
    return [r * 32 + c for r in range(32) for c in range(32)
            if b[r * 32 + c] != a[src(r) * 32 + c]]


def gather_loop(t):
    """Per row r of 32 x 32: B[r, c] = 2 A[r, c // 2] and C[r, c] =
    max(A[r, :]) + c, A being 32 x 16."""
    a, b, c = t["A"], t["B"], t["C"]
    bad = []
    for r in range(32):
        row_max = max(a[r * 16:(r + 1) * 16])
        for col in range(32):
            if abs(b[r * 32 + col] - 2.0 * a[r * 16 + col // 2]) > 1e-6:
                bad.append(r * 32 + col)
            if abs(c[r * 32 + col] - (row_max + col)) > 1e-4:
                bad.append(r * 32 + col)
    return bad


def tir_builders(t):
    """Out[i] = 2 ** (f - 8) when above 1, else 0, f being nibble i % 2 of
    byte Q[i // 2]."""
    q, out = t["Q"], t["Out"]
    bad = []
    for i in range(len(out)):
        f = (q[i // 2] >> (4 * (i % 2))) & 15
        v = 2.0 ** (f - 8)
        if out[i] != (v if v > 1.0 else 0.0):
            bad.append(i)
    return bad


def gather_pairs(t):
    """Per row r of 32 x 32: B[r, c] = 2 A[r, c // 2] + c % 2, A being
    32 x 16."""
    a, b = t["A"], t["B"]
    return [r * 32 + c for r in range(32) for c in range(32)
            if abs(b[r * 32 + c] - (2.0 * a[r * 16 + c // 2] + c % 2)) > 1e-6]


def double(t):
    """B = 2 A."""
    a, b = t["A"], t["B"]
    return [g for g in range(len(a)) if b[g] != 2.0 * a[g]]


def scale_rows(t):
    """y[b, r, c] = x[b, r, c] / 4 + bias[b, c % 4]; x is 2 x 64 x 16."""
    x, bias, y = t["x"], t["bias"], t["y"]
    bad = []
    for g in range(len(x)):
        b, c = g // (64 * 16), g % 16
        if abs(y[g] - (x[g] * 0.25 + bias[b * 4 + c % 4])) > 1e-5:
            bad.append(g)
    return bad


CHECKS = {
    "persistent-h100": lambda t: persistent(t, 132),
    "persistent-a100": lambda t: persistent(t, 108),
    "vector-let": vector_let,
    "region-value": region_value,
    "slice-step": slice_step,
    "partial-copy": partial_copy,
    "gather-loop": gather_loop,
    "tir-builders": tir_builders,
    "gather-pairs": gather_pairs,
    "double": double,
    "scale-rows": scale_rows,
}


def main():
    check, tlc_run, art, work = sys.argv[1:5]
    out = os.path.join(work, "out")
    subprocess.run([tlc_run, art, "--save", out], check=True,
                   stdout=subprocess.DEVNULL)
    tensors = {f[:-4]: read_f32(os.path.join(out, f))
               for f in os.listdir(out) if f.endswith(".npy")}
    bad = CHECKS[check](tensors)
    print(check, "ok" if not bad else "MISMATCH at %d of %d" % (bad[0], len(bad)))


if __name__ == "__main__":
    main()
