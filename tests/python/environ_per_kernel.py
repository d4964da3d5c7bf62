# Each kernel is keyed by the environment variables its own evaluation
# read (tlc-build --environ-report), not every variable the script reads:
# two factories here read one variable each. Before, the key of a build and
# of a remembered refusal held both: changing SCALE, which only `scaled`
# reads, built `blocked` in a new directory and forgot that it was refused
# (BLOCK=2048 threads). Now `blocked` keeps its directory and its refusal,
# and `scaled` alone moves. Where the report is missing (an older
# tlc-build) or says every variable may matter, the script-wide key is
# used. Four child processes (the variables are read in the factories, at
# build time, in a fresh process each) share one fresh cache directory,
# each building small CPU kernels: about 30 s on a loaded 2-core host.

import json
import os
import subprocess
import sys
import tempfile

import tilelang
import tilelang.language as T
import torch
from tilelang import _build

N = 256


@tilelang.jit(out_idx=[-1], target="cpu")
def scaled(n):
    s = float(os.environ.get("TLC_TEST_PK_SCALE", "1"))

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, 64), threads=64) as bx:
            for i in T.Parallel(64):
                if bx * 64 + i < n:
                    B[bx * 64 + i] = A[bx * 64 + i] * s

    return main


@tilelang.jit(out_idx=[-1], target="cpu")
def blocked(n):
    block = int(os.getenv("TLC_TEST_PK_BLOCK", "64"))

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                if bx * block + i < n:
                    B[bx * block + i] = A[bx * block + i] * 2

    return main


def child():
    """Builds and runs both kernels; prints one line per kernel:
    NAME STATUS DIRECTORY COMPILED."""
    builds = {}
    real = _build.build

    def spy(source_file, kernel, *args, **kwargs):
        result = real(source_file, kernel, *args, **kwargs)
        builds[kernel] = result
        return result

    _build.build = spy
    a = torch.arange(N, dtype=torch.float32) - 100
    scale = float(os.environ["TLC_TEST_PK_SCALE"])
    b = scaled(N)(a)
    ok = torch.equal(b, (a.double() * scale).float())
    r = builds["scaled"]
    compiled = sum(1 for line in r.log.splitlines()
                   if line.startswith("wrote ") and
                   not line.endswith("(cached)"))
    print("scaled", "ok" if ok else "WRONG", os.path.basename(r.out_dir),
          compiled)
    try:
        with _build.refusals_remembered():
            b = blocked(N)(a)
    except Exception as e:  # the refusal tlc reports
        print("blocked refused",
              "remembered" if getattr(e, "remembered", False) else "new")
        return
    r = builds["blocked"]
    compiled = sum(1 for line in r.log.splitlines()
                   if line.startswith("wrote ") and
                   not line.endswith("(cached)"))
    print("blocked", "ok" if torch.equal(b, a * 2) else "WRONG",
          os.path.basename(r.out_dir), compiled)


def run(**env):
    environ = {k: v for k, v in os.environ.items()
               if not k.startswith("TLC_TEST_PK_")}
    environ.update(env)
    package = os.path.dirname(os.path.dirname(tilelang.__file__))
    environ["PYTHONPATH"] = os.pathsep.join(
        [package] + [p for p in [environ.get("PYTHONPATH")] if p])
    proc = subprocess.run([sys.executable, __file__, "child"], env=environ,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return [line.split() for line in proc.stdout.splitlines()]


def test_per_kernel_key():
    with tempfile.TemporaryDirectory() as cache:
        out = run(TLC_CACHE_DIR=cache, TLC_TEST_PK_SCALE="2",
                  TLC_TEST_PK_BLOCK="2048")
        assert out[0][:2] == ["scaled", "ok"] and out[0][3] == "1", out
        assert out[1] == ["blocked", "refused", "new"], out
        # SCALE changes: scaled is built anew; blocked's refusal is still
        # the same build's (it did not read SCALE).
        out = run(TLC_CACHE_DIR=cache, TLC_TEST_PK_SCALE="3",
                  TLC_TEST_PK_BLOCK="2048")
        assert out[0][:2] == ["scaled", "ok"] and out[0][3] == "1", out
        scaled_dir = out[0][2]
        assert out[1] == ["blocked", "refused", "remembered"], out
        # BLOCK changes: blocked builds; scaled is the same build (same
        # directory, its binary from the cache).
        out = run(TLC_CACHE_DIR=cache, TLC_TEST_PK_SCALE="3",
                  TLC_TEST_PK_BLOCK="128")
        assert out[0] == ["scaled", "ok", scaled_dir, "0"], out
        assert out[1][:2] == ["blocked", "ok"] and out[1][3] == "1", out
        blocked_dir = out[1][2]
        # SCALE changes back: only scaled moves to another directory.
        out = run(TLC_CACHE_DIR=cache, TLC_TEST_PK_SCALE="2",
                  TLC_TEST_PK_BLOCK="128")
        assert out[0][:2] == ["scaled", "ok"] and \
            out[0][2] != scaled_dir, out
        assert out[1] == ["blocked", "ok", blocked_dir, "0"], out


def test_fallback():
    """Without a report, or with one that says every variable may matter,
    the reads are unknown and the key holds every variable the script
    reads; otherwise only the values of those read (unset ones as None)."""
    with tempfile.TemporaryDirectory() as d:
        memo = "memo:test-fallback"
        assert _build._learn_reads(memo, d, "k") is None
        report = {"version": 1, "files": [{
            "file": "f.py", "reads": ["A", "B"], "all": False,
            "instances": [{"kernel": "k", "instance": "k()", "all": False,
                           "reads": ["B"]}]}]}
        with open(os.path.join(d, _build.ENVIRON_REPORT), "w") as f:
            json.dump(report, f)
        assert _build._learn_reads(memo, d, "k") == ["B"]
        assert _build._known_reads(memo) == ["B"]
        assert _build._learn_reads(memo, d, "other") == ["A", "B"]
        report["files"][0]["instances"][0]["all"] = True
        with open(os.path.join(d, _build.ENVIRON_REPORT), "w") as f:
            json.dump(report, f)
        assert _build._learn_reads(memo + "2", d, "k") is None
    env = {"A": "1", "B": "2"}
    assert _build._environ_key("base", ["B"], env) == \
        _build._environ_key("base", ["B"], {"A": "9", "B": "2"})
    assert _build._environ_key("base", ["B"], env) != \
        _build._environ_key("base", ["B"], {"A": "1"})
    assert _build._environ_key("base", None, env) != \
        _build._environ_key("base", None, {"A": "9", "B": "2"})


if __name__ == "__main__":
    if sys.argv[1:] == ["child"]:
        child()
    else:
        test_fallback()
        test_per_kernel_key()
        print("ok")
