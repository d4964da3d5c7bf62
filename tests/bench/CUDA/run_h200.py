#!/usr/bin/env python3
# ===- run_h200.py - Verify and benchmark tlc CUDA kernels on a GPU ------=== #
#
# Part of the tlc project.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===---------------------------------------------------------------------=== #
#
# Loads the cubins that tests/bench/CUDA/build_kernels.sh wrote (CuPy's
# RawModule, the CUDA driver underneath), runs them on fresh random inputs
# with poisoned (NaN / 0xFF) outputs, and compares every output with an
# independent PyTorch computation in float64. Then times, in the same
# process and with CUDA events (median of N), tlc kernels next to their
# peers: device copy bandwidth (every row kernel's percentage is of it),
# torch.softmax and F.rms_norm, torch.matmul (cuBLAS) fp16/bf16 next to
# tlc's fp16 and bf16 GEMMs at 4096^3 and 8192^3, and
# scaled_dot_product_attention with the cuDNN and flash backends.
#
# Usage (on the GPU machine):
#   python3 tests/bench/CUDA/run_h200.py KERNEL_DIR [--verify] [--bench]
#       [--only NAME,NAME] [--dry-run]
# --dry-run (no GPU, CuPy or PyTorch needed) lists what would be verified and
# benchmarked. A kernel that fails to load or verify is reported and the
# others go on.
#
# ===---------------------------------------------------------------------=== #

import argparse
import math
import re
import statistics
import sys

import numpy as np

# CuPy and PyTorch are imported by load_gpu_modules() (not for --dry-run).
cp = torch = F = None
DEV = "cuda"


def load_gpu_modules():
    global cp, torch, F
    import cupy
    import torch as torch_module
    import torch.nn.functional as functional
    cp, torch, F = cupy, torch_module, functional


def is_bench_kernel(name):
    """Kernels at benchmark sizes, not part of the verification."""
    return name.endswith("_bench") or re.fullmatch(r"gemm(_\w+)?_\d+", name)


class Kernel:
    """One tlc kernel: entry, launch geometry and the loaded function."""

    def __init__(self, kdir, name):
        self.name = name
        text = open(f"{kdir}/{name}.launch").read()
        k = re.search(r"kernel (\S+) threads (\d+) smem (\d+)", text)
        g = re.search(r"grid \[([0-9, ]*)\] threads \[(\d+)\]", text)
        if not k or not g:
            raise RuntimeError(f"{name}: no launch information")
        self.entry = k.group(1)
        self.threads = int(k.group(2))
        self.smem = int(k.group(3))
        grid = [int(x) for x in g.group(1).split(",")]
        self.grid = tuple(grid + [1] * (3 - len(grid)))
        self.module = cp.RawModule(path=f"{kdir}/{name}.cubin")
        self.fn = self.module.get_function(self.entry)
        if self.smem > 48 * 1024:
            self.fn.max_dynamic_shared_size_bytes = self.smem

    def __call__(self, *tensors):
        args = tuple(np.uint64(t.data_ptr()) for t in tensors)
        self.fn(self.grid, (self.threads, 1, 1), args, shared_mem=self.smem)


def rel_err(out, ref):
    out = out.double()
    ref = ref.double()
    if torch.isnan(out).any():
        return float("nan")
    return (torch.linalg.vector_norm(out - ref) /
            max(torch.linalg.vector_norm(ref).item(), 1e-30)).item()


def poisoned(shape, dtype):
    t = torch.empty(shape, dtype=dtype, device=DEV)
    if dtype.is_floating_point and t.element_size() >= 2:
        t.fill_(float("nan"))
    else:
        t.view(torch.uint8).fill_(0xFF)
    return t


def dims(mlir_path):
    """The static shapes of the kernel's global parameters."""
    text = open(mlir_path).read()
    sig = re.search(r"tile\.func @\w+\((.*?)\)(?: attributes \{[^}]*\})? \{",
                    text).group(1)
    return [[int(x) for x in s.split(",")]
            for s in re.findall(r"buffer<\[([0-9, ]*)\]", sig)]


