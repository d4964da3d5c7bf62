#!/usr/bin/python3
"""Tests tlc-run's .npy reader (HostTensor::readNpy) against NumPy.

1. Arrays of every dtype tlc-run knows, of several shapes, written by NumPy
   (np.save and np.lib.format.write_array in format versions 1.0, 2.0 and
   3.0), are read by tlc-npy-read and written back; NumPy's reading of that
   must equal the original (for bfloat16 and fp8, which NumPy lacks and
   tlc stores as float32, the original rounded by tests/scripts/ref_common).
2. Malformed files (bad magic, version, header, dtype, byte order, order,
   shape, data length) must be refused with exit status 1 and a message
   that names the problem, never a crash.
3. With --bin: `tlc-run --inputs` runs examples/elementwise_add.py on
   NumPy-written A and B, and C must be A + B; a wrongly shaped input is
   refused.

Usage: check_npy.py TLC_NPY_READ [--bin BUILD/bin]
"""

import argparse
import io
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "tests", "scripts"))
from ref_common import round_bfloat16, round_float8_e4m3fn, round_float8_e5m2  # noqa: E402

NATIVE = ["float16", "float32", "float64", "int8", "int16", "int32", "int64",
          "uint8", "uint16", "uint32", "uint64", "bool"]
ROUNDED = {"bfloat16": round_bfloat16, "float8_e4m3fn": round_float8_e4m3fn,
           "float8_e5m2": round_float8_e5m2}
SHAPES = [(), (0,), (7,), (3, 4), (2, 0, 3), (2, 3, 4, 5), (1, 1, 1, 1, 1, 1, 1, 2)]

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def sample(dtype, shape, rng):
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(np.bool_)
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    x = rng.standard_normal(shape) * 10
    return x.astype(dtype if dtype in NATIVE else np.float32)


def run(tool, dtype, data, tmp):
    src, dst = os.path.join(tmp, "in.npy"), os.path.join(tmp, "out.npy")
    with open(src, "wb") as f:
        f.write(data)
    if os.path.exists(dst):
        os.remove(dst)
    p = subprocess.run([tool, dtype, src, dst], capture_output=True, text=True)
    return p, dst


def npy_bytes(a, version=None):
    buf = io.BytesIO()
    if version is None:
        np.save(buf, a)
    else:
        np.lib.format.write_array(buf, a, version=version)
    return buf.getvalue()


def raw(header, data=b"", version=(1, 0), length=None):
    h = header.encode("latin1")
    n = len(h) if length is None else length
    size = struct.pack("<H", n) if version[0] == 1 else struct.pack("<I", n)
    return b"\x93NUMPY" + bytes(version) + size + h + data


def good_files(tool, tmp):
    rng = np.random.default_rng(7)
    for dtype in NATIVE + list(ROUNDED):
        for shape in SHAPES:
            a = sample(dtype, shape, rng)
            for version in (None, (1, 0), (2, 0), (3, 0)):
                if version and dtype != "float32" and shape != (3, 4):
                    continue
                p, out = run(tool, dtype, npy_bytes(a, version), tmp)
                what = f"{dtype}{list(shape)} version {version}"
                check(p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr.strip()}")
                if p.returncode:
                    continue
                got = np.load(out)
                want = a
                if dtype in ROUNDED:
                    flat = np.atleast_1d(a.astype(np.float64))
                    want = ROUNDED[dtype](flat).astype(np.float32).reshape(a.shape)
                check(got.dtype == want.dtype and got.shape == want.shape,
                      f"{what}: read back as {got.dtype}{got.shape}")
                check(np.array_equal(got, want, equal_nan=True), f"{what}: values differ")
    # Byte-order marks that mean the same storage.
    a = np.arange(5, dtype=np.int8)
    for descr in ("|i1", "<i1", ">i1", "=i1"):
        p, out = run(tool, "int8", raw("{'descr': '%s', 'fortran_order': False, 'shape': (5,), }" % descr,
                                        a.tobytes()), tmp)
        check(p.returncode == 0 and np.array_equal(np.load(out), a), f"int8 as {descr}: {p.stderr.strip()}")
    # Padding NumPy may write differently: no trailing space, double quotes.
    p, out = run(tool, "float32", raw('{"descr":"<f4","fortran_order":False,"shape":(2,)}\n',
                                      np.float32([1.5, -2]).tobytes()), tmp)
    check(p.returncode == 0 and np.load(out).tolist() == [1.5, -2.0], f"compact header: {p.stderr.strip()}")


