#!/usr/bin/python3
"""CPU seconds of the kernels of CPU-target artifacts, on one host thread.

Loads each artifact's shared object, fills its tensor parameters with
seeded random values (normal, as tlc-run does; integers small and
non-negative), and calls the entry point with one worker (the blocks run in
sequence on the calling thread), timing every call with the thread's CPU
clock. The minimum over the runs is printed: on a machine shared with other
work the CPU clock of one thread is a steadier figure than wall time.

Usage: kernel_cpu_time.py [--runs N] [--same-as REF] DIR [DIR...]
  DIR: a `tlc-build --target=cpu -o DIR` artifact directory (every kernel of
  it is timed). Kernels with symbols (dynamic shapes) are skipped.
  --same-as REF: also run REF's kernel of the same name once on the same
  inputs and compare every tensor afterwards bit for bit (a change that
  makes the generated code faster must not change a value).
"""

import argparse
import ctypes
import glob
import json
import os
import sys
import time

import numpy as np

DTYPES = {
    "float16": np.float16, "float32": np.float32, "float64": np.float64,
    "bfloat16": np.uint16, "int8": np.int8, "uint8": np.uint8,
    "int16": np.int16, "int32": np.int32, "int64": np.int64,
    "uint32": np.uint32, "uint64": np.uint64, "bool": np.uint8,
    "float8_e4m3": np.uint8, "float8_e5m2": np.uint8,
}


class Args(ctypes.Structure):
    _fields_ = [("abiVersion", ctypes.c_uint32), ("numParams", ctypes.c_uint32),
                ("params", ctypes.POINTER(ctypes.c_void_p)),
                ("numSymbols", ctypes.c_uint32),
                ("symbols", ctypes.POINTER(ctypes.c_int64)),
                ("numWorkers", ctypes.c_int32), ("error", ctypes.c_char_p),
                ("errorSize", ctypes.c_size_t)]


def make_tensor(rng, p):
    dt = p["dtype"]
    shape = p["shape"]
    if dt == "bfloat16":
        x = rng.standard_normal(shape, dtype=np.float32)
        return (x.view(np.uint32) >> 16).astype(np.uint16)
    t = DTYPES.get(dt)
    if t is None:
        raise ValueError(f"dtype {dt} not handled")
    if np.issubdtype(t, np.floating):
        return rng.standard_normal(shape).astype(t)
    if dt in ("float8_e4m3", "float8_e5m2"):
        return rng.integers(0, 0x70, size=shape, dtype=np.uint8)
    return rng.integers(0, 2, size=shape).astype(t)


def load(d, manifest):
    m = json.load(open(manifest))
    if m.get("symbols"):
        return None, "dynamic shapes: skipped"
    lib = ctypes.CDLL(os.path.join(d, m["binary"]))
    entry = getattr(lib, m["entry"])
    entry.argtypes = [ctypes.POINTER(Args)]
    entry.restype = ctypes.c_int
    return m, entry


def call_setup(m):
    rng = np.random.default_rng(0)
    keep = []
    ptrs = (ctypes.c_void_p * len(m["params"]))()
    for i, p in enumerate(m["params"]):
        if p["kind"] == "tensor":
            a = np.ascontiguousarray(make_tensor(rng, p))
        else:
            t = DTYPES.get(p["dtype"], np.int64)
            a = np.array([1], dtype=t)
        keep.append(a)
        ptrs[i] = a.ctypes.data
    err = ctypes.create_string_buffer(4096)
    args = Args(1, len(m["params"]), ptrs, 0, None, 1,
                ctypes.cast(err, ctypes.c_char_p), 4096)
    return keep, args, err


def time_kernel(d, manifest, runs, ref=None):
    m = json.load(open(manifest))
    if m.get("symbols"):
        return None, "dynamic shapes: skipped"
    m, entry = load(d, manifest)
    keep, args, err = call_setup(m)
    note = ""
    if ref is not None:
        rm, rentry = load(ref, os.path.join(ref, os.path.basename(manifest)))
        rkeep, rargs, rerr = call_setup(rm)
        if entry(ctypes.byref(args)) != 0 or rentry(ctypes.byref(rargs)) != 0:
            return None, "error: " + (err.value or rerr.value).decode(errors="replace")[:200]
        diff = [p["name"] for p, a, b in zip(m["params"], keep, rkeep)
                if a.tobytes() != b.tobytes()]
        note = ("  DIFFERS from %s: %s" % (ref, ", ".join(diff))) if diff else \
            "  (bit-identical to %s)" % ref
    best = None
    for _ in range(runs):
        t0 = time.thread_time()
        rc = entry(ctypes.byref(args))
        t1 = time.thread_time()
        if rc != 0:
            return None, "error: " + err.value.decode(errors="replace")[:200]
        best = t1 - t0 if best is None else min(best, t1 - t0)
    return best, note


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--same-as", default=None)
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    for d in a.dirs:
        for manifest in sorted(glob.glob(os.path.join(d, "*.json"))):
            s, why = time_kernel(d, manifest, a.runs, a.same_as)
            name = os.path.basename(manifest)[:-5]
            if s is None:
                print(f"{'-':>10}  {d}/{name}: {why}")
            else:
                print(f"{s * 1e3:10.1f}  {d}/{name}  (ms of CPU, min of {a.runs}){why}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
