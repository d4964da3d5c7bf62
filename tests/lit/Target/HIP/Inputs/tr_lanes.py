"""gfx950's ds_read_b64_tr_b16 and ds_read_b64_tr_b8 on the sim device
against lane tables.

With n = 64 / E elements of E bits in a lane's 8 bytes (n = 4 for b16, 8
for b8), within each row of 16 lanes lane j addresses the block's 8-byte
chunk j (block row j / (16 / n), columns n (j % (16 / n)) .. + n - 1) and
receives column j, the block's n rows. The 16-bit rule is Modular's
description of its gfx950 kernels' `ds_read_tr16_b64_row` ("each 16-lane
row loads a 4x16 tile, with per-lane exchange so each lane gets a column of
the tile"); the 8-bit one is how Triton's `chooseDsReadB64TrLayout`
addresses ds_read_b64_tr_b8 for an MFMA operand (2 lanes along the non-K
dimension, 8 along K, each lane ending with 8 consecutive k of its own
column). Neither is an AMD ISA table and nothing here ran on hardware.

A hand-written one-wavefront kernel per width stores a (4 n) x 16 matrix X
in LDS, row group g = l / 16 addressing rows n g .. n g + n - 1 in that
chunk order, and writes each lane's n results to Y[l]. The table says
Y[l][v] = X[n g + v][l % 16]; a table of the untransposed read (Y[l][v] =
X[n g + l % 16 / (16 / n)][n (l % (16 / n)) + v], what ds_read_b64 would
return) must not match.
Usage: tr_lanes.py TLC_RUN WORKDIR [compile]
"""

import json
import os
import shutil
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))))

KERNEL = r"""
#include "tlc_device/hip.h"
__device__ const int addr[64] = {ADDR};
extern "C" __global__ void __launch_bounds__(64) lanes_kernel(
    const ELEM *__restrict__ X, ELEM *__restrict__ Y) {
  __shared__ __align__(16) ELEM lds[64 * NVALS];
  const int lane = threadIdx.x;
  for (int i = 0; i < NVALS; ++i)
    lds[NVALS * lane + i] = X[NVALS * lane + i];
  __syncthreads();
  alignas(8) ELEM out[NVALS];
  tlc::hip::READ(out, &lds[addr[lane]]);
  for (int v = 0; v < NVALS; ++v)
    Y[NVALS * lane + v] = out[v];
}
"""

# Width: (element type in the kernel, manifest dtype, NumPy view, helper).
WIDTHS = {16: ("tlc::hip::half", "float16", np.uint16, "readTransposedB16"),
          8: ("int8_t", "int8", np.int8, "readTransposedB8")}


def run_width(bits, tlc_run, work, compile_):
    elem, dtype, view, helper = WIDTHS[bits]
    n = 64 // bits
    across = 16 // n
    art = os.path.join(work, f"art{bits}")
    shutil.rmtree(art, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "runtime", "device", "include", "tlc_device"),
                    os.path.join(art, "tlc_device"))
    # Lane l of row group g addresses chunk l % 16 of rows n g .. n g + n - 1.
    addr = [16 * (n * (l // 16) + l % 16 // across) + n * (l % across) for l in range(64)]
    src = (KERNEL.replace("ADDR", ", ".join(map(str, addr))).replace("ELEM", elem)
           .replace("READ", helper).replace("NVALS", str(n)))
    with open(os.path.join(art, "lanes.hip"), "w") as f:
        f.write(src)

    def tensor(name, shape, role):
        return {"name": name, "kind": "tensor", "dtype": dtype, "shape": shape, "role": role}
    with open(os.path.join(art, "lanes.json"), "w") as f:
        json.dump({
            "format": "tlc-kernel", "version": 1, "name": "lanes", "kernel": "lanes",
            "target": "hip:gfx950", "source_file": "tr_lanes.py",
            "generated_source": "lanes.hip", "binary": "lanes.hsaco",
            "entry": "lanes_kernel", "source_hash": "", "symbols": [],
            "params": [tensor("X", [4 * n, 16], "in"), tensor("Y", [64, n], "out")],
            "launches": [{"grid": [1], "block": [64], "dynamic_shared_memory": 0,
                          "entry": "lanes_kernel", "location": "tr_lanes.py:1:1"}],
        }, f)
    failed = 0
    if compile_:
        proc = subprocess.run(["clang++-22", "-x", "hip", "--offload-arch=gfx950",
                               "--cuda-device-only", "--no-gpu-bundle-output", "-nogpuinc",
                               "-nogpulib", "-O2", "-I", art, os.path.join(art, "lanes.hip"),
                               "-o", os.path.join(art, "lanes.hsaco")],
                              capture_output=True, text=True)
        print(proc.stderr, end="")
        print(f"b{bits}: compiled for gfx950: {'yes' if proc.returncode == 0 else 'no'}")
    out = os.path.join(work, f"out{bits}")
    proc = subprocess.run([tlc_run, art, "--device", "sim", "--seed", "7", "--save", out],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print(proc.stdout + proc.stderr)
        print(f"FAIL: b{bits}: tlc-run failed")
        return 1
    x = np.load(os.path.join(out, "inputs", "X.npy")).view(view)
    y = np.load(os.path.join(out, "Y.npy")).view(view)
    table = np.array([[x[n * (l // 16) + v][l % 16] for v in range(n)] for l in range(64)])
    plain = np.array([[x[n * (l // 16) + l % 16 // across][n * (l % across) + v]
                       for v in range(n)] for l in range(64)])
    for name, t, should in (("transposed table", table, True), ("untransposed read", plain,
                                                                False)):
        same = np.array_equal(y, t)
        ok = same == should
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'}: b{bits}: {name}: "
              f"{'matches' if same else 'differs'} ({int(np.sum(y != t))} of {64 * n} differ)")
    return failed


def main():
    tlc_run, work = sys.argv[1], sys.argv[2]
    compile_ = len(sys.argv) > 3
    shutil.rmtree(work, ignore_errors=True)
    failed = sum(run_width(bits, tlc_run, work, compile_) for bits in (16, 8))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