# ---------------------------------------------------------------- checks --

def check_ew(k, shapes):
    m, n = shapes[0]
    a = torch.randn(m, n, device=DEV)
    b = torch.randn(m, n, device=DEV)
    c = poisoned((m, n), torch.float32)
    k(a, b, c)
    return rel_err(c, a.double() + b.double()), 1e-6


def check_softmax(k, shapes):
    m, n = shapes[0]
    x = torch.randn(m, n, device=DEV).half()
    y = poisoned((m, n), torch.float16)
    k(x, y)
    return rel_err(y, torch.softmax(x.double(), -1)), 5e-3


def check_rmsnorm(k, shapes):
    m, n = shapes[0]
    x = torch.randn(m, n, device=DEV).half()
    w = torch.randn(n, device=DEV).half()
    y = poisoned((m, n), torch.float16)
    k(x, w, y)
    xd = x.double()
    ref = xd * torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + 1e-6) * w.double()
    return rel_err(y, ref), 5e-3


def check_layernorm(k, shapes):
    m, n = shapes[0]
    x = torch.randn(m, n, device=DEV).half()
    g = torch.randn(n, device=DEV).half()
    b = torch.randn(n, device=DEV).half()
    y = poisoned((m, n), torch.float16)
    k(x, g, b, y)
    ref = F.layer_norm(x.double(), (n,), g.double(), b.double(), 1e-5)
    return rel_err(y, ref), 5e-3


def check_transpose(k, shapes):
    m, n = shapes[0]
    x = torch.randn(m, n, device=DEV)
    y = poisoned((n, m), torch.float32)
    k(x, y)
    return rel_err(y, x.t()), 0.0


def check_cumsum(k, shapes):
    b, t, h = shapes[0]
    x = torch.randn(b, t, h, device=DEV)
    y = poisoned((b, t, h), torch.float32)
    k(x, y)
    chunk = 64
    pad = (-t) % chunk
    xp = F.pad(x.double(), (0, 0, 0, pad)).view(b, -1, chunk, h)
    ref = xp.cumsum(2).view(b, -1, h)[:, :t]
    return rel_err(y, ref), 1e-6


def check_quant(k, shapes):
    m, n = shapes[0]
    x = torch.randn(m, n, device=DEV).bfloat16()
    q = poisoned((m, n), torch.uint8)
    s = poisoned((m,), torch.float32)
    k(x, q, s)
    xd = x.double()
    amax = xd.abs().amax(1).clamp(min=1e-4)
    scale = amax / 448.0
    qref = (xd / scale[:, None]).clamp(-448, 448)
    qf = q.view(torch.float8_e4m3fn).double()
    return max(rel_err(s, scale), rel_err(qf, qref)), 4e-2


def check_gemm(k, shapes):
    (m, kk), (_, n) = shapes[0], shapes[1]
    dt = torch.bfloat16 if "bf16" in k.name else torch.float16
    a = torch.randn(m, kk, device=DEV).to(dt)
    b = torch.randn(kk, n, device=DEV).to(dt)
    c = poisoned((m, n), dt)
    k(a, b, c)
    # The output is rounded to the dtype: bf16 keeps 8 mantissa bits.
    return rel_err(c, a.double() @ b.double()), (
        8e-3 if dt == torch.bfloat16 else 2e-3)


def attention_ref(q, k, v, causal):
    # q, k, v: [b, h, s, d] float64
    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    if causal:
        n = s.shape[-1]
        mask = torch.ones(n, n, dtype=torch.bool, device=DEV).tril()
        s = s.masked_fill(~mask, float("-inf"))
    return torch.softmax(s, -1) @ v


def check_fa(k, shapes):
    b, h, s, d = shapes[0]
    q, kk, v = (torch.randn(b, h, s, d, device=DEV).half() for _ in range(3))
    o = poisoned((b, h, s, d), torch.float16)
    k(q, kk, v, o)
    return rel_err(o, attention_ref(q.double(), kk.double(), v.double(),
                                    False)), 5e-3


