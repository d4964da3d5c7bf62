# The environment variables a script reads while tlc evaluates it are the
# process's: a module-level size or constant read with os.environ.get /
# os.getenv is passed to tlc-build (--environ), so the instance built is the
# one this process computed, and builds and remembered refusals are keyed by
# those values. Before, tlc evaluated the script with every variable unset:
# TLC_TEST_ENV_SCALE=3 still built the kernel that multiplies by the
# default 1, and a configuration refused under one value was skipped as
# "refused before" under another. Three child processes (the variables are
# read when the module is imported) share one fresh cache directory; each
# builds a small CPU kernel: about 20 s on a loaded 2-core host.

import os
import subprocess
import sys
import tempfile

import tilelang
import tilelang.language as T
import torch
from tilelang import _build

N = 256
SCALE = float(os.environ.get("TLC_TEST_ENV_SCALE", "1.0"))
BLOCK = int(os.getenv("TLC_TEST_ENV_BLOCK", "64"))


@tilelang.jit(out_idx=[-1], target="cpu")
def scale(n):

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, 64), threads=64) as bx:
            for i in T.Parallel(64):
                if bx * 64 + i < n:
                    B[bx * 64 + i] = A[bx * 64 + i] * SCALE

    return main


@tilelang.jit(out_idx=[-1], target="cpu")
def blocked(n):

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, BLOCK), threads=BLOCK) as bx:
            for i in T.Parallel(BLOCK):
                if bx * BLOCK + i < n:
                    B[bx * BLOCK + i] = A[bx * BLOCK + i] * 2

    return main


def child(what):
    """Runs in a child process; prints one line per kernel."""
    a = torch.arange(N, dtype=torch.float32) - 100
    if "scale" in what:
        b = scale(N)(a)
        # float32 products, as numpy's: exact against the float64 product
        # rounded once.
        ref = (a.double() * SCALE).float()
        print("scale", "ok" if torch.equal(b, ref) else f"WRONG {b[:4]}")
    if "blocked" in what:
        try:
            with _build.refusals_remembered():
                b = blocked(N)(a)
        except Exception as e:  # the refusal tlc reports
            print("blocked refused", "remembered" if
                  getattr(e, "remembered", False) else "new",
                  "1024" in str(e) or "1024" in getattr(e, "args", [""])[0])
            return
        print("blocked", "ok" if torch.equal(b, a * 2) else "WRONG",
              _build.stats["refusals_skipped"])


def run(what, **env):
    environ = {k: v for k, v in os.environ.items()
               if not k.startswith("TLC_TEST_ENV_")}
    environ.update(env)
    # The package this process imported (ctest puts it on sys.path, not in
    # the environment).
    package = os.path.dirname(os.path.dirname(tilelang.__file__))
    environ["PYTHONPATH"] = os.pathsep.join(
        [package] + [p for p in [environ.get("PYTHONPATH")] if p])
    proc = subprocess.run([sys.executable, __file__, what], env=environ,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.split("\n")


def test_script_environ():
    with tempfile.TemporaryDirectory() as cache:
        out = run("scale,blocked", TLC_CACHE_DIR=cache,
                  TLC_TEST_ENV_SCALE="3", TLC_TEST_ENV_BLOCK="2048")
        assert out[0] == "scale ok", out
        assert out[1] == "blocked refused new True", out
        # The same values in a later process: the refusal is remembered
        # (keyed by every variable the script reads that is set).
        out = run("blocked", TLC_CACHE_DIR=cache,
                  TLC_TEST_ENV_SCALE="3", TLC_TEST_ENV_BLOCK="2048")
        assert out[0] == "blocked refused remembered True", out
        # Another value is another build, not the remembered refusal; an
        # unset variable is the script's default (multiply by 1).
        out = run("scale,blocked", TLC_CACHE_DIR=cache,
                  TLC_TEST_ENV_BLOCK="32")
        assert out[0] == "scale ok", out
        assert out[1] == "blocked ok 0", out


READS = """
import os
from os import environ, getenv
a = os.environ.get("R_GET", "1")
b = os.getenv("R_GETENV")
c = getenv("R_GETENV_BARE", "x")
d = os.environ["R_SUBSCRIPT"] if "R_IN" in os.environ else 0
e = "R_NOT_IN" not in environ
f = os.environ.setdefault("R_SETDEFAULT", "2")
g = environ["R_BARE_SUBSCRIPT"]
name = "R_COMPUTED"
h = os.environ.get(name)
cfg = {"R_OTHER_DICT": 1}
i = cfg["R_OTHER_DICT"] + ("R_OTHER_IN" in cfg)
"""


def test_read_names():
    """Every literal form of reading a variable is found; a computed name
    and other dicts' keys are not (the names below are written from the
    source above)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "reads.py")
        with open(path, "w") as f:
            f.write(READS)
        got = __import__("tilelang._script_env", fromlist=["x"]).read_names(
            path)
    assert got == sorted([
        "R_GET", "R_GETENV", "R_GETENV_BARE", "R_SUBSCRIPT", "R_IN",
        "R_NOT_IN", "R_SETDEFAULT", "R_BARE_SUBSCRIPT"
    ]), got


if __name__ == "__main__":
    if len(sys.argv) > 1:
        child(sys.argv[1])
    else:
        test_read_names()
        test_script_environ()
        print("ok")
