#!/usr/bin/env python3
# ===- hopper_gemm_bench.py - tlc GEMMs next to cuBLAS on one GPU ---------=== #
#
# Part of the tlc project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===---------------------------------------------------------------------=== #
#
# For every tlc-build artifact directory given (one GEMM kernel taking A, B
# and C, as examples/gemm.py builds), in one process: loads NAME.cubin with
# CuPy (the CUDA driver underneath), runs it on random inputs with a
# poisoned (NaN) output, checks it against torch.matmul in float64
# (relative Frobenius error), then times it and torch.matmul (cuBLAS) on the
# same shapes and dtype with CUDA events: 10 warm-up runs, then the median
# of 50, each preceded by a write of 256 MiB that evicts the inputs from L2.
# Prints one line per artifact: TFLOP/s of both and the ratio.
#
# Usage (on the GPU machine): hopper_gemm_bench.py DIR [DIR ...]
# (a DIR named tn_* or *_tn* holds a kernel with B stored [N, K])
#
# ===---------------------------------------------------------------------=== #

import json
import os
import statistics
import sys

import cupy as cp
import numpy as np
import torch

DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16}


def load(d):
    name = [f for f in os.listdir(d) if f.endswith(".json")][0]
    m = json.load(open(f"{d}/{name}"))
    launch = m["launches"][0]
    mod = cp.RawModule(path=f"{d}/{m['binary']}")
    fn = mod.get_function(launch["entry"])
    smem = launch["dynamic_shared_memory"]
    if smem > 48 * 1024:
        fn.max_dynamic_shared_size_bytes = smem
    grid = tuple(launch["grid"] + [1] * (3 - len(launch["grid"])))
    block = tuple(launch["block"] + [1] * (3 - len(launch["block"])))
    params = {p["name"]: p for p in m["params"]}
    return m, fn, grid, block, smem, params


def timed(fn, flush, runs=50, warm=10):
    for _ in range(warm):
        fn()
    times = []
    for _ in range(runs):
        flush.zero_()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times)


def main():
    flush = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.float32, device="cuda")
    torch.manual_seed(0)
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    for d in sys.argv[1:]:
        m, fn, grid, block, smem, p = load(d)
        a_shape, b_shape, c_shape = p["A"]["shape"], p["B"]["shape"], p["C"]["shape"]
        dt = DTYPES[p["A"]["dtype"]]
        a = torch.randn(*a_shape, dtype=dt, device="cuda")
        b = torch.randn(*b_shape, dtype=dt, device="cuda")
        c = torch.full(c_shape, float("nan"), dtype=dt, device="cuda")
        M, N = c_shape
        # B stored [K, N] (NN) or, for a directory named tn_* or *_tn*,
        # [N, K] (C = A @ B^T, transpose_B=True).
        base = d.rstrip("/").split("/")[-1]
        tn = base.startswith("tn_") or "_tn" in base
        K = a_shape[1]
        bm = b.t() if tn else b

        def run_tlc():
            fn(grid, block, (np.uint64(a.data_ptr()), np.uint64(b.data_ptr()),
                             np.uint64(c.data_ptr())), shared_mem=smem)

        run_tlc()
        torch.cuda.synchronize()
        ref = a.double() @ bm.double()
        err = ((c.double() - ref).norm() / ref.norm()).item()
        ok = err < 1e-2 and not torch.isnan(c).any().item()
        ms = timed(run_tlc, flush)
        out = torch.empty(c_shape, dtype=dt, device="cuda")
        ms_ref = timed(lambda: torch.matmul(a, bm, out=out), flush)
        tf = 2 * M * N * K / ms * 1e-9
        tf_ref = 2 * M * N * K / ms_ref * 1e-9
        print(f"{d.rstrip('/').split('/')[-1]}: {M}x{N}x{K} {p['A']['dtype']} {'TN' if tn else 'NN'} "
              f"grid {grid} block {block[0]} smem {smem}: verify {'ok' if ok else 'FAIL'} "
              f"(rel err {err:.2e}); tlc {ms:.3f} ms {tf:.1f} TFLOP/s, cuBLAS {ms_ref:.3f} ms "
              f"{tf_ref:.1f} TFLOP/s, ratio {ms_ref / ms:.3f}", flush=True)


if __name__ == "__main__":
    main()
