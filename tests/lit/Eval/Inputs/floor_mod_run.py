"""Runs the floor-mod.py kernel on the CPU with inputs holding negative
values and compares its outputs with Python's own `%` and math.fmod.

Usage: floor_mod_run.py TLC_RUN ARTIFACTS WORKDIR. Reads and writes .npy
files without NumPy (version 1.0 headers, little-endian int32/float32)."""

import math
import os
import struct
import subprocess
import sys

N = 256


def write_npy(path, descr, fmt, values):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (
        descr, len(values))
    pad = 64 - (10 + len(header) + 1) % 64
    header += " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def read_npy(path):
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", path
    hlen = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + hlen].decode("latin1")
    fmt = "i" if "'<i4'" in header else "f"
    body = data[10 + hlen:]
    return list(struct.unpack("<%d%s" % (len(body) // 4, fmt), body))


def main():
    tlc_run, art, work = sys.argv[1:4]
    inputs = os.path.join(work, "inputs")
    os.makedirs(inputs, exist_ok=True)
    xs = [(g * 37) % 101 - 50 for g in range(N)]
    ys = [((g * 13) % 41 - 20) * 0.75 for g in range(N)]
    write_npy(os.path.join(inputs, "X.npy"), "<i4", "i", xs)
    write_npy(os.path.join(inputs, "Y.npy"), "<f4", "f", ys)
    out = os.path.join(work, "out")
    subprocess.run([tlc_run, art, "--inputs", inputs, "--save", out],
                   check=True, stdout=subprocess.DEVNULL)
    expect = {
        "Floor": [x % 7 for x in xs],
        "NegDivisor": [x % -3 for x in xs],
        "Trunc": [int(math.fmod(x, 7)) for x in xs],
        "Index": [(g - 100) % 8 + g % 16 for g in range(N)],
        "FloatMod": [y - math.floor(y / 2.5) * 2.5 for y in ys],
    }
    for name, want in expect.items():
        got = read_npy(os.path.join(out, name + ".npy"))
        bad = [i for i in range(N) if abs(got[i] - want[i]) > 1e-5]
        print(name, "ok" if not bad else
              "MISMATCH at %d: got %r want %r" % (bad[0], got[bad[0]],
                                                   want[bad[0]]))


main()
