#!/usr/bin/env python3
"""Where the spread of tlc's attention timings comes from (issue 14).

Usage: fa_spread_probe.py LIBTLC_CUDA RUNTIME_PY DIR...

fa_ws_bench.py times a tlc artifact launched from Python with CUDA events
around the launch, right after a 256 MiB L2-evicting write. On the H100
its median ran up to 12% above its fastest run where cuDNN's did not
(record42-h100/run3: non-causal D128 3.65 ms median, 3.23 ms fastest).
Two explanations predict different figures:

* host gap: the launcher's Python work (argument marshalling, tensor-map
  encoding) outlasts the eviction write, so the GPU idles between the start
  event and the kernel. Then "sleep-first" timings (a GPU spin queued before
  the start event, so the whole launch is queued before the GPU reaches
  it) and CUDA-graph replays have no spread, and the launch's host time is
  about the gap.
* clocks / power: the kernel itself slows as the GPU heats. Then every
  method spreads alike, later runs are slower than earlier ones, and the
  sampled SM clock drops.

For each DIR (flash_attention_causal.py artifacts, [B, S, H, D]): the
launch's host time (perf_counter around 200 launches), then 60 runs each
timed as fa_ws_bench does ("direct"), with a spin first ("sleep-first")
and as a graph replay ("graph"), min / median / max, then 300
back-to-back timed runs (mean of the first and last 50); the same for SDPA
with the cuDNN backend. nvidia-smi samples the SM clock, power and
temperature every 50 ms meanwhile (CLOCKS_LOG)."""

import ctypes
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel


def load_runtime(path):
    spec = importlib.util.spec_from_file_location("tlc_runtime", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


FLUSH = None


def timed(fn, sleep_first=False):
    FLUSH.fill_(1)
    if sleep_first:
        torch.cuda._sleep(2_000_000)  # ~1 ms at 1.98 GHz: the launch queues
    s = torch.cuda.Event(enable_timing=True)
    e = torch.cuda.Event(enable_timing=True)
    s.record()
    fn()
    e.record()
    e.synchronize()
    return s.elapsed_time(e)


def graph_of(fn):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        fn()
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    return g.replay


def stats(ts):
    return f"min {min(ts):.4f} med {statistics.median(ts):.4f} max {max(ts):.4f}"


def probe(name, fn, host_fn=None):
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    if host_fn is not None:
        hs = []
        for _ in range(200):
            t = time.perf_counter()
            host_fn()
            hs.append((time.perf_counter() - t) * 1e6)
        torch.cuda.synchronize()
        print(f"{name:14} host launch us: min {min(hs):.1f} med "
              f"{statistics.median(hs):.1f} max {max(hs):.1f}", flush=True)
    direct = [timed(fn) for _ in range(60)]
    slept = [timed(fn, True) for _ in range(60)]
    try:
        replay = graph_of(fn)
        graph = [timed(replay) for _ in range(60)]
        gs = stats(graph)
    except Exception as ex:  # noqa: BLE001 (reported)
        gs = f"not captured: {type(ex).__name__}"
    print(f"{name:14} direct      {stats(direct)}", flush=True)
    print(f"{name:14} sleep-first {stats(slept)}", flush=True)
    print(f"{name:14} graph       {gs}", flush=True)
    run = []
    for _ in range(300):
        s = torch.cuda.Event(enable_timing=True)
        e = torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        run.append((s, e))
    torch.cuda.synchronize()
    ts = [s.elapsed_time(e) for s, e in run]
    print(f"{name:14} back-to-back 300: first 50 mean {statistics.mean(ts[:50]):.4f}"
          f" last 50 mean {statistics.mean(ts[-50:]):.4f} {stats(ts)}", flush=True)


def main():
    global FLUSH
    os.environ["TLC_CUDA_RUNTIME"] = sys.argv[1]
    rt = load_runtime(sys.argv[2])
    FLUSH = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    log = os.environ.get("CLOCKS_LOG", "/tmp/clocks.log")
    smi = subprocess.Popen(
        ["nvidia-smi", "--query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,"
         "temperature.gpu,clocks_event_reasons.active", "--format=csv", "-lms", "50"],
        stdout=open(log, "w"), stderr=subprocess.STDOUT)
    print(torch.__version__, torch.cuda.get_device_name(), flush=True)
    try:
        for d in sys.argv[3:]:
            d = d.rstrip("/")
            name = os.path.basename(d)
            mf = [f for f in os.listdir(d) if f.endswith(".json")][0]
            m = json.load(open(os.path.join(d, mf)))
            shape = [q for q in m["params"] if q["name"] == "Q"][0]["shape"]
            B, S, H, D = shape
            causal = name.startswith("fac_")
            torch.manual_seed(1)
            q, k, v = (torch.randn(*shape, dtype=torch.float16, device="cuda")
                       for _ in range(3))
            o = torch.empty(shape, dtype=torch.float16, device="cuda")
            launcher = rt.CudaLauncher(d, m, torch.cuda.current_device())
            stream = torch.cuda.current_stream().cuda_stream
            args = [ctypes.c_uint64(x.data_ptr()) for x in (q, k, v, o)]

            def run_tlc():
                launcher.launch(args, [], stream=stream)

            print(f"-- {name} ({len(m['launches'][0].get('tensor_maps', []))} tensor maps)")
            probe("tlc " + name, run_tlc, run_tlc)
            qs, ks, vs = (x.transpose(1, 2).contiguous() for x in (q, k, v))
            with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
                def run_cudnn():
                    F.scaled_dot_product_attention(qs, ks, vs, is_causal=causal)
                probe("cuDNN " + name, run_cudnn, run_cudnn)
            del q, k, v, o, qs, ks, vs
    finally:
        smi.terminate()
    lines = open(log).read().splitlines()
    print(f"clock samples: {len(lines) - 1}; first and last five:")
    print("\n".join(lines[:6] + lines[-5:]))


if __name__ == "__main__":
    main()
