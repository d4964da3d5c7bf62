# The environment variables a script reads while tlc evaluates it are the
# process's: a module-level size or constant read with os.environ.get /
# os.getenv is passed to tlc-build (--environ), so the instance built is the
# one this process computed, and builds and remembered refusals are keyed by
# those values. Before, tlc evaluated the script with every variable unset:
# TLC_TEST_ENV_SCALE=3 still built the kernel that multiplies by the
# default 1, and a configuration refused under one value was skipped as
# "refused before" under another. A name computed from literals
# (f"TLC_TEST_ENV_{kind}") is a pattern matching every set variable it can
# spell; before, such a read was not found and tlc evaluated it as unset.
# Three child processes (the variables are
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


def knob(kind, default):
    return os.environ.get(f"TLC_TEST_ENV_{kind}", default)


SHIFT = float(knob("SHIFT", "0"))


@tilelang.jit(out_idx=[-1], target="cpu")
def scale(n):

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, 64), threads=64) as bx:
            for i in T.Parallel(64):
                if bx * 64 + i < n:
                    B[bx * 64 + i] = A[bx * 64 + i] * SCALE + SHIFT

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
        # (integers here: adding SHIFT is exact).
        ref = (a.double() * SCALE).float() + SHIFT
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
                  TLC_TEST_ENV_SCALE="3", TLC_TEST_ENV_BLOCK="2048",
                  TLC_TEST_ENV_SHIFT="5")
        assert out[0] == "scale ok", out
        assert out[1] == "blocked refused new True", out
        # The same values in a later process: the refusal is remembered
        # (keyed by every variable the script reads that is set).
        out = run("blocked", TLC_CACHE_DIR=cache,
                  TLC_TEST_ENV_SCALE="3", TLC_TEST_ENV_BLOCK="2048",
                  TLC_TEST_ENV_SHIFT="5")
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
for k in ("R_LOOP_A", "R_LOOP_B"):
    os.getenv(k)
def knob(kind, other):
    x = os.environ.get(f"R_F_{kind}")
    y = os.environ.get("R_CAT_" + kind.upper() + "_END")
    z = os.getenv("R_PCT_%s" % kind)
    w = os.getenv("R_FMT_{}_{{x}}".format(kind))
    u = os.environ.get(f"{name}_X")
    return os.environ.get(other)
mixed = "R_MIXED"
mixed += "_2"
j = os.environ.get(mixed)
"""


def test_read_names():
    """Every literal form of reading a variable is found, names computed
    from literals only are spelled out, other computed names are patterns
    (the names below are written from the source above); other dicts' keys
    are not reads; a name with nothing known warns at its line."""
    import warnings
    from tilelang import _script_env
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "reads.py")
        with open(path, "w") as f:
            f.write(READS)
        got = _script_env.read_names(path)
        assert got == sorted([
            "R_GET", "R_GETENV", "R_GETENV_BARE", "R_SUBSCRIPT", "R_IN",
            "R_NOT_IN", "R_SETDEFAULT", "R_BARE_SUBSCRIPT", "R_COMPUTED",
            "R_LOOP_A", "R_LOOP_B", "R_COMPUTED_X"
        ]), got
        set_here = {"R_F_fp16": "1", "R_F": "no", "R_CAT_A_END": "2",
                    "R_CAT_A_ENDX": "no", "R_PCT_q": "3",
                    "R_FMT_z_{x}": "4", "R_FMT_z_x": "no", "R_LOOP_B": "5",
                    "R_MIXED_2": "no", "R_OTHER_DICT": "no"}
        saved = dict(os.environ)
        os.environ.update(set_here)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                got = _script_env.script_environ(path)
        finally:
            os.environ.clear()
            os.environ.update(saved)
    assert got == sorted((k, v) for k, v in set_here.items() if v != "no"), \
        got
    lines = sorted(int(str(w.message).split(":")[1]) for w in caught)
    # os.environ.get(other) (a parameter) and of mixed (augmented).
    assert lines == [23, 26], [str(w.message) for w in caught]


if __name__ == "__main__":
    if len(sys.argv) > 1:
        child(sys.argv[1])
    else:
        test_read_names()
        test_script_environ()
        print("ok")
