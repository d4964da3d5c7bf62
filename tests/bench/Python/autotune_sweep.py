"""Configurations per second of a large ``@tilelang.autotune`` sweep
through python/tilelang, built one tlc-build process per configuration
and batched (tlc-build --configs, _batch; TLC_AUTOTUNE_BATCH).

The sweep is shaped like examples/amd's k-blocked attention (1,216
configurations, block_K never used, so three configurations per kernel):
a kernel of our own over ``block`` (3 values that build, 2 that tlc
refuses: more threads than a block has) and three knobs it never reads
(k_pack, swizzle, split): 5 x 2 x 2 x 4 = 80 configurations, 3 kernels.

    TLC_BUILD=build/bin/tlc-build PYTHONPATH=python \\
        python3 tests/bench/Python/autotune_sweep.py [--target cpu]

A first, unmeasured tuning fills the build cache (the host compiler builds
the 3 kernels); then each mode is tuned twice in fresh processes' worth of
state (the in-process JIT memo cleared), and the build phase and the whole
tuning are reported as configurations per second, with where the build
phase's time goes: tlc-build processes (their CPU time), this process's
CPU time. ``--target cuda:sm_90a`` measures the build phase alone with
TLC_CUDA_COMPILER=none (no GPU here: kernels are not run).
"""

import argparse
import contextlib
import io
import os
import resource
import sys
import tempfile
import time

N = 4096
BLOCKS = (64, 128, 256, 2048, 4096)


def source(target):
    return f'''
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1], target="{target}")
def axpy(n, block=64, k_pack=1, swizzle=False, split=1):
    @T.prim_func
    def main(X: T.Tensor((n,), "float32"), Y: T.Tensor((n,), "float32"),
             Z: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                if bx * block + i < n:
                    Z[bx * block + i] = X[bx * block + i] * 2 + \\
                        Y[bx * block + i]

    return main
'''


CONFIGS = [dict(block=b, k_pack=k, swizzle=s, split=p) for b in BLOCKS
           for k in (1, 2) for s in (False, True) for p in (1, 2, 4, 8)]


def cpu_seconds(who):
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--target", default="cpu")
    parser.add_argument("--rounds", type=int, default=2)
    options = parser.parse_args()
    build_only = options.target != "cpu"
    if build_only:
        os.environ["TLC_CUDA_COMPILER"] = "none"
    work = tempfile.mkdtemp(prefix="tlc-sweep-")
    os.environ.setdefault("TLC_CACHE_DIR", os.path.join(work, "cache"))
    path = os.path.join(work, "sweep_kernel.py")
    with open(path, "w") as f:
        f.write(source(options.target))
    sys.path.insert(0, work)
    import torch
    import sweep_kernel
    from tilelang import _batch, _build, _jit, autotuner
    from tilelang.autotuner import AutoTuner

    factory = sweep_kernel.axpy
    x, y = torch.randn(N), torch.randn(N)

    def reference(a, b):
        return a * 2 + b

    def build_phase(batched=False):
        """Builds every configuration as the tuner does (with ``batched``,
        its builds planned and made by tlc-build --configs first);
        seconds."""
        def attempt(cfg):
            try:
                with _build.refusals_remembered(), \
                        _jit.definition_checks_deferred():
                    return factory.compile(N, **cfg)
            except Exception:  # a refusal
                return None
        from concurrent.futures import ThreadPoolExecutor
        started = time.perf_counter()
        os.environ["TLC_AUTOTUNE_BATCH"] = "1" if batched else "0"
        planned = autotuner._plan_builds(
            CONFIGS, lambda cfg: factory.compile(N, **cfg))
        with ThreadPoolExecutor(autotuner._build_workers(len(CONFIGS))) as p:
            built = list(p.map(attempt, CONFIGS))
        _batch.discard(planned)
        return time.perf_counter() - started, built

    def forget():
        factory._compiler._cache.clear()

    def tune(share):
        autotuner._share_identical = share
        try:
            with autotuner.set_autotune_inputs(x, y), \
                    contextlib.redirect_stdout(io.StringIO()):
                return AutoTuner.from_kernel(factory, CONFIGS) \
                    .set_kernel_parameters(N) \
                    .set_profile_args(ref_prog=reference) \
                    .run(warmup=5, rep=20)
        finally:
            autotuner._share_identical = True

    seconds, built = build_phase()  # fills the build cache
    print(f"{len(CONFIGS)} configurations, "
          f"{sum(b is not None for b in built)} built, "
          f"{len({id(b) for b in built if b is not None})} kernel objects; "
          f"cold build phase {seconds:.1f} s")
    for batched in (False, True):
        name = "batched (tlc-build --configs)" if batched else \
            "one tlc-build per configuration"
        for _ in range(options.rounds):
            forget()
            c0, s0 = cpu_seconds(resource.RUSAGE_CHILDREN), \
                cpu_seconds(resource.RUSAGE_SELF)
            p0 = _build.stats["processes"] + _batch.stats["processes"]
            seconds, _ = build_phase(batched)
            c1, s1 = cpu_seconds(resource.RUSAGE_CHILDREN), \
                cpu_seconds(resource.RUSAGE_SELF)
            p1 = _build.stats["processes"] + _batch.stats["processes"]
            print(f"warm build phase, {name}: "
                  f"{len(CONFIGS) / seconds:7.1f} configs/s "
                  f"({seconds:.2f} s; {p1 - p0} tlc-build processes, CPU "
                  f"{c1 - c0:.2f} s = "
                  f"{(c1 - c0) / len(CONFIGS) * 1e3:.0f} ms a configuration, "
                  f"this process {s1 - s0:.2f} s)")
    if build_only:
        return
    for batch, name in (("0", "one tlc-build per configuration"),
                        ("1", "batched (tlc-build --configs)")):
        os.environ["TLC_AUTOTUNE_BATCH"] = batch
        for _ in range(options.rounds):
            forget()
            started = time.perf_counter()
            result = tune(True)
            seconds = time.perf_counter() - started
            torch.testing.assert_close(result.kernel(x, y), x * 2 + y)
            print(f"tuning, {name}: {len(CONFIGS) / seconds:7.1f} configs/s "
                  f"({seconds:.2f} s; best {result.config})")


if __name__ == "__main__":
    main()
