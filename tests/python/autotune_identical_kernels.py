"""Configurations of a sweep that build the same kernel share one check
and one timing. `scale` takes a parameter it never uses (`unused`, as
examples/amd's k-blocked attention takes block_K), so its 3 x 2 + 1
configurations build two kernels (tlc-build's cache gives the same binary
for the same Tile IR) and one refusal (threads=4096). The tuner now checks
and times each kernel once; the other configurations get its latency and
validation. Before, each of the six was run, checked and timed. The
outcome is the same as with sharing off: the same configurations built,
refused, passed and failed, and the tuned kernel's output against torch.
CPU target, a fresh cache directory: about 20 s on a loaded 2-core host,
most of it the host compiler building the two kernels."""

import os
import tempfile

import tilelang
import tilelang.language as T
import torch
from tilelang import autotuner
from tilelang.autotuner import AutoTuner

N = 512

CONFIGS = [dict(block=b, unused=u) for b in (64, 128) for u in (1, 2, 3)]
CONFIGS.append(dict(block=4096, unused=1))  # more threads than a block has


@tilelang.jit(out_idx=[-1], target="cpu")
def scale(n, block=64, unused=1):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                if bx * block + i < n:
                    B[bx * block + i] = A[bx * block + i] * 3

    return main


def reference(a):
    return (a.double() * 3).float()


def tune(share):
    """Tunes `scale`; returns (records, kernel, timed configurations)."""
    autotuner._share_identical = share
    timed = []
    real = autotuner.do_bench

    def spy(fn, *args, **kwargs):
        timed.append(None)
        return real(fn, *args, **kwargs)

    autotuner.do_bench = spy
    records = []
    try:
        result = AutoTuner.from_kernel(scale, CONFIGS) \
            .set_kernel_parameters(N) \
            .set_profile_args(ref_prog=reference) \
            .run(warmup=1, rep=2, on_trial=records.append)
    finally:
        autotuner.do_bench = real
        autotuner._share_identical = True
    return records, result, len(timed)


def main():
    with tempfile.TemporaryDirectory(prefix="tlc-same-") as cache:
        os.environ["TLC_CACHE_DIR"] = cache
        records, result, timed = tune(share=True)
        statuses = [(r["index"], r["status"], r["validation"])
                    for r in records]
        expected = [(i, "ok", "passed") for i in range(6)] + \
            [(6, "compile_error", "not_run")]
        assert statuses == expected, statuses
        # One timing per kernel; the reference is timed once more.
        assert timed == 2 + 1, timed
        for first, same in ((0, 1), (0, 2), (3, 4), (3, 5)):
            assert records[first]["latency_ms"] == \
                records[same]["latency_ms"], (first, same)
        assert result.config in CONFIGS[:6], result.config
        a = torch.randn(N)
        torch.testing.assert_close(result.kernel(a), reference(a), rtol=0,
                                   atol=0)

        # Sharing off: every configuration timed; the same outcome.
        records_off, result_off, timed_off = tune(share=False)
        assert timed_off == 6 + 1, timed_off
        assert [(r["index"], r["status"], r["validation"])
                for r in records_off] == statuses
        torch.testing.assert_close(result_off.kernel(a), reference(a),
                                   rtol=0, atol=0)
    print("autotune_identical_kernels: ok")


if __name__ == "__main__":
    main()