BAD = [
    # (name, dtype, bytes, words the message must contain)
    ("empty file", "float32", b"", "magic"),
    ("not npy", "float32", b"PK\x03\x04 zip file", "magic"),
    ("magic only", "float32", b"\x93NUMPY", "truncated"),
    ("version 4.0", "float32", raw("{}", version=(4, 0)), "version 4.0"),
    ("version 1.1", "float32", raw("{}", version=(1, 1)), "version 1.1"),
    ("length past end", "float32", raw("{'descr': '<f4'}", length=4000), "past the end"),
    ("length past end v2", "float32", raw("{}", version=(2, 0), length=0xFFFFFFFF), "past the end"),
    ("not a dict", "float32", raw("['<f4', False, (2,)]"), "dictionary"),
    ("missing shape", "float32", raw("{'descr': '<f4', 'fortran_order': False}"), "lacks 'shape'"),
    ("missing descr", "float32", raw("{'fortran_order': False, 'shape': ()}"), "lacks 'descr'"),
    ("unknown key", "float32", raw("{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1}"),
     "unknown key 'x'"),
    ("duplicate key", "float32", raw("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}"),
     "twice"),
    ("unterminated string", "float32", raw("{'descr': '<f4"), "unterminated"),
    ("escape", "float32", raw("{'descr': '<f\\x34', 'fortran_order': False, 'shape': ()}"), "escapes"),
    ("order not bool", "float32", raw("{'descr': '<f4', 'fortran_order': 0, 'shape': ()}"), "True or False"),
    ("shape (3)", "float32", raw("{'descr': '<f4', 'fortran_order': False, 'shape': (3)}", b"\0" * 12),
     "not a tuple"),
    ("shape list", "float32", raw("{'descr': '<f4', 'fortran_order': False, 'shape': [3]}"), "not a tuple"),
    ("negative extent", "float32", raw("{'descr': '<f4', 'fortran_order': False, 'shape': (-3,)}"),
     "non-negative"),
    ("huge extent", "float32", raw("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}"),
     "too large"),
    ("overflowing shape", "float32",
     raw("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296)}"),
     "overflows"),
    ("overflow beside a zero extent", "float32",
     raw("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 0)}"), "overflows"),
    ("size times 4 overflows", "float32",
     raw("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387905,)}"), "2^64"),
    ("65 dimensions", "float32",
     raw("{'descr': '<f4', 'fortran_order': False, 'shape': (%s)}" % ("1," * 65)), "64 dimensions"),
    ("text after dict", "float32", raw("{'descr': '<f4', 'fortran_order': False, 'shape': ()} junk"),
     "after the dictionary"),
    ("structured", "float32", npy_bytes(np.zeros(2, dtype=[("a", "<f4"), ("b", "<i4")])), "structured"),
    ("object dtype", "float32", raw("{'descr': '|O', 'fortran_order': False, 'shape': (1,)}", b"\0" * 8),
     "'|O' where float32 needs '<f4'"),
    ("float64 for float32", "float32", npy_bytes(np.zeros(3)), "'<f8' where float32 needs '<f4'"),
    ("int32 for int64", "int64", npy_bytes(np.zeros(3, np.int32)), "'<i4' where int64 needs '<i8'"),
    ("big-endian", "float32", npy_bytes(np.zeros(3, ">f4")), "big-endian"),
    ("fortran order", "float32", npy_bytes(np.asfortranarray(np.zeros((2, 3), np.float32))), "Fortran order"),
    ("truncated data", "float32", npy_bytes(np.zeros((2, 3), np.float32))[:-1], "needs 24 bytes"),
    ("trailing data", "float32", npy_bytes(np.zeros((2, 3), np.float32)) + b"\0", "the file has 25"),
    ("bfloat16 as float16", "bfloat16", npy_bytes(np.zeros(3, np.float16)), "needs '<f4'"),
]


def bad_files(tool, tmp):
    for name, dtype, data, words in BAD:
        p, _ = run(tool, dtype, data, tmp)
        check(p.returncode == 1 and words in p.stderr,
              f"{name}: exit {p.returncode}, stderr {p.stderr.strip()!r} (expected {words!r})")


def tlc_run(bindir, tmp):
    art, inp, out = (os.path.join(tmp, d) for d in ("art", "inputs", "out"))
    subprocess.run([os.path.join(bindir, "tlc-build"), os.path.join(ROOT, "examples", "elementwise_add.py"),
                    "--target=cpu", "-o", art, "-DM=100", "-DN=70"], check=True, capture_output=True)
    os.makedirs(inp)
    rng = np.random.default_rng(3)
    a = rng.standard_normal((100, 70)).astype(np.float32)
    b = rng.standard_normal((100, 70)).astype(np.float32)
    np.save(os.path.join(inp, "A.npy"), a)
    np.save(os.path.join(inp, "B.npy"), b)

    def run_tlc(*extra):
        return subprocess.run([os.path.join(bindir, "tlc-run"), art, "--kernel", "elementwise_add",
                               "--inputs", inp, *extra], capture_output=True, text=True)

    p = run_tlc("--save", out)
    check(p.returncode == 0 and "inputs from" in p.stdout and "A, B" in p.stdout,
          f"tlc-run --inputs: exit {p.returncode}: {p.stdout} {p.stderr}")
    if p.returncode == 0:
        check(np.array_equal(np.load(os.path.join(out, "C.npy")), a + b), "tlc-run --inputs: C != A + B")
        check(np.array_equal(np.load(os.path.join(out, "inputs", "A.npy")), a), "tlc-run --inputs: saved A != A")
    np.save(os.path.join(inp, "B.npy"), b[:, :69])
    p = run_tlc()
    check(p.returncode == 1 and "shape [100,69], but parameter 'B'" in p.stderr,
          f"tlc-run --inputs, wrong shape: exit {p.returncode}: {p.stderr.strip()}")
    np.save(os.path.join(inp, "B.npy"), b.astype(np.float16))
    p = run_tlc()
    check(p.returncode == 1 and "B.npy: dtype '<f2' where float32 needs '<f4'" in p.stderr,
          f"tlc-run --inputs, wrong dtype: exit {p.returncode}: {p.stderr.strip()}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tool")
    ap.add_argument("--bin")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        good_files(args.tool, tmp)
        bad_files(args.tool, tmp)
        if args.bin:
            tlc_run(args.bin, tmp)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
