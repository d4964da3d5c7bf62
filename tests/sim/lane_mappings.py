#!/usr/bin/python3
"""The sim device's ldmatrix and mma.sync lane mappings against NumPy.

Hand-written CUDA kernels (not tlc's emitter, not tlc's layout tables) use
tlc's device helpers on one warp the way the PTX ISA's fragment figures
describe: ldmatrix.x4 for the A fragment of m16n8k16 (matrices at rows
0-7/8-15, columns 0-7/8-15), ldmatrix.x2.trans for the B fragment from a
row-major K x N tile, mma.sync, and the C fragment stored as c_i -> row
groupID (+8 for i >= 2), column 2*threadID_in_group + i % 2. The result must
equal NumPy's A @ B; each kernel also runs with the ldmatrix or the store
mapping deliberately broken, which must not. Usage:
lane_mappings.py --bin BUILD/bin
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

KERNEL = r"""
#include "tlc_device/cuda.h"
extern "C" __global__ void __launch_bounds__(32) lanes_kernel(
    const tlc::cuda::half *__restrict__ A, const tlc::cuda::half *__restrict__ B,
    float *__restrict__ D) {
  extern __shared__ __align__(128) unsigned char smem[];
  tlc::cuda::half *As = reinterpret_cast<tlc::cuda::half *>(smem);       // 16 x 16
  tlc::cuda::half *Bs = reinterpret_cast<tlc::cuda::half *>(smem + 512); // 16 x 8
  const int lane = threadIdx.x;
  for (int i = lane; i < 256; i += 32) As[i] = A[i];
  for (int i = lane; i < 128; i += 32) Bs[i] = B[i];
  __syncthreads();
  uint32_t a[4], b[2];
  const int m = lane / 8, r = lane % 8;
  tlc::cuda::ldmatrixX4(a[0], a[1], a[2], a[3], &As[(A_ROW) * 16 + (m / 2) * 8]);
  tlc::cuda::ldmatrixX2Trans(b[0], b[1], &Bs[(lane % 16) * 8]);
  float c[4] = {0, 0, 0, 0};
  tlc::cuda::mmaM16N8K16F16F32(c, a, b, c);
  const int g = lane / 4, t = lane % 4;
  for (int i = 0; i < 4; ++i)
    D[(g + 8 * (i / 2)) * 8 + STORE_COL] = c[i];
}
"""

VARIANTS = {
    # name: (row of lane's ldmatrix address, store column, must match NumPy)
    "as in the PTX ISA": ("(m % 2) * 8 + r", "2 * t + i % 2", True),
    "A matrices 1 and 2 swapped": ("(m / 2) * 8 + r", "2 * t + i % 2", False),
    "C columns of a pair swapped": ("(m % 2) * 8 + r", "2 * t + 1 - i % 2", False),
}


def manifest():
    def tensor(name, shape, dtype, role):
        return {"name": name, "kind": "tensor", "dtype": dtype, "shape": shape, "role": role}
    return {
        "format": "tlc-kernel", "version": 1, "name": "lanes", "kernel": "lanes",
        "target": "cuda:sm_80", "source_file": "lane_mappings.py",
        "generated_source": "lanes.cu", "binary": "lanes.fatbin", "entry": "lanes_kernel",
        "source_hash": "", "symbols": [],
        "params": [tensor("A", [16, 16], "float16", "in"), tensor("B", [16, 8], "float16", "in"),
                   tensor("D", [16, 8], "float32", "out")],
        "launches": [{"grid": [1], "block": [32], "dynamic_shared_memory": 1024,
                      "entry": "lanes_kernel", "location": "lane_mappings.py:1:1"}],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="tlc-sim-lanes-")
    failed = 0
    for name, (row, col, should_match) in VARIANTS.items():
        art = os.path.join(work, name.replace(" ", "_"), "art")
        os.makedirs(art)
        shutil.copytree(os.path.join(ROOT, "runtime", "device", "include", "tlc_device"),
                        os.path.join(art, "tlc_device"))
        with open(os.path.join(art, "lanes.cu"), "w") as f:
            f.write(KERNEL.replace("A_ROW", row).replace("STORE_COL", col))
        with open(os.path.join(art, "lanes.json"), "w") as f:
            json.dump(manifest(), f)
        out = os.path.join(work, name.replace(" ", "_"), "out")
        proc = subprocess.run([os.path.join(args.bin, "tlc-run"), art, "--device", "sim",
                               "--seed", "11", "--save", out], capture_output=True, text=True)
        if proc.returncode != 0:
            print(proc.stdout + proc.stderr)
            print(f"FAIL: {name}: tlc-run failed")
            failed += 1
            continue
        a = np.load(os.path.join(out, "inputs", "A.npy")).astype(np.float64)
        b = np.load(os.path.join(out, "inputs", "B.npy")).astype(np.float64)
        d = np.load(os.path.join(out, "D.npy")).astype(np.float64)
        matches = np.allclose(d, a @ b, rtol=1e-6, atol=1e-5)
        ok = matches == should_match
        print(f"{'PASS' if ok else 'FAIL'}: {name}: "
              f"{'matches' if matches else 'differs from'} NumPy's A @ B "
              f"(max abs difference {np.max(np.abs(d - a @ b)):.3g})")
        failed += not ok
    shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
