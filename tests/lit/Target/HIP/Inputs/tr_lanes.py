"""gfx950's ds_read_b64_tr_b16 on the sim device against a lane table.

The rule (as Modular's gfx950 kernels use the instruction,
`ds_read_tr16_b64_row`: "each 16-lane row loads a 4x16 tile, with per-lane
exchange so each lane gets a column of the tile"): within each row of 16
lanes, lane j addresses the block's 8-byte chunk j (block row j / 4,
columns 4 (j % 4) .. + 3) and receives column j, the block's 4 rows.

A hand-written one-wavefront kernel stores a 16 x 16 matrix X in LDS, row
group g = l / 16 addressing rows 4 g .. 4 g + 3 in that chunk order, and
writes each lane's 4 results to Y[l]. The table below says Y[l][v] =
X[4 g + v][l % 16]; a table of the untransposed read (Y[l][v] = X[4 g + l %
16 / 4][4 (l % 4) + v], what ds_read_b64 would return) must not match.
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
    const tlc::hip::half *__restrict__ X, tlc::hip::half *__restrict__ Y) {
  __shared__ __align__(16) tlc::hip::half lds[256];
  const int lane = threadIdx.x;
  for (int i = 0; i < 4; ++i)
    lds[4 * lane + i] = X[4 * lane + i];
  __syncthreads();
  alignas(8) tlc::hip::half out[4];
  tlc::hip::readTransposedB16(out, &lds[addr[lane]]);
  for (int v = 0; v < 4; ++v)
    Y[4 * lane + v] = out[v];
}
"""


def main():
    tlc_run, work = sys.argv[1], sys.argv[2]
    compile_ = len(sys.argv) > 3
    art = os.path.join(work, "art")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "runtime", "device", "include", "tlc_device"),
                    os.path.join(art, "tlc_device"))
    # Lane l of row group g addresses chunk l % 16 of rows 4 g .. 4 g + 3.
    addr = [16 * (4 * (l // 16) + l % 16 // 4) + 4 * (l % 4) for l in range(64)]
    with open(os.path.join(art, "lanes.hip"), "w") as f:
        f.write(KERNEL.replace("ADDR", ", ".join(map(str, addr))))

    def tensor(name, shape, role):
        return {"name": name, "kind": "tensor", "dtype": "float16", "shape": shape,
                "role": role}
    with open(os.path.join(art, "lanes.json"), "w") as f:
        json.dump({
            "format": "tlc-kernel", "version": 1, "name": "lanes", "kernel": "lanes",
            "target": "hip:gfx950", "source_file": "tr_lanes.py",
            "generated_source": "lanes.hip", "binary": "lanes.hsaco",
            "entry": "lanes_kernel", "source_hash": "", "symbols": [],
            "params": [tensor("X", [16, 16], "in"), tensor("Y", [64, 4], "out")],
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
        print(f"compiled for gfx950: {'yes' if proc.returncode == 0 else 'no'}")
    out = os.path.join(work, "out")
    proc = subprocess.run([tlc_run, art, "--device", "sim", "--seed", "7", "--save", out],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print(proc.stdout + proc.stderr)
        print("FAIL: tlc-run failed")
        return 1
    x = np.load(os.path.join(out, "inputs", "X.npy")).view(np.uint16)
    y = np.load(os.path.join(out, "Y.npy")).view(np.uint16)
    table = np.array([[x[4 * (l // 16) + v][l % 16] for v in range(4)] for l in range(64)])
    plain = np.array([[x[4 * (l // 16) + l % 16 // 4][4 * (l % 4) + v] for v in range(4)]
                      for l in range(64)])
    for name, t, should in (("transposed table", table, True), ("untransposed read", plain,
                                                                False)):
        same = np.array_equal(y, t)
        ok = same == should
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'}: {name}: "
              f"{'matches' if same else 'differs'} ({int(np.sum(y != t))} of 256 differ)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
