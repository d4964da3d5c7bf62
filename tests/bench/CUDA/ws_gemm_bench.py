#!/usr/bin/env python3
"""Times tlc GEMM artifacts next to torch.matmul (cuBLAS) in one process.

Usage: ws_gemm_bench.py LIBTLC_CUDA RUNTIME_PY DIR...

Each DIR is a `tlc-build --target=cuda:sm_90a` artifact of
tests/bench/CUDA/hopper_gemm.py (A [M, K], B [K, N] or [N, K] for *tn_*,
C [M, N]). The kernels are launched through python/tilelang/_runtime.py's
CudaLauncher (the manifest's block size and TMA tensor maps, as the Python
package launches them) on torch's current stream. For every kernel: fresh
random inputs, the output poisoned (NaN) and checked against float64 torch
(relative Frobenius error), then 10 warm-up runs and the median of 50 timed
runs, CUDA events around the launch alone, a 256 MiB buffer written before
each run to evict L2; torch.matmul on the same tensors (B.t() as a view for
TN) is timed the same way right after, in the same process. Ratio = torch
time / tlc time (> 1: tlc faster).
"""

import ctypes
import importlib.util
import json
import os
import statistics
import sys

import torch


def load_runtime(path):
    spec = importlib.util.spec_from_file_location("tlc_runtime", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def time_it(fn, flush, warmup=10, runs=50):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        flush.fill_(1)
        s = torch.cuda.Event(enable_timing=True)
        e = torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times), min(times)


def main():
    os.environ["TLC_CUDA_RUNTIME"] = sys.argv[1]
    rt = load_runtime(sys.argv[2])
    dt = {"float16": torch.float16, "bfloat16": torch.bfloat16}
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    print(torch.__version__, torch.cuda.get_device_name())
    print(f"{'kernel':34} {'block':>5} {'rel_err':>9} {'tlc ms':>8} {'TFLOP/s':>8} "
          f"{'torch ms':>8} {'TFLOP/s':>8} {'ratio':>6}")
    ratios = []
    for d in sys.argv[3:]:
        d = d.rstrip("/")
        name = os.path.basename(d)
        manifest = [f for f in os.listdir(d) if f.endswith(".json")][0]
        m = json.load(open(os.path.join(d, manifest)))
        p = {q["name"]: q for q in m["params"]}
        t = dt[p["A"]["dtype"]]
        A, B, C = p["A"]["shape"], p["B"]["shape"], p["C"]["shape"]
        tn = "tn_" in name
        torch.manual_seed(len(ratios) + 1)
        a = torch.randn(*A, dtype=t, device="cuda")
        b = torch.randn(*B, dtype=t, device="cuda")
        c = torch.full(C, float("nan"), dtype=t, device="cuda")
        launcher = rt.CudaLauncher(d, m, torch.cuda.current_device())
        stream = torch.cuda.current_stream().cuda_stream
        args = [ctypes.c_uint64(x.data_ptr()) for x in (a, b, c)]

        def run_tlc():
            launcher.launch(args, [], stream=stream)

        run_tlc()
        torch.cuda.synchronize()
        ref = a.double() @ (b.double().t() if tn else b.double())
        err = ((c.double() - ref).norm() / ref.norm()).item()
        ok = err == err and err < 1e-2
        f = (lambda: a @ b.t()) if tn else (lambda: a @ b)
        tl_med, tl_min = time_it(run_tlc, flush)
        th_med, th_min = time_it(f, flush)
        flops = 2.0 * A[0] * C[1] * A[1]
        ratio = th_med / tl_med
        if ok:
            ratios.append((name, ratio))
        block = m["launches"][0]["block"][0]
        print(f"{name:34} {block:5} {err:9.2e} {tl_med:8.4f} {flops / tl_med * 1e-9:8.1f} "
              f"{th_med:8.4f} {flops / th_med * 1e-9:8.1f} {ratio:6.3f}"
              f"{'' if ok else '  WRONG'}  (min {tl_min:.4f} / {th_min:.4f})", flush=True)
    if ratios:
        g = 1.0
        for _, r in ratios:
            g *= r
        print(f"geomean ratio over {len(ratios)} correct kernels: "
              f"{g ** (1.0 / len(ratios)):.3f}")


if __name__ == "__main__":
    main()
