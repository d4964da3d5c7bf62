#!/usr/bin/env python3
"""f16/bf16 GEMM through the Python package against torch.matmul (issue 14).

The issue's shapes (4096^3, 8192^3, 8192x8192x1024, 16384x16384x4096 and
the skinny 16x8192x8192), NN and TN, f16 and bf16, with
tests/bench/CUDA/hopper_gemm.py's kernel at the tilings listed in
CONFIGS. Each kernel is checked against float64 torch (relative Frobenius
error < 1e-2 after rounding to the output dtype is allowed for), then timed
by graph_timing.bench (CUDA-graph replays, L2 flushed, median of 30), and
torch.matmul on the same tensors (B.t() as a view for TN) right after it.
Ratio = torch time / tlc time. Run on the GPU machine with python/ on
PYTHONPATH and TLC_BUILD / TLC_CUDA_RUNTIME set; optional arguments pick
shapes by name (e.g. 4096 skinny); $CONFIGS, $DTYPES (f16,bf16) and
$LAYOUTS (NN,TN) narrow the sweep. The summary gives the geometric mean
of each configuration's ratios (by its position in the sets) and of the
best configuration per case.

--build-only [--shard I/N] builds the kernels (shard I of N: every N-th
one) into the build cache without running them, so that several
processes can fill the cache in parallel before the timed run.
"""

import math
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hopper_gemm  # noqa: E402
import tilelang.language as T  # noqa: E402
from graph_timing import DIRECT, bench  # noqa: E402

SHAPES = {"4096": (4096, 4096, 4096), "8192": (8192, 8192, 8192),
          "8192x8192x1024": (8192, 8192, 1024),
          "16384x16384x4096": (16384, 16384, 4096),
          "skinny": (16, 8192, 8192)}
