#!/usr/bin/env python3
"""SM clock and power of a GEMM held busy, tlc against torch.matmul (issue 14).

At 4096^3 the tlc kernels keep the tensor pipe busy 83-85 % of the time
(hopper-gemm-pingpong.md, run 2) and reach 0.96 of cuBLAS. One reading
of the gap is power: a kernel that moves more bytes from L2 per FLOP
(one CTA a tile, no multicast) draws more power at the same work and runs
at a lower clock under the H200's power limit. This measures it: each
kernel is replayed back to back from a CUDA graph for SECONDS seconds
while nvidia-smi samples the SM clock and the power draw every 50 ms;
per kernel the mean clock and power over its phase (the first 0.5 s
dropped), the kernel's mean time per call, and TFLOP/s. The kernel is
checked against float64 torch first.

Usage (GPU machine, python/ on PYTHONPATH, TLC_BUILD / TLC_CUDA_RUNTIME
set): gemm_clocks.py [SECONDS]
"""

import datetime
import os
import subprocess
import sys
import tempfile
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hopper_gemm  # noqa: E402
import tilelang.language as T  # noqa: E402

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0


def hold(fn, seconds):
    """Replays fn from a CUDA graph until seconds have passed; (start,
    end, milliseconds a call)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(20):
            fn()
    torch.cuda.synchronize()
    start = time.time()
    calls = 0
    t0 = torch.cuda.Event(enable_timing=True)
    t1 = torch.cuda.Event(enable_timing=True)
    t0.record()
    while time.time() - start < seconds:
        for _ in range(5):
            graph.replay()
        calls += 100
        torch.cuda.synchronize()
    t1.record()
    torch.cuda.synchronize()
    return start, time.time(), t0.elapsed_time(t1) / calls


def main():
    m = n = k = 4096
    a = torch.randn(m, k, dtype=torch.float16, device="cuda")
    b = torch.randn(k, n, dtype=torch.float16, device="cuda")
    ref = a.double() @ b.double()
    kernels = [("tlc 128x256 4 stages", hopper_gemm.matmul(m, n, k, num_stages=4)),
               ("tlc 128x128 ping-pong", hopper_gemm.matmul(m, n, k, block_N=128, threads=128,
                                                            num_stages=4))]
    for name, kern in kernels:
        c = kern(a, b)
        err = ((c.double() - ref).norm() / ref.norm()).item()
        print(f"{name}: rel err {err:.1e} {'ok' if err < 1e-2 else 'MISMATCH'}", flush=True)
    log = tempfile.NamedTemporaryFile(suffix=".csv", delete=False).name
    smi = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu",
                            "--format=csv,noheader,nounits", "-lms", "50", "-f", log])
    time.sleep(1.0)
    phases = []
    order = [("torch.matmul", lambda: torch.matmul(a, b))] + \
        [(name, (lambda kern=kern: kern(a, b))) for name, kern in kernels]
    for rnd in range(2):
        for name, fn in (order if rnd == 0 else order[::-1]):
            start, end, ms = hold(fn, SECONDS)
            phases.append((name, start, end, ms))
            time.sleep(1.0)
    smi.terminate()
    smi.wait()
    samples = []
    for line in open(log):
        parts = [x.strip() for x in line.split(",")]
        try:
            ts = datetime.datetime.strptime(parts[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
            samples.append((ts, float(parts[1]), float(parts[2]), float(parts[3])))
        except (ValueError, IndexError):
            continue
    print(f"{len(samples)} samples", flush=True)
    print(f"{'kernel':26} {'ms/call':>8} {'TFLOP/s':>8} {'SM MHz':>7} {'W':>6} {'C':>4}")
    for name, start, end, ms in phases:
        s = [x for x in samples if start + 0.5 <= x[0] <= end]
        if not s:
            print(f"{name:26} {ms:8.4f} (no samples)")
            continue
        mean = [sum(x[i] for x in s) / len(s) for i in (1, 2, 3)]
        print(f"{name:26} {ms:8.4f} {2 * m * n * k / ms / 1e9:8.0f} {mean[0]:7.0f} "
              f"{mean[1]:6.0f} {mean[2]:4.0f}  ({len(s)} samples)", flush=True)


if __name__ == "__main__":
    main()