def check_fac(k, shapes):
    b, s, h, d = shapes[0]
    q, kk, v = (torch.randn(b, s, h, d, device=DEV).half() for _ in range(3))
    o = poisoned((b, s, h, d), torch.float16)
    k(q, kk, v, o)
    t = lambda x: x.double().transpose(1, 2)
    ref = attention_ref(t(q), t(kk), t(v), True).transpose(1, 2)
    return rel_err(o, ref), 5e-3


# Row-wise benchmarks: kernel (build_kernels.sh name), M, N, label. The
# bytes counted are x + y, as for the copy peer.
ROW_BENCH = (
    ("softmax_bench", 4096, 8192, "tlc softmax"),
    ("softmax_rows_bench", 4096, 8192, "tlc softmax_rows bM=1 t=256"),
    ("softmax_rows_16k_bench", 16384, 8192, "tlc softmax_rows bM=1 t=256"),
    ("softmax_rows_t512_bench", 4096, 8192, "tlc softmax_rows bM=1 t=512"),
    ("softmax_rows_b2_bench", 4096, 8192, "tlc softmax_rows bM=2 t=256"),
    ("rmsnorm_bench", 8192, 4096, "tlc rms_norm bM=1 t=128"),
    ("rmsnorm_t256_bench", 8192, 4096, "tlc rms_norm bM=1 t=256"),
    ("rmsnorm_b2_bench", 8192, 4096, "tlc rms_norm bM=2 t=128"),
)

CHECKS = {
    "ew": check_ew, "softmax": check_softmax, "rmsnorm": check_rmsnorm,
    "layernorm": check_layernorm, "transpose": check_transpose,
    "cumsum": check_cumsum, "quant": check_quant, "gemm": check_gemm,
    "fa": check_fa, "fac": check_fac,
}

# ----------------------------------------------------------------- bench --


_l2_flush = None


def bench(fn, iters=20, warmup=3):
    """Median device time of fn() in ms. Before each timed call a 256 MiB
    write evicts the L2 (the row kernels' 64 MiB inputs would otherwise be
    partly L2 resident, unlike the 1 GiB copy peer's), and a device-side
    sleep keeps the GPU busy while the host enqueues the start event, fn()
    and the end event, so a launch that takes the host longer than a short
    kernel runs (CuPy, PyTorch: ~10 us) is not timed as device time."""
    global _l2_flush
    if _l2_flush is None:
        _l2_flush = torch.empty(256 << 20, dtype=torch.uint8, device=DEV)
    sleep = getattr(torch.cuda, "_sleep", None)
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        s = torch.cuda.Event(enable_timing=True)
        e = torch.cuda.Event(enable_timing=True)
        _l2_flush.zero_()
        if sleep is not None:
            sleep(1 << 20)  # ~0.5 ms of cycles
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times)


def config_label(kdir, name):
    """The tiling of a kernel: its -D bindings other than sizes and dtype
    (written by build_kernels.sh as NAME.defs), "defaults" when none."""
    try:
        defs = open(f"{kdir}/{name}.defs").read().split()
    except OSError:
        return name
    keep = [d for d in defs if d != "-D" and not re.match(
        r"(m|n|k|batch|heads|seq_len|dim|dtype)=", d)]
    return " ".join(keep) or "defaults"


def row(label, ms, value, unit, peer=None):
    extra = f"  ({100 * value / peer:.1f}% of peer)" if peer else ""
    print(f"  {label:<56} {ms:9.3f} ms {value:10.1f} {unit}{extra}",
          flush=True)