# name -> factory keyword arguments (pass_configs: the decorator's, for
# that configuration). $CONFIGS=NAME[,SKINNY_NAME] picks other sets.
CONFIGS = {
    "big": [dict(), dict(num_stages=4)],
    "skinny": [dict(block_M=64, block_N=128, threads=128, num_stages=4),
               dict(block_M=64, block_N=256, threads=128, num_stages=4)],
    "sweep": [dict(num_stages=4),
              dict(num_stages=4, pass_configs={"tlc.tma_store": True}),
              dict(num_stages=4, pass_configs={"tlc.persistent": False}),
              dict(num_stages=4, panel=4), dict(num_stages=4, panel=16),
              dict(block_M=256, block_N=128, num_stages=4)],
    # tile-gemm-pingpong (docs/perf/hopper-gemm-pingpong.md): the best
    # configuration so far (128 x 256, two consumer warpgroups sharing each
    # tile, 4 stages), the same 128 x 128 tiles of one warpgroup without and
    # with ping-pong, ping-pong with the TMA-store epilogue, and 64 x 256
    # tiles per warpgroup.
    "pingpong": [dict(num_stages=4),
                 dict(block_N=128, threads=128, num_stages=4),
                 dict(block_N=128, threads=128, num_stages=4,
                      pass_configs={"tlc.gemm_pingpong": True}),
                 dict(block_N=128, threads=128, num_stages=4,
                      pass_configs={"tlc.gemm_pingpong": True, "tlc.tma_store": True}),
                 dict(block_M=64, block_N=256, threads=128, num_stages=3,
                      pass_configs={"tlc.gemm_pingpong": True})],
    # tile-gemm-cluster (docs/perf/hopper.md, 2026-12-05): today's
    # defaults (hopper_gemm.py's 128 x 256 at 3 stages, and 4 stages, the
    # best so far; 128 x 128 of one warpgroup, ping-pong by default) next
    # to the same tilings in clusters of two that multicast the shared
    # operand, and 256 x 128 in clusters (cuBLAS's tile for 4096^3; at 3
    # stages persistent, at 4 the epilogue area does not fit: not).
    "cluster": [dict(), dict(num_stages=4),
                dict(num_stages=4, pass_configs={"tlc.gemm_cluster": True}),
                dict(block_N=128, threads=128, num_stages=4),
                dict(block_N=128, threads=128, num_stages=4,
                     pass_configs={"tlc.gemm_cluster": True}),
                dict(block_M=256, block_N=128, num_stages=3,
                     pass_configs={"tlc.gemm_cluster": True}),
                dict(block_M=256, block_N=128, num_stages=4,
                     pass_configs={"tlc.gemm_cluster": True})],
    # The warp-uniform warpgroup index (docs/perf/hopper.md, 2026-12-05):
    # the two kernels whose SASS opcode mix was profiled (128 x 256 of two
    # consumer warpgroups; 128 x 128 of one, ping-pong by default).
    "uniform": [dict(num_stages=4), dict(block_N=128, threads=128, num_stages=4)],
    # perf34 (docs/perf/hopper.md, 2026-12-06): the two default tilings
    # (128 x 256 of two consumer warpgroups; 128 x 128 ping-pong, whose tile
    # loop now divides by constants), then the TMA-store epilogue, its read
    # waited for after each store or deferred to the next tile's epilogue
    # (tlc.tma_store_async; 128 x 256 at 3 stages: at 4 the epilogue's own
    # area does not fit and the kernel is not persistent).
    "perf34": [dict(num_stages=4), dict(block_N=128, threads=128, num_stages=4),
               dict(pass_configs={"tlc.tma_store": True}),
               dict(pass_configs={"tlc.tma_store": True, "tlc.tma_store_async": True}),
               dict(block_N=128, threads=128, num_stages=4,
                    pass_configs={"tlc.tma_store": True}),
               dict(block_N=128, threads=128, num_stages=4,
                    pass_configs={"tlc.tma_store": True, "tlc.tma_store_async": True})],
    # perf37 (docs/perf/hopper.md, 2026-12-06): the default TMA-store
    # epilogue with its read deferred (persistent GEMMs of >= 8 tiles a
    # multiprocessor) against the threads' stores (tlc.tma_store=False,
    # the default before perf37) in the same build: 128 x 256 at 3 stages
    # (persistent), 128 x 128 ping-pong at 4; 128 x 256 at 4 stages is not
    # persistent (its epilogue area does not fit) and unchanged.
    "perf37": [dict(), dict(pass_configs={"tlc.tma_store": False}),
               dict(block_N=128, threads=128, num_stages=4),
               dict(block_N=128, threads=128, num_stages=4,
                    pass_configs={"tlc.tma_store": False}),
               dict(num_stages=4)],
    # perf38 (docs/perf/hopper.md, 2026-12-06): the default (128 x 256 at
    # 3 stages, persistent), 4 stages (its epilogue area does not fit: one
    # tile a block) and 4 stages made persistent by tlc.persistent=True
    # with the tile stored from the registers (new in perf38); 128 x 128
    # of one warpgroup at 3 stages (ping-pong by default from perf38, whose
    # grid was half the multiprocessors when asked for before) and at 4.
    "perf38": [dict(), dict(num_stages=4),
               dict(num_stages=4, pass_configs={"tlc.persistent": True}),
               dict(block_N=128, threads=128, num_stages=3),
               dict(block_N=128, threads=128, num_stages=4)],
    # The same build's two rows perf38 changed, for main's build.
    "perf38old": [dict(), dict(block_N=128, threads=128, num_stages=3)],
    # perf39 (docs/perf/hopper.md, 2026-12-06): the default with
    # tile-gemm-wide-n (8 x 1 warps, one m64n256 wgmma a warpgroup) and
    # tile-gemm-deepen-ring (4 stages where fewer than 8 tiles a
    # multiprocessor: 4096^3), each turned off, both off (main's default),
    # and 4 stages with and without the wide partition.
    "perf39": [dict(), dict(pass_configs={"tlc.gemm_wide_n": False}),
               dict(pass_configs={"tlc.gemm_deepen_ring": False}),
               dict(pass_configs={"tlc.gemm_wide_n": False, "tlc.gemm_deepen_ring": False}),
               dict(num_stages=4),
               dict(num_stages=4, pass_configs={"tlc.gemm_wide_n": False})],
    # main's build: its default and 4 stages.
    "perf39old": [dict(), dict(num_stages=4)],
    # perf40 (docs/perf/hopper.md, 2026-12-07): the default (perf39's
    # tile-gemm-wide-n and tile-gemm-deepen-ring, never measured), each
    # off and both off; 4 stages made persistent with the tile staged in
    # column bands (tile-gemm-epilogue-bands, new) and from the registers
    # (perf38's 0.90); 4 stages one tile a block.
    "perf40": [dict(), dict(pass_configs={"tlc.gemm_wide_n": False}),
               dict(pass_configs={"tlc.gemm_deepen_ring": False}),
               dict(pass_configs={"tlc.gemm_wide_n": False, "tlc.gemm_deepen_ring": False}),
               dict(num_stages=4, pass_configs={"tlc.persistent": True}),
               dict(num_stages=4, pass_configs={"tlc.persistent": True,
                                                "tlc.gemm_epilogue_bands": False}),
               dict(num_stages=4)],
    # main's build: its default and 4 stages persistent (the register store).
    "perf40old": [dict(), dict(num_stages=4, pass_configs={"tlc.persistent": True})],
    # perf41 (docs/perf/hopper.md, 2026-12-07): the default; 4 stages
    # persistent with each column band stored by TMA (4 bands, two band
    # buffers; new), the same with 2 bands in one buffer, with the threads'
    # 16-byte band stores (perf40's), from the registers; 4 stages one tile
    # a block.
    "perf41": [dict(),
               dict(num_stages=4, pass_configs={"tlc.persistent": True}),
               dict(num_stages=4, pass_configs={"tlc.persistent": True,
                                                "tlc.gemm_epilogue_bands": 2}),
               dict(num_stages=4, pass_configs={"tlc.persistent": True,
                                                "tlc.gemm_epilogue_tma_store": False}),
               dict(num_stages=4, pass_configs={"tlc.persistent": True,
                                                "tlc.gemm_epilogue_bands": False}),
               dict(num_stages=4)],
    # main's build: its default and 4 stages persistent (the threads' band
    # stores).
    "perf41old": [dict(), dict(num_stages=4, pass_configs={"tlc.persistent": True})],
    # record42 (docs/perf/hopper.md, 2026-12-07): main's figures of record
    # on the H200: the default (one tile a block, wide + deep), the default
    # with perf39's deeper ring off (the H100 found it better), 4 stages
    # persistent (TMA column bands), 4 stages one tile a block.
    "record42": [dict(), dict(pass_configs={"tlc.gemm_deepen_ring": False}),
                 dict(num_stages=4, pass_configs={"tlc.persistent": True}),
                 dict(num_stages=4)],
    "skinny_best": [dict(block_M=64, block_N=128, threads=128, num_stages=6),
                    dict(block_M=64, block_N=128, threads=128, num_stages=4)],
    # perf35 (docs/perf/hopper.md, 2026-12-06): the skinny shape with more
    # blocks (64 x 64 tiles: 128 of them for 132 multiprocessors, against
    # 64) and deeper rings (the bytes of B in flight per multiprocessor).
    "skinny35": [dict(block_M=64, block_N=128, threads=128, num_stages=6),
                 dict(block_M=64, block_N=128, threads=128, num_stages=8),
                 dict(block_M=64, block_N=64, threads=128, num_stages=8),
                 dict(block_M=64, block_N=64, threads=128, num_stages=12)],
    "skinny_sweep": [dict(block_M=64, block_N=64, threads=128, num_stages=4),
                     dict(block_M=64, block_N=64, threads=128, num_stages=6),
                     dict(block_M=64, block_N=128, threads=128, num_stages=6),
                     dict(block_M=64, block_N=64, block_K=128, threads=128, num_stages=4)],
}


