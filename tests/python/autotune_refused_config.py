# The autotuner builds every configuration at once and skips one the
# compiler refuses, naming it with tlc's diagnostic (threads=2048 exceeds the
# 1024 threads a block may have), while the others are checked against torch
# and timed. A refused configuration is remembered: a later tuning of the
# same instances -- in this process, or from the cache directory after the
# in-memory record is gone -- skips it without running tlc-build again
# (_build.stats["refusals_skipped"]), and still names it. The prim_func of
# each configuration is not checked a second time where it is defined (one
# tlc-build run a configuration, not two).

import contextlib
import io
import subprocess
import tempfile

import tilelang
import tilelang.language as T
import torch
from tilelang import _build
from tilelang.autotuner import AutoTuner

N = 256
CONFIGS = [{"block": 32}, {"block": 2048}, {"block": 64}]


def scale_kernel(block=None):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            S = T.alloc_shared((block,), "float32")
            T.copy(A[bx * block], S)
            for i in T.Parallel(block):
                if bx * block + i < N:
                    B[bx * block + i] = S[i] * 3

    return main


def ref_program(A):
    return A * 3


def tune():
    """One tuning run: (result, its log, tlc-build processes it ran)."""
    runs = []
    original = subprocess.run

    def counting(cmd, *args, **kwargs):
        if "--check" not in cmd and "--emit=tile" not in cmd:
            runs.append(cmd)
        return original(cmd, *args, **kwargs)
    out = io.StringIO()
    subprocess.run = counting
    try:
        with contextlib.redirect_stdout(out):
            result = AutoTuner.from_kernel(
                kernel=scale_kernel, configs=CONFIGS).set_compile_args(
                    out_idx=[-1], target="cpu").set_profile_args(
                        ref_prog=ref_program).run(warmup=1, rep=2)
    finally:
        subprocess.run = original
    return result, out.getvalue(), runs


def check(result, log):
    assert result.config in (CONFIGS[0], CONFIGS[2]), result.config
    a = torch.randn(N)
    torch.testing.assert_close(result.kernel(a), a * 3, rtol=0, atol=0)
    by_config = {repr(c): msg for c, _, msg in result.results}
    refused = by_config[repr(CONFIGS[1])]
    assert refused.startswith("build failed:"), refused
    assert by_config[repr(CONFIGS[0])] is None
    assert by_config[repr(CONFIGS[2])] is None
    named = [line for line in log.splitlines() if "{'block': 2048}" in line]
    assert named and "build failed" in named[0], log
    assert "built 2 of 3 configurations" in log, log
    return refused


def test_refused_configuration_skipped():
    # A cache of its own: the first tuning must build all three
    # configurations even when ctest runs again on the same build tree
    # (the refusal remembered by the previous run would be skipped).
    from tilelang.env import env
    env.TILELANG_CACHE_DIR = tempfile.mkdtemp(prefix="tlc-refused-config-")
    torch.manual_seed(0)
    checks = []
    original = subprocess.run

    def spy(cmd, *args, **kwargs):
        if "--check" in cmd:
            checks.append(cmd)
        return original(cmd, *args, **kwargs)
    subprocess.run = spy
    try:
        result, log, runs = tune()
    finally:
        subprocess.run = original
    first = check(result, log)
    assert "1024" in first, first  # tlc's diagnostic: the thread limit
    assert len(runs) == 3, runs  # one build a configuration
    assert not checks, checks  # no definition-time --check per config
    assert _build.stats["refusals_skipped"] == 0

    # Again: the refused configuration is not built, and still named.
    result, log, runs = tune()
    again = check(result, log)
    assert _build.stats["refusals_skipped"] == 1, _build.stats
    assert "refused before" in again and "1024" in again, again
    assert not any("block=2048" in " ".join(c) for c in runs), runs

    # From the cache directory alone (a later process).
    _build._refused_memo.clear()
    result, log, runs = tune()
    check(result, log)
    assert _build.stats["refusals_skipped"] == 2, _build.stats
    assert not any("block=2048" in " ".join(c) for c in runs), runs


if __name__ == "__main__":
    test_refused_configuration_skipped()
    print("ok")
