#!/usr/bin/env python3
# ===- fp8_gemm_check.py - examples/fp8_gemm.py on the GPU ---------------=== #
#
# Part of the tlc project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===---------------------------------------------------------------------=== #
#
# Runs the CUDA emitter's fp8 GEMM (mma.sync.m16n8k32, e4m3 and e5m2) built
# by build_fp8_gemm.sh, on random inputs with a NaN-poisoned output, against
# a float64 PyTorch product of the same fp8 values; optionally times it next
# to torch._scaled_mm (cuBLASLt fp8).
#
# Usage (GPU machine): python3 tests/gpu/cuda/fp8_gemm_check.py KDIR [--bench]
#
# ===---------------------------------------------------------------------=== #

import os
import re
import sys

import cupy as cp
import numpy as np
import torch


def load(kdir, name):
    text = open(f"{kdir}/{name}.launch").read()
    k = re.search(r"kernel (\S+) threads (\d+) smem (\d+)", text)
    g = re.search(r"grid \[([0-9, ]*)\] threads \[(\d+)\]", text)
    fn = cp.RawModule(path=f"{kdir}/{name}.cubin").get_function(k.group(1))
    smem = int(k.group(3))
    if smem > 48 * 1024:
        fn.max_dynamic_shared_size_bytes = smem
    grid = [int(x) for x in g.group(1).split(",")]
    grid = tuple(grid + [1] * (3 - len(grid)))

    def run(*ts):
        fn(grid, (int(k.group(2)), 1, 1),
           tuple(np.uint64(t.data_ptr()) for t in ts), shared_mem=smem)
    return run


def main():
    kdir = sys.argv[1]
    bench = "--bench" in sys.argv
    failures = 0
    for line in open(f"{kdir}/fp8.txt"):
        name, m, n, k, dt = line.split()
        m, n, k = int(m), int(n), int(k)
        tdt = torch.float8_e4m3fn if dt == "e4m3" else torch.float8_e5m2
        a = torch.randn(m, k, device="cuda").to(tdt)
        b = torch.randn(n, k, device="cuda").to(tdt)
        c = torch.full((m, n), float("nan"), device="cuda",
                       dtype=torch.bfloat16)
        run = load(kdir, name)
        run(a, b, c)
        torch.cuda.synchronize()
        ref = a.double() @ b.double().T
        err = (torch.linalg.vector_norm(c.double() - ref) /
               torch.linalg.vector_norm(ref)).item()
        ok = err < 1e-2  # bf16 output rounding
        failures += not ok
        print(f"  {'PASS' if ok else 'FAIL'} {name:<16} {m}x{n}x{k} {dt} "
              f"rel err {err:.3e}", flush=True)
        if bench and m >= 4096:
            s, e = torch.cuda.Event(True), torch.cuda.Event(True)
            for _ in range(3):
                run(a, b, c)
            s.record()
            for _ in range(20):
                run(a, b, c)
            e.record()
            e.synchronize()
            ms = s.elapsed_time(e) / 20
            line = f"  tlc {name}: {ms:.3f} ms {2 * m * n * k / ms / 1e9:.1f} TFLOP/s"
            try:
                one = torch.tensor(1.0, device="cuda")
                bt = b.T
                for _ in range(3):
                    torch._scaled_mm(a, bt, one, one, out_dtype=torch.bfloat16)
                s.record()
                for _ in range(20):
                    torch._scaled_mm(a, bt, one, one, out_dtype=torch.bfloat16)
                e.record()
                e.synchronize()
                ms2 = s.elapsed_time(e) / 20
                line += f"; torch._scaled_mm {2 * m * n * k / ms2 / 1e9:.1f} TFLOP/s"
            except Exception as ex:  # report and go on
                line += f"; torch._scaled_mm: {type(ex).__name__}"
            print(line, flush=True)
    print(f"failures: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
