#!/usr/bin/env python3
"""Times tlc FlashAttention artifacts next to torch SDPA in one process.

Usage: fa_ws_bench.py LIBTLC_CUDA RUNTIME_PY DIR...

Each DIR is a `tlc-build --target=cuda:sm_90a` artifact of
examples/flash_attention_fwd.py (names fa_*: Q, K, V, Output [B, H, S, D])
or examples/flash_attention_causal.py (names fac_*: [B, S, H, D], causal;
facn_*: the same program built with is_causal=False),
launched through python/tilelang/_runtime.py's CudaLauncher (the
manifest's block size and TMA tensor maps, as the Python package launches
them) on torch's current stream. For every kernel: fresh random f16
inputs, the output poisoned (NaN), then heads 0 and 1 of batches 0 and B-1
checked against float64 torch (softmax(Q K^T / sqrt(D)) V, causal mask for
fac_*; relative Frobenius error < 1e-2, and no NaN anywhere in Output), then
5 warm-up runs and the median of 30 timed runs, CUDA events around the
launch alone, a 256 MiB buffer written before each run to evict L2. The
peers, timed the same way in the same process on [B, H, S, D] tensors of
the same shape: scaled_dot_product_attention with the cuDNN backend and
with the flash backend. Ratio = SDPA time / tlc time (> 1: tlc faster).
TFLOP/s count 4 B H S^2 D (half of it when causal).
"""

import ctypes
import importlib.util
import json
import os
import statistics
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel


def load_runtime(path):
    spec = importlib.util.spec_from_file_location("tlc_runtime", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def time_it(fn, flush, warmup=5, runs=30):
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


def reference(q, k, v, causal):
    """float64 attention of [S, D] slices."""
    q, k, v = q.double(), k.double(), v.double()
    s = (q @ k.t()) / q.shape[-1] ** 0.5
    if causal:
        n = s.shape[0]
        mask = torch.ones(n, n, dtype=torch.bool, device=s.device).tril()
        s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, dim=-1) @ v


def main():
    os.environ["TLC_CUDA_RUNTIME"] = sys.argv[1]
    rt = load_runtime(sys.argv[2])
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    print(torch.__version__, torch.cuda.get_device_name())
    print(f"{'kernel':28} {'block':>5} {'rel_err':>9} {'tlc ms':>8} {'TFLOP/s':>8} "
          f"{'cuDNN ms':>8} {'flash ms':>8} {'/cuDNN':>7} {'/flash':>7}")
    peers = {}
    for d in sys.argv[3:]:
        d = d.rstrip("/")
        name = os.path.basename(d)
        manifest = [f for f in os.listdir(d) if f.endswith(".json")][0]
        m = json.load(open(os.path.join(d, manifest)))
        shape = [q for q in m["params"] if q["name"] == "Q"][0]["shape"]
        causal = name.startswith("fac_") or "_fac_" in name
        bshd = causal or name.startswith("facn_") or "_facn_" in name
        if bshd:
            B, S, H, D = shape
        else:
            B, H, S, D = shape
        torch.manual_seed(1)
        q, k, v = (torch.randn(*shape, dtype=torch.float16, device="cuda") for _ in range(3))
        o = torch.full(shape, float("nan"), dtype=torch.float16, device="cuda")
        launcher = rt.CudaLauncher(d, m, torch.cuda.current_device())
        stream = torch.cuda.current_stream().cuda_stream
        args = [ctypes.c_uint64(x.data_ptr()) for x in (q, k, v, o)]

        def run_tlc():
            launcher.launch(args, [], stream=stream)

        run_tlc()
        torch.cuda.synchronize()
        ok = not torch.isnan(o).any().item()
        num = den = 0.0
        for b in (0, B - 1):
            for h in (0, 1):
                sl = (lambda x: x[b, :, h]) if bshd else (lambda x: x[b, h])
                ref = reference(sl(q), sl(k), sl(v), causal)
                num += (sl(o).double() - ref).norm().item() ** 2
                den += ref.norm().item() ** 2
        err = (num / den) ** 0.5
        ok = ok and err < 1e-2
        tl_med, tl_min = time_it(run_tlc, flush)
        key = (B, H, S, D, causal)
        if key not in peers:
            qs, ks, vs = (torch.randn(B, H, S, D, dtype=torch.float16, device="cuda")
                          for _ in range(3))
            row = []
            for backend in (SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION):
                with sdpa_kernel([backend]):
                    row.append(time_it(lambda: F.scaled_dot_product_attention(
                        qs, ks, vs, is_causal=causal), flush)[0])
            peers[key] = row
            del qs, ks, vs
        cudnn, flash = peers[key]
        flops = 4.0 * B * H * S * S * D / (2 if causal else 1)
        block = m["launches"][0]["block"][0]
        print(f"{name:28} {block:5} {err:9.2e} {tl_med:8.4f} {flops / tl_med * 1e-9:8.1f} "
              f"{cudnn:8.4f} {flash:8.4f} {cudnn / tl_med:7.3f} {flash / tl_med:7.3f}"
              f"{'' if ok else '  WRONG'}  (min {tl_min:.4f})", flush=True)
        del q, k, v, o


if __name__ == "__main__":
    main()
