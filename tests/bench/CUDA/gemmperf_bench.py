#!/usr/bin/env python3
"""Issue 14's GEMM goal in one H200 run: tlc against torch.matmul (cuBLAS).

The issue's shapes (4096^3, 8192^3, 8192x8192x1024, 16384x16384x4096 and
the skinny 16x8192x8192), NN and TN, f16 and bf16. Big shapes: the
kernel of hopper_gemm.py at the two best tilings so far (128 x 256 with two
consumer warpgroups sharing a tile, 4 stages; 128 x 128 with one
warpgroup a tile, ping-pong by default). Skinny: the programs of
skinny_gemm.py (split-K with a serial reduction by the last block, no
zeroing; split-K and stream-K with float32 atomics, timed with the zeroing
of C they need) and hopper_gemm.py's 64 x 128 tiles.

Every kernel is first checked against float64 torch (relative Frobenius
error < 1e-2, after rounding to the output dtype), at the bench shape and,
for the skinny programs, at a ragged shape too; then timed by
graph_timing.bench (CUDA-graph replays, L2 flushed, median of 30), and
torch.matmul (B.t() as a view for TN) right after it. That pair is timed
$REPS times (default 3); ratio = torch time / tlc time, the median of the
repetitions (each printed). The summary gives each configuration's
geometric mean and, per shape group, the best configuration per case.

Usage (GPU machine, python/ on PYTHONPATH, TLC_BUILD / TLC_CUDA_RUNTIME
set): gemmperf_bench.py [--build-only --shard I/N] [SECTION...] with
SECTION in big, skinny (default both).
"""

import math
import os
import statistics
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hopper_gemm  # noqa: E402
import skinny_gemm  # noqa: E402
import tilelang.language as T  # noqa: E402
from graph_timing import DIRECT, bench  # noqa: E402

BIG = {"4096": (4096, 4096, 4096), "8192": (8192, 8192, 8192),
       "8192x8192x1024": (8192, 8192, 1024),
       "16384x16384x4096": (16384, 16384, 4096)}
SKINNY = {"skinny": (16, 8192, 8192)}
# Ragged checks of the skinny programs (no dimension a multiple of a tile).
RAGGED = (40, 1000, 1000)

BIG_CONFIGS = [("hopper", dict(num_stages=4)),
               ("hopper", dict(block_N=128, threads=128, num_stages=4))]
SKINNY_CONFIGS = [("hopper", dict(block_M=64, block_N=128, threads=128, num_stages=6))]
for split in (2, 4, 8):
    for stages in (4, 6):
        SKINNY_CONFIGS.append(("serial", dict(split_k=split, num_stages=stages)))
for split in (2, 4):
    SKINNY_CONFIGS.append(("atomic", dict(split_k=split, num_stages=6)))
SKINNY_CONFIGS.append(("serial", dict(block_N=64, split_k=2, num_stages=6)))
SKINNY_CONFIGS.append(("serial", dict(split_k=3, num_stages=6)))
SKINNY_CONFIGS.append(("serial", dict(block_N=256, split_k=4, num_stages=4)))
SKINNY_CONFIGS.append(("streamk", dict(num_stages=4)))


def tdtype(dtype):
    return torch.float16 if dtype == "f16" else torch.bfloat16