def factory_of(cfg):
    """The kernel factory and its keyword arguments for configuration cfg."""
    cfg = dict(cfg)
    factory = hopper_gemm.matmul
    if "pass_configs" in cfg:
        factory = factory._with_build_configs(cfg.pop("pass_configs"), None)
    return factory, cfg


def config_name(cfg):
    return " ".join(f"{key}={v}" for key, v in cfg.items()) \
        .replace("pass_configs=", "").replace("'", "")


def build(shape, trans_b, dtype, cfg):
    """Builds one kernel (into the cache); the kernel, or None on failure."""
    m, n, k = SHAPES[shape]
    factory, kw = factory_of(cfg)
    return factory(m, n, k, trans_B=trans_b,
                   dtype=T.float16 if dtype == "f16" else T.bfloat16, **kw)


def case(shape, trans_b, dtype, cfgs):
    """Times every configuration of cfgs on one problem; their ratios (None
    where a configuration failed or mismatched)."""
    m, n, k = SHAPES[shape]
    tdt = torch.float16 if dtype == "f16" else torch.bfloat16
    a = torch.randn(m, k, dtype=tdt, device="cuda")
    b = torch.randn(n, k, dtype=tdt, device="cuda") if trans_b else \
        torch.randn(k, n, dtype=tdt, device="cuda")
    bm = b.t() if trans_b else b
    ref = a.double() @ bm.double()
    ratios = []
    for cfg in cfgs:
        name = f"{shape} {'TN' if trans_b else 'NN'} {dtype} {config_name(cfg)}"
        try:
            kernel = build(shape, trans_b, dtype, cfg)
            c = kernel(a, b)
            torch.cuda.synchronize()
        except Exception as e:  # a configuration that does not build or run
            print(f"{name:58} FAILED {type(e).__name__}: {str(e)[:200]}", flush=True)
            ratios.append(None)
            continue
        err = ((c.double() - ref).norm() / ref.norm()).item()
        ok = "ok" if err < 1e-2 else "MISMATCH"
        direct = len(DIRECT)
        t = bench(lambda: kernel(a, b))
        how = "(direct) " if len(DIRECT) > direct else ""
        t_torch = bench(lambda: torch.matmul(a, bm))
        ratio = t_torch / t
        print(f"{name:58} {ok} (rel {err:.1e}) tlc {how}{t:.4f} ms "
              f"{2 * m * n * k / t / 1e9:5.0f} TFLOP/s | torch {t_torch:.4f} ms "
              f"ratio {ratio:.3f}", flush=True)
        ratios.append(ratio if ok == "ok" else None)
    return ratios


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
    args = [x for x in args if x != "--build-only"]
    picked = args or list(SHAPES)
    sets = (os.environ.get("CONFIGS") or "big,skinny").split(",")
    big_set, skinny_set = sets[0], sets[-1]
    dtypes = (os.environ.get("DTYPES") or "f16,bf16").split(",")
    layouts = [t == "TN" for t in (os.environ.get("LAYOUTS") or "NN,TN").split(",")]
    problems = [(shape, trans_b, dtype) for shape in picked for trans_b in layouts
                for dtype in dtypes]
    sets_of = {shape: CONFIGS[skinny_set if shape == "skinny" else big_set]
               for shape in picked}
    if build_only:
        jobs = [(p, cfg) for p in problems for cfg in sets_of[p[0]]]
        for i, (p, cfg) in enumerate(jobs):
            if i % shard[1] != shard[0]:
                continue
            try:
                build(*p, cfg)
                print("built", *p, config_name(cfg), flush=True)
            except Exception as e:  # reported again by the timed run
                print("FAILED", *p, config_name(cfg), type(e).__name__, str(e)[:200],
                      flush=True)
        return
    print(torch.cuda.get_device_name(), "torch", torch.__version__, flush=True)
    best, by_config = {}, {}
    for shape, trans_b, dtype in problems:
        ratios = case(shape, trans_b, dtype, sets_of[shape])
        key = (shape, trans_b, dtype)
        for i, r in enumerate(ratios):
            if r is None:
                continue
            best[key] = max(best.get(key, 0), r)
            by_config.setdefault((shape == "skinny", i), []).append(r)
    for (skinny, i), rs in sorted(by_config.items()):
        cfg = CONFIGS[skinny_set if skinny else big_set][i]
        print(f"configuration {config_name(cfg) or '(defaults)'}"
              f"{' (skinny)' if skinny else ''}: geometric mean {geomean(rs):.3f} "
              f"over {len(rs)}, lowest {min(rs):.3f}")
    if best:
        print(f"best tiling per shape: geometric mean {geomean(list(best.values())):.3f} "
              f"over {len(best)}, lowest {min(best.values()):.3f}")
    for d in DIRECT:
        print("not captured:", d)


if __name__ == "__main__":
    main()
