#!/usr/bin/python3
"""The sim device's DPP moves (__builtin_amdgcn_update_dpp) against a NumPy
model of the DPP controls written from the CDNA3 ISA ("Data Parallel
Processing", the VOP_DPP DPP_CTRL field of GFX9 / CDNA), not from the sim:

  quad_perm:[a,b,c,d] (0x00-0xFF): lane 4 q + i reads lane 4 q + sel_i,
    sel_i = bits 2 i + 1 .. 2 i of the control.
  row_shl:n (0x100 + n): lane i of a row of 16 reads lane i + n of the row;
    row_shr:n (0x110 + n) lane i - n. A source past the row is invalid.
  row_mirror (0x140): lane i of a row reads lane 15 - i; row_half_mirror
    (0x141): lane i of each half-row of 8 reads lane 7 - i.
  row_bcast:15 (0x142): "broadcast 15th thread of each row to next row";
    row_bcast:31 (0x143): "broadcast thread 31 to rows 2 and 3" (only the
    rows with a source are enabled here: row_mask 0xA and 0xC, as tlc's
    reductions use them).
  v_readlane_b32 (__builtin_amdgcn_readlane(v, l)): lane l's v everywhere.
  row_mask bit r enables the lanes of row r (16 r .. 16 r + 15), bank_mask
    bit b the lanes 4 b .. 4 b + 3 of every row: disabled lanes keep the
    old value. An invalid source writes 0 with bound_ctrl, else keeps old.

A hand-written HIP kernel (one wavefront) applies each case to lane values
and stores the result, runs on the sim device, and must equal the model; a
variant with a deliberately wrong model (row_shl read as row_shr) must not.
With the HIP toolchain installed the same source is also compiled for
gfx942 and gfx90a (the builtin takes constant controls).
Usage: dpp_lanes.py --bin BUILD/bin
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (ctrl, row_mask, bank_mask, bound_ctrl): the controls tlc's reductions use
# (tlc_device/hip/reduce.h) and the edges of the shifts.
CASES = [
    (0xB1, 0xF, 0xF, False), (0x4E, 0xF, 0xF, False), (0x1B, 0xF, 0xF, False),
    (0x104, 0xF, 0x5, False), (0x114, 0xF, 0xA, False),
    (0x108, 0xF, 0x3, False), (0x118, 0xF, 0xC, False),
    (0x101, 0xF, 0xF, False), (0x101, 0xF, 0xF, True),
    (0x113, 0xF, 0xF, True), (0x10F, 0x5, 0xF, False),
    (0x140, 0xF, 0xF, False), (0x141, 0xF, 0xF, False), (0x141, 0xA, 0x6, False),
    (0x142, 0xA, 0xF, False), (0x143, 0xC, 0xF, False), (0x142, 0x8, 0x9, False),
]
# v_readlane_b32 of these lanes, stored after the DPP cases.
READLANES = [63, 31, 37]

KERNEL = r"""
#include "tlc_device/hip.h"
extern "C" __global__ void __launch_bounds__(64) dpp_kernel(
    const int *__restrict__ A, int *__restrict__ D) {
  const int lane = threadIdx.x;
  const int src = A[lane], old = A[64 + lane];
CALLS
}
"""


def model(ctrl, row_mask, bank_mask, bound, src, old, wrong=False):
    out = old.copy()
    for lane in range(64):
        row, i = lane // 16 * 16, lane % 16
        if not (row_mask >> (lane // 16) & 1) or not (bank_mask >> (i // 4) & 1):
            continue
        if ctrl <= 0xFF:
            s = lane // 4 * 4 + (ctrl >> (2 * (lane % 4)) & 3)
        elif 0x101 <= ctrl <= 0x10F:
            n = ctrl & 15
            j = i - n if wrong else i + n
            s = row + j if 0 <= j < 16 else None
        elif 0x111 <= ctrl <= 0x11F:
            n = ctrl & 15
            s = row + i - n if i - n >= 0 else None
        elif ctrl == 0x140:
            s = row + 15 - i
        elif ctrl == 0x141:
            s = lane // 8 * 8 + 7 - lane % 8
        elif ctrl == 0x142:
            s = row + (15 if wrong else -1) if row >= 16 else None
        elif ctrl == 0x143:
            s = 31 if row >= 32 else None
        if s is None:
            out[lane] = 0 if bound else old[lane]
        else:
            out[lane] = src[s]
    return out


def manifest(n):
    def tensor(name, shape, role):
        return {"name": name, "kind": "tensor", "dtype": "int32", "shape": shape, "role": role}
    return {
        "format": "tlc-kernel", "version": 1, "name": "dpp", "kernel": "dpp",
        "target": "hip:gfx942", "source_file": "dpp_lanes.py",
        "generated_source": "dpp.hip", "binary": "dpp.hsaco", "entry": "dpp_kernel",
        "source_hash": "", "symbols": [],
        "params": [tensor("A", [2, 64], "in"), tensor("D", [n, 64], "out")],
        "launches": [{"grid": [1], "block": [64], "dynamic_shared_memory": 0,
                      "entry": "dpp_kernel", "location": "dpp_lanes.py:1:1"}],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="tlc-sim-dpp-")
    art = os.path.join(work, "art")
    os.makedirs(art)
    shutil.copytree(os.path.join(ROOT, "runtime", "device", "include", "tlc_device"),
                    os.path.join(art, "tlc_device"))
    calls = "\n".join(
        f"  D[{c} * 64 + lane] = __builtin_amdgcn_update_dpp(old, src, {ctrl:#x}, "
        f"{rm:#x}, {bm:#x}, {'true' if bc else 'false'});"
        for c, (ctrl, rm, bm, bc) in enumerate(CASES))
    calls += "\n" + "\n".join(
        f"  D[{len(CASES) + i} * 64 + lane] = __builtin_amdgcn_readlane(src, {l});"
        for i, l in enumerate(READLANES))
    with open(os.path.join(art, "dpp.hip"), "w") as f:
        f.write(KERNEL.replace("CALLS", calls))
    with open(os.path.join(art, "dpp.json"), "w") as f:
        json.dump(manifest(len(CASES) + len(READLANES)), f)
    failed = 0
    clang = shutil.which("clang++-22")
    libs = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
    if clang and os.path.exists(os.path.join(libs, "ocml.bc")):
        for arch in ("gfx942", "gfx90a"):
            proc = subprocess.run([clang, "-x", "hip", f"--offload-arch={arch}",
                                   "--cuda-device-only", "--no-gpu-bundle-output",
                                   "-nogpuinc", "-nogpulib", "-O2", "-I", art,
                                   os.path.join(art, "dpp.hip"), "-o",
                                   os.path.join(work, f"dpp-{arch}.hsaco")],
                                  capture_output=True, text=True)
            ok = proc.returncode == 0
            print(f"{'PASS' if ok else 'FAIL'}: compiles for {arch}")
            if not ok:
                print(proc.stderr)
            failed += not ok
    out = os.path.join(work, "out")
    proc = subprocess.run([os.path.join(args.bin, "tlc-run"), art, "--device", "sim",
                           "--seed", "7", "--save", out], capture_output=True, text=True)
    if proc.returncode != 0:
        print(proc.stdout + proc.stderr)
        print("FAIL: tlc-run failed")
        return 1
    a = np.load(os.path.join(out, "inputs", "A.npy")).astype(np.int64)
    d = np.load(os.path.join(out, "D.npy")).astype(np.int64)
    src, old = a[0], a[1]
    for c, (ctrl, rm, bm, bc) in enumerate(CASES):
        name = f"ctrl {ctrl:#x} row_mask {rm:#x} bank_mask {bm:#x} bound_ctrl {int(bc)}"
        ok = np.array_equal(d[c], model(ctrl, rm, bm, bc, src, old))
        print(f"{'PASS' if ok else 'FAIL'}: {name}")
        failed += not ok
        if 0x101 <= ctrl <= 0x10F or ctrl == 0x142:
            differs = not np.array_equal(d[c], model(ctrl, rm, bm, bc, src, old, wrong=True))
            what = ("row_shl as row_shr" if ctrl != 0x142 else
                    "row_bcast:15 from the row's own lane 15")
            print(f"{'PASS' if differs else 'FAIL'}: {name} differs from a model reading "
                  f"{what}")
            failed += not differs
    for i, l in enumerate(READLANES):
        ok = np.array_equal(d[len(CASES) + i], np.full(64, src[l]))
        print(f"{'PASS' if ok else 'FAIL'}: readlane {l}")
        failed += not ok
    shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