class Case:
    """One program at one configuration on one problem: builds it and
    calls it the way its program asks (workspaces, zeroed outputs)."""

    def __init__(self, kind, cfg, shape, trans_b, dtype):
        self.kind, self.cfg, self.trans_b, self.dtype = kind, cfg, trans_b, dtype
        self.m, self.n, self.k = shape
        kw = dict(cfg, trans_B=trans_b,
                  dtype=T.float16 if dtype == "f16" else T.bfloat16)
        if kind == "hopper":
            self.kernel = hopper_gemm.matmul(self.m, self.n, self.k, **kw)
        elif kind == "serial":
            self.kernel = skinny_gemm.splitk_serial(self.m, self.n, self.k, **kw)
        elif kind == "atomic":
            self.kernel = skinny_gemm.splitk_atomic(self.m, self.n, self.k, **kw)
        else:
            self.kernel = skinny_gemm.streamk_atomic(self.m, self.n, self.k, **kw)

    def prepare(self, a, b):
        """Buffers the program needs besides A and B, allocated once."""
        m, n = self.m, self.n
        if self.kind == "serial":
            bm, bn = self.cfg.get("block_M", 64), self.cfg.get("block_N", 128)
            split = self.cfg.get("split_k", 4)
            self.w = torch.empty(split, m, n, dtype=torch.float32, device="cuda")
            self.lock = torch.zeros(-(-m // bm) * -(-n // bn), dtype=torch.int32, device="cuda")
        elif self.kind in ("atomic", "streamk"):
            self.c = torch.zeros(m, n, dtype=torch.float32, device="cuda")

    def __call__(self, a, b):
        if self.kind == "hopper":
            return self.kernel(a, b)
        if self.kind == "serial":
            return self.kernel(a, b, self.w, self.lock)
        self.c.zero_()  # part of the timed call: the program needs it
        self.kernel(a, b, self.c)
        return self.c


def name_of(kind, cfg):
    return kind + " " + " ".join(f"{key}={v}" for key, v in cfg.items())


def inputs(shape, trans_b, dtype, seed=0):
    m, n, k = shape
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(m, k, dtype=tdtype(dtype), device="cuda", generator=g)
    b = torch.randn(n, k, dtype=tdtype(dtype), device="cuda", generator=g) if trans_b else \
        torch.randn(k, n, dtype=tdtype(dtype), device="cuda", generator=g)
    return a, b, (b.t() if trans_b else b)


def check(case, shape, trans_b, dtype):
    """Relative Frobenius error of the case against float64 torch; run
    twice, so that a program that must leave its workspace as it found it
    (the serial split-K's counters) is checked for that too."""
    a, b, bm = inputs(shape, trans_b, dtype, seed=1)
    ref = a.double() @ bm.double()
    case.prepare(a, b)
    err = 0.0
    for _ in range(2):
        c = case(a, b)
        torch.cuda.synchronize()
        err = max(err, ((c.double() - ref).norm() / ref.norm()).item())
    return err


def run_case(shape_name, shape, trans_b, dtype, kind, cfg, reps):
    name = f"{shape_name} {'TN' if trans_b else 'NN'} {dtype} {name_of(kind, cfg)}"
    try:
        case = Case(kind, cfg, shape, trans_b, dtype)
        err = check(case, shape, trans_b, dtype)
        rerr = 0.0
        if kind != "hopper":
            ragged = Case(kind, cfg, RAGGED, trans_b, dtype)
            rerr = check(ragged, RAGGED, trans_b, dtype)
    except Exception as e:  # a configuration that does not build or run
        print(f"{name:66} FAILED {type(e).__name__}: {str(e)[:200]}", flush=True)
        return None
    ok = err < 1e-2 and rerr < 1e-2
    a, b, bm = inputs(shape, trans_b, dtype)
    case.prepare(a, b)
    ratios, times, ttimes = [], [], []
    direct = len(DIRECT)
    for _ in range(reps):
        t = bench(lambda: case(a, b))
        t_torch = bench(lambda: torch.matmul(a, bm))
        times.append(t)
        ttimes.append(t_torch)
        ratios.append(t_torch / t)
    how = "(direct) " if len(DIRECT) > direct else ""
    r = statistics.median(ratios)
    t = statistics.median(times)
    m, n, k = shape
    print(f"{name:66} {'ok' if ok else 'MISMATCH'} (rel {err:.1e}, ragged {rerr:.1e}) "
          f"tlc {how}{t:.4f} ms {2 * m * n * k / t / 1e9:5.0f} TFLOP/s | torch "
          f"{statistics.median(ttimes):.4f} ms | ratio {r:.3f} "
          f"({' '.join(f'{x:.3f}' for x in ratios)})", flush=True)
    return r if ok else None


def geomean(values):
    return math.exp(sum(math.log(r) for r in values) / len(values))


def main():
    args = sys.argv[1:]
    build_only = "--build-only" in args
    shard = (0, 1)
    if "--shard" in args:
        i, n = args[args.index("--shard") + 1].split("/")
        shard = (int(i), int(n))
        del args[args.index("--shard"):args.index("--shard") + 2]
    sections = [x for x in args if x != "--build-only"] or ["big", "skinny"]
    reps = int(os.environ.get("REPS", "3"))
    known = {"big": ("big", BIG, BIG_CONFIGS), "skinny": ("skinny", SKINNY, SKINNY_CONFIGS)}
    groups = [known[s] for s in sections if s in known]
    jobs = [(g, sname, shape, trans_b, dtype, kind, cfg)
            for g, shapes, cfgs in groups for sname, shape in shapes.items()
            for trans_b in (False, True) for dtype in ("f16", "bf16")
            for kind, cfg in cfgs]
    if build_only:
        for i, (g, sname, shape, trans_b, dtype, kind, cfg) in enumerate(jobs):
            if i % shard[1] != shard[0]:
                continue
            try:
                Case(kind, cfg, shape, trans_b, dtype)
                if kind != "hopper":
                    Case(kind, cfg, RAGGED, trans_b, dtype)
                print("built", sname, trans_b, dtype, name_of(kind, cfg), flush=True)
            except Exception as e:  # reported again by the timed run
                print("FAILED", sname, trans_b, dtype, name_of(kind, cfg), type(e).__name__,
                      str(e)[:200], flush=True)
        return
    print(torch.cuda.get_device_name(), "torch", torch.__version__, "reps", reps, flush=True)
    by_config, best = {}, {}
    for g, sname, shape, trans_b, dtype, kind, cfg in jobs:
        r = run_case(sname, shape, trans_b, dtype, kind, cfg, reps)
        if r is None:
            continue
        by_config.setdefault((g, name_of(kind, cfg)), []).append(r)
        key = (g, sname, trans_b, dtype)
        best[key] = max(best.get(key, 0), r)
    for (g, name), rs in by_config.items():
        print(f"[{g}] {name}: geometric mean {geomean(rs):.3f} over {len(rs)}, "
              f"lowest {min(rs):.3f}")
    for g in ("big", "skinny"):
        rs = [r for key, r in best.items() if key[0] == g]
        if rs:
            print(f"[{g}] best per case: geometric mean {geomean(rs):.3f} over {len(rs)}, "
                  f"lowest {min(rs):.3f}")
    if best:
        rs = list(best.values())
        print(f"all shapes, best per case: geometric mean {geomean(rs):.3f} over {len(rs)}, "
              f"lowest {min(rs):.3f}")
    for d in DIRECT:
        print("not captured:", d)


if __name__ == "__main__":
    main()