def run_bench(kdir, names):
    print("== bench (median of 20 CUDA-event timings, random inputs, L2 "
          "flushed and the launch queued behind a device sleep)")
    n = 1 << 28  # 1 GiB of f32 per buffer
    src = torch.randn(n, device=DEV)
    dst = torch.empty_like(src)
    ms = bench(lambda: dst.copy_(src))
    copy_bw = 2 * n * 4 / ms / 1e6
    row("device copy (torch copy_, 1 GiB, r+w)", ms, copy_bw, "GB/s")
    del src, dst
    # Context for the row kernels: copies of their sizes (64 and 256 MiB
    # each way); the percentages below are all of the 1 GiB copy.
    for mib in (64, 256):
        src = torch.randn(mib << 18, device=DEV)
        dst = torch.empty_like(src)
        ms = bench(lambda: dst.copy_(src))
        row(f"device copy (torch copy_, {mib} MiB, r+w)", ms,
            2 * (mib << 20) / ms / 1e6, "GB/s", copy_bw)
        del src, dst
    if "ew_bench" in names:
        k = Kernel(kdir, "ew_bench")
        m = 16384
        a, b = torch.randn(m, m, device=DEV), torch.randn(m, m, device=DEV)
        c = torch.empty_like(a)
        ms = bench(lambda: k(a, b, c))
        row("tlc elementwise_add 16384^2 f32 (3 x 1 GiB)", ms,
            3 * m * m * 4 / ms / 1e6, "GB/s", copy_bw)
        del a, b, c
    # Row kernels: bytes = x + y (W is 8 KiB, read from L2).
    rows = [r for r in ROW_BENCH if r[0] in names]
    for name, m, n, label in rows:
        try:
            k = Kernel(kdir, name)
            x = torch.randn(m, n, device=DEV).half()
            y = torch.empty_like(x)
            if name.startswith("softmax"):
                ms = bench(lambda: k(x, y))
            else:
                w = torch.randn(n, device=DEV).half()
                ms = bench(lambda: k(x, w, y))
            row(f"{label} {m}x{n} f16 (bytes: x + y)", ms,
                2 * m * n * 2 / ms / 1e6, "GB/s", copy_bw)
        except Exception as e:  # report and go on
            print(f"  tlc {name}: {type(e).__name__}: {e}", flush=True)
    for prefix, m, n in (("softmax", 4096, 8192), ("rmsnorm", 8192, 4096)):
        if not any(r[0].startswith(prefix) for r in rows):
            continue
        x = torch.randn(m, n, device=DEV).half()
        if prefix == "softmax":
            ms = bench(lambda: torch.softmax(x, -1))
            label = f"torch.softmax {m}x{n} f16"
        else:
            w = torch.randn(n, device=DEV).half()
            if hasattr(F, "rms_norm"):
                ms = bench(lambda: F.rms_norm(x, (n,), w, 1e-6))
                label = f"torch F.rms_norm {m}x{n} f16"
            else:  # older PyTorch: the same formula in eager ops
                ms = bench(lambda: x * torch.rsqrt(
                    x.float().pow(2).mean(-1, keepdim=True) + 1e-6).half() * w)
                label = f"torch eager rms_norm {m}x{n} f16"
        row(label, ms, 2 * m * n * 2 / ms / 1e6, "GB/s", copy_bw)
    for size in (4096, 8192):
        flops = 2 * size ** 3
        peers = {}
        for dt in (torch.float16, torch.bfloat16):
            a = torch.randn(size, size, device=DEV).to(dt)
            b = torch.randn(size, size, device=DEV).to(dt)
            ms = bench(lambda: torch.matmul(a, b))
            peers[dt] = flops / ms / 1e9
            row(f"torch.matmul (cuBLAS) {size}^3 {str(dt)[6:]}", ms,
                peers[dt], "TFLOP/s")
        # Every GEMM configuration build_kernels.sh made at this size; the
        # label is the example's -D bindings beyond the sizes and dtype.
        for name in (n for n in names if n.startswith("gemm_")
                     and n.endswith(f"_{size}")):
            dt = torch.bfloat16 if "_bf16" in name else torch.float16
            try:
                k = Kernel(kdir, name)
                a = torch.randn(size, size, device=DEV).to(dt)
                b = torch.randn(size, size, device=DEV).to(dt)
                c = torch.empty(size, size, device=DEV).to(dt)
                ms = bench(lambda: k(a, b, c))
                row(f"tlc gemm {size}^3 {str(dt)[6:]} ({config_label(kdir, name)})",
                    ms, flops / ms / 1e9, "TFLOP/s", peers[dt])
                del a, b, c
            except Exception as e:  # report and go on
                print(f"  tlc {name}: {type(e).__name__}: {e}", flush=True)
    B, H, S, D = 8, 32, 4096, 128
    from torch.nn.attention import SDPBackend, sdpa_kernel
    q, kk, v = (torch.randn(B, H, S, D, device=DEV).half() for _ in range(3))
    for causal in (False, True):
        flops = 4 * B * H * S * S * D / (2 if causal else 1)
        peer = None
        for backend in (SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION):
            try:
                with sdpa_kernel([backend]):
                    ms = bench(lambda: F.scaled_dot_product_attention(
                        q, kk, v, is_causal=causal))
                tf = flops / ms / 1e9
                if peer is None:
                    peer = tf
                row(f"sdpa {backend.name} causal={causal}", ms, tf, "TFLOP/s")
            except RuntimeError as err:
                print(f"  sdpa {backend.name} causal={causal}: {err}")
        prefix = "fac_" if causal else "fa_"
        for name in (n for n in names
                     if n.startswith(prefix) and n.endswith("_bench")):
            label = config_label(kdir, name)
            k = Kernel(kdir, name)
            o = torch.empty_like(q)
            if causal:  # this example takes [B, S, H, D]
                qs, ks, vs = (t.transpose(1, 2).contiguous()
                              for t in (q, kk, v))
                ms = bench(lambda: k(qs, ks, vs, o), iters=10)
            else:
                ms = bench(lambda: k(q, kk, v, o), iters=10)
            row(f"tlc flash attention causal={causal} ({label})", ms,
                flops / ms / 1e9, "TFLOP/s", peer)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("kdir")
    p.add_argument("--verify", action="store_true")
    p.add_argument("--bench", action="store_true")
    p.add_argument("--only", default="")
    p.add_argument("--dry-run", action="store_true")
    args = p.parse_args()
    try:
        names = [l.split()[0] for l in open(f"{args.kdir}/timing.txt")]
    except OSError as e:
        print(f"no kernels: {e} (run build_kernels.sh first)")
        return 1
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    if args.dry_run:
        if args.verify:
            for name in names:
                if not is_bench_kernel(name):
                    kind = name.split("_")[0]
                    print(f"would verify {name} ({'check_' + kind if kind in CHECKS else 'NO CHECK'})")
        if args.bench:
            for name in names:
                if is_bench_kernel(name):
                    print(f"would bench {name}")
            print("would bench peers: copy bandwidth, torch.softmax 4096x8192, "
                  "F.rms_norm 8192x4096, torch.matmul float16 "
                  "and bfloat16 at 4096^3 and 8192^3, sdpa cuDNN and flash")
        return 0
    load_gpu_modules()
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__},"
          f" cupy {cp.__version__}", flush=True)
    failures = 0
    if args.verify:
        print("== verify (fresh random inputs, poisoned outputs, float64 "
              "PyTorch reference)")
        torch.manual_seed(int.from_bytes(np.random.bytes(4), "little"))
        for name in names:
            if is_bench_kernel(name):
                continue
            kind = name.split("_")[0]
            k = None
            try:
                k = Kernel(args.kdir, name)
                err, tol = CHECKS[kind](k, dims(f"{args.kdir}/{name}.mlir"))
                torch.cuda.synchronize()
                ok = err <= tol or (tol == 0.0 and err == 0.0)
            except Exception as e:  # report and go on
                err, tol, ok = float("nan"), 0, False
                print(f"  {name}: {type(e).__name__}: {e}")
            failures += not ok
            where = (f" grid {k.grid} threads {k.threads} smem {k.smem}"
                     if k else "")
            print(f"  {'PASS' if ok else 'FAIL'} {name:<18} rel err {err:.3e}"
                  f" (tol {tol:g}){where}", flush=True)
    if args.bench:
        try:
            run_bench(args.kdir, names)
        except Exception as e:  # the verification results still count
            print(f"bench stopped: {type(e).__name__}: {e}", flush=True)
            failures += 1
    print(f"failures: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
