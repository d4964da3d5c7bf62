# AutoTuner.run(on_trial=sink): one record per configuration, on the
# tuning thread (TileLang's opt-in trial observer). Four configurations of
# a scale kernel on the CPU target, built so that which one fails where is
# known from the construction alone: one whose factory raises (a build
# failure), one that computes the wrong thing (fails the check against a
# NumPy reference), two right ones. The records' status / validation /
# error / latency, and the winner, are compared with that; then configs
# JSON cannot hold and long errors (the reporter), a sink that raises
# (reporting stops, tuning does not), a KeyboardInterrupt from the sink
# (propagates) and early_stop (refused with on_trial).

import threading

import numpy as np
import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
import torch
from tilelang.autotuner import AutoTuner

N = 256


def scale_kernel(block=64, bug=0):
    assert N % block == 0, f"block {block} does not divide {N}"

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(N // block, threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[bx * block + i] * 2.0 + bug

    return main


def ref_program(A):
    return torch.from_numpy(A.numpy().astype(np.float64) * 2.0).float()


CONFIGS = [
    {"block": 32, "bug": 0},
    {"block": 48, "bug": 0},   # 48 does not divide 256: the factory raises
    {"block": 64, "bug": 1},   # off by one: fails the check
    {"block": 128, "bug": 0},
]
EXPECTED = {0: ("ok", "passed"), 1: ("compile_error", "not_run"),
            2: ("benchmark_error", "failed"), 3: ("ok", "passed")}


def tuner(configs=CONFIGS, **profile):
    t = AutoTuner.from_kernel(kernel=scale_kernel, configs=configs)
    t.set_compile_args(out_idx=[-1], target="cpu")
    t.set_profile_args(ref_prog=ref_program, **profile)
    return t


def test_records():
    records, threads = [], []

    def sink(record):
        threads.append(threading.get_ident())
        records.append(record)

    result = tuner().run(warmup=1, rep=3, on_trial=sink)
    assert threads and set(threads) == {threading.get_ident()}
    assert sorted(r["index"] for r in records) == [0, 1, 2, 3]
    for r in records:
        assert set(r) == {"status", "index", "config", "latency_ms", "validation", "error"}
        assert (r["status"], r["validation"]) == EXPECTED[r["index"]]
        assert r["config"] == CONFIGS[r["index"]]
        if r["status"] == "ok":
            assert r["error"] is None and r["latency_ms"] > 0
        else:
            assert r["latency_ms"] is None and len(r["error"]) <= 2048
    by = {r["index"]: r for r in records}
    assert "does not divide" in by[1]["error"]
    best = min((by[0], by[3]), key=lambda r: r["latency_ms"])
    assert result.config == best["config"] and result.latency == best["latency_ms"]
    # The records are copies: changing one changes nothing of the tuner's.
    by[0]["config"]["block"] = 7
    assert CONFIGS[0]["block"] == 32
    # Without a reference the check is not run.
    records.clear()
    tuner(configs=[CONFIGS[0]], skip_check=True).run(warmup=1, rep=3, on_trial=records.append)
    assert [(r["status"], r["validation"]) for r in records] == [("ok", "not_run")]


def test_unreportable_config_and_failing_sink():
    from tilelang.autotuner import _TrialReporter
    # A config JSON cannot hold (an object, NaN): no record, reporting off.
    for config in ({"note": object()}, {"scale": float("nan")}):
        records = []
        reporter = _TrialReporter(records.append)
        reporter.emit("ok", 0, config, latency=1.0, validation="passed")
        reporter.emit("ok", 1, {"block": 32}, latency=1.0)
        assert records == [] and reporter.sink is None
    records = []
    _TrialReporter(records.append).emit("compile_error", 2, {"block": 48}, error="x" * 5000)
    assert records == [{"status": "compile_error", "index": 2, "config": {"block": 48},
                        "latency_ms": None, "validation": "not_run", "error": "x" * 2048}]
    calls = []

    def broken(record):
        calls.append(record)
        raise OSError("sink failed")

    result = tuner(configs=[CONFIGS[0], CONFIGS[3]]).run(warmup=1, rep=3, on_trial=broken)
    assert len(calls) == 1
    assert result.config in (CONFIGS[0], CONFIGS[3])


def test_interrupt_and_early_stop():
    def interrupted(record):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        tuner(configs=[CONFIGS[0]]).run(warmup=1, rep=3, on_trial=interrupted)
    with pytest.raises(ValueError, match="early_stop"):
        tuner().run(early_stop=True, on_trial=lambda r: None)


if __name__ == "__main__":
    tilelang.testing.main()
