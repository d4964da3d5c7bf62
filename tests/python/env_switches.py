# tilelang.env (python/tilelang/env.py): each switch reads a value assigned
# in Python, else the environment, else its default; TILELANG_TMP_DIR
# follows TILELANG_CACHE_DIR; _find_cuda_home. And what the switches do to
# builds (CPU target, results against NumPy): TILELANG_CACHE_DIR moves the
# package's and tlc-build's caches (a second process finds the binary
# there), TILELANG_DISABLE_CACHE builds under TILELANG_TMP_DIR,
# TILELANG_PRINT_ON_COMPILATION logs each build, and an assigned CUDA_HOME
# is the toolkit whose nvcc tlc-build runs (a recording fake nvcc);
# tilelang.cached builds through that cache and tilelang.clear_cache()
# empties it (the next build compiles again);
# TILELANG_COMPILE_TIMEOUT_SECONDS is parsed and stops a slow build.

import importlib
import json
import logging
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import tilelang
import tilelang.language as T
import torch
from tilelang.env import env

env_module = importlib.import_module("tilelang.env")
SWITCHES = ("TILELANG_CACHE_DIR", "TILELANG_TMP_DIR", "TILELANG_DISABLE_CACHE",
            "TILELANG_PRINT_ON_COMPILATION", "TILELANG_COMPILE_TIMEOUT_SECONDS",
            "CUDA_HOME", "CUDA_PATH")


@tilelang.jit(out_idx=[-1], target="cpu")
def cube_plus(N, c: int = 1):
    @T.prim_func
    def main(X: T.Tensor((N,), T.int32), Y: T.Tensor((N,), T.int32)):
        with T.Kernel(1, threads=32) as _:
            for i in T.Parallel(N):
                Y[i] = X[i] * X[i] * X[i] + c
    return main


def cube_plain(N, c):
    @T.prim_func
    def main(X: T.Tensor((N,), T.int32), Y: T.Tensor((N,), T.int32)):
        with T.Kernel(1, threads=32) as _:
            for i in T.Parallel(N):
                Y[i] = X[i] * X[i] * X[i] + c
    return main


def descriptor(name):
    return type(tilelang.env).__dict__[name]


def clean():
    for name in SWITCHES:
        os.environ.pop(name, None)
        if name in type(env).__dict__:
            delattr(env, name)


def files_under(path):
    return [os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs]


def check(kernel, n, c=1):
    x = torch.arange(n, dtype=torch.int32) - n // 2
    np.testing.assert_array_equal(kernel(x).numpy(), x.numpy() ** 3 + c)


def lookup_order(tmp):
    clean()
    assert tilelang.env is env and importlib.import_module("tilelang.env") is env_module
    assert env.TILELANG_PRINT_ON_COMPILATION == "1"  # default
    os.environ["TILELANG_PRINT_ON_COMPILATION"] = "0"
    assert env.TILELANG_PRINT_ON_COMPILATION == "0"  # environment
    env.TILELANG_PRINT_ON_COMPILATION = "1"
    assert env.TILELANG_PRINT_ON_COMPILATION == "1"  # assigned wins
    assert descriptor("TILELANG_PRINT_ON_COMPILATION")._forced_value == "1"
    del env.TILELANG_PRINT_ON_COMPILATION
    assert env.TILELANG_PRINT_ON_COMPILATION == "0"
    clean()
    # The cache directory's default is tlc's ($TLC_CACHE_DIR here).
    assert env.TILELANG_CACHE_DIR == os.environ["TLC_CACHE_DIR"]
    os.environ["TILELANG_CACHE_DIR"] = os.path.join(tmp, "a")
    assert env.TILELANG_TMP_DIR == os.path.join(tmp, "a", "tmp")
    env.TILELANG_CACHE_DIR = os.path.join(tmp, "b")
    assert env.TILELANG_TMP_DIR == os.path.join(tmp, "b", "tmp")
    assert tilelang.cache_root() == os.path.join(tmp, "b")
    os.environ["TILELANG_TMP_DIR"] = os.path.join(tmp, "t")
    assert env.TILELANG_TMP_DIR == os.path.join(tmp, "t")
    clean()
    for value, on in (("1", True), (" TRUE ", True), ("on", True), ("yes", True),
                      ("0", False), ("", False), ("off", False)):
        os.environ["TILELANG_DISABLE_CACHE"] = value
        assert env.is_cache_enabled() is not on, value
        assert tilelang.is_cache_enabled() is not on, value
    clean()
    print("lookup order: assigned, environment, default")


def cuda_home(tmp):
    clean()
    home = os.path.join(tmp, "nvidia", "cuda-13.0")
    os.makedirs(os.path.join(home, "bin"))
    open(os.path.join(home, "bin", "nvcc"), "w").close()
    link = os.path.join(tmp, "local", "bin", "nvcc")
    os.makedirs(os.path.dirname(link))
    os.symlink(os.path.join(home, "bin", "nvcc"), link)
    which = env_module.shutil.which
    env_module.shutil.which = lambda name: link if name == "nvcc" else which(name)
    try:
        assert env_module._find_cuda_home() == home
        os.environ["CUDA_PATH"] = os.path.join(tmp, "path-cuda")
        assert env_module._find_cuda_home() == os.path.join(tmp, "path-cuda")
        os.environ["CUDA_HOME"] = os.path.join(tmp, "explicit")
        assert env_module._find_cuda_home() == os.path.join(tmp, "explicit")
        assert env.CUDA_HOME == os.path.join(tmp, "explicit")
    finally:
        env_module.shutil.which = which
        clean()
    print("_find_cuda_home: CUDA_HOME, CUDA_PATH, then nvcc's real path")


CHILD = r'''
import json, sys
sys.path.insert(0, sys.argv[1])
import tilelang
import tilelang.language as T
import torch

@tilelang.jit(out_idx=[-1], target="cpu")
def square(N):
    @T.prim_func
    def main(X: T.Tensor((N,), T.float32), Y: T.Tensor((N,), T.float32)):
        with T.Kernel(1, threads=32) as _:
            for i in T.Parallel(N):
                Y[i] = X[i] * X[i]
    return main

tilelang.env.TILELANG_CACHE_DIR = sys.argv[2]
k = square(70)
x = torch.randn(70)
torch.testing.assert_close(k(x), x * x, rtol=0, atol=0)
print(json.dumps({"stats": tilelang.build_stats, "dir": k.artifact_dir}))
'''


def cache_dir(tmp):
    clean()
    moved = os.path.join(tmp, "moved-cache")
    env.TILELANG_CACHE_DIR = moved
    k = cube_plus(33, 7)
    check(k, 33, 7)
    assert k.artifact_dir.startswith(moved + os.sep), k.artifact_dir
    kernels = files_under(os.path.join(moved, "kernels"))
    assert any(f.endswith(".so") for f in kernels), kernels  # tlc-build's cache
    assert not files_under(os.environ["TLC_CACHE_DIR"])  # the default: unused
    clean()
    # A second process assigning the same directory takes the binary from it.
    script = os.path.join(tmp, "square_kernel.py")
    with open(script, "w") as f:
        f.write(CHILD)
    package = os.path.dirname(os.path.dirname(os.path.abspath(tilelang.__file__)))
    child_env = {k: v for k, v in os.environ.items()
                 if k not in ("TILELANG_DISABLE_CACHE", "TLC_NO_CACHE")}
    runs = []
    for _ in range(2):
        out = subprocess.run([sys.executable, script, package, moved],
                             env=child_env, capture_output=True, text=True)
        assert out.returncode == 0, out.stdout + out.stderr
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    assert runs[0]["stats"]["compiled"] == 1, runs[0]
    assert runs[1]["stats"]["cache_hits"] == 1 and runs[1]["stats"]["compiled"] == 0, runs[1]
    assert runs[1]["dir"].startswith(moved + os.sep)
    print("TILELANG_CACHE_DIR: the package's and tlc-build's cache")
    # tilelang.cached (older scripts' compile) and tilelang.clear_cache().
    env.TILELANG_CACHE_DIR = moved
    before = dict(tilelang.build_stats)
    k = tilelang.cached(cube_plain(40, 9), [1], target="cpu")
    check(k, 40, 9)
    assert k.artifact_dir.startswith(moved + os.sep)
    assert tilelang.build_stats["compiled"] == before["compiled"] + 1
    # Asked again: tlc-build takes the binary from its cache.
    k = tilelang.cached(cube_plain(40, 9), [1], target="cpu")
    assert tilelang.build_stats["cache_hits"] >= before["cache_hits"] + 1
    tilelang.clear_cache()
    for part in ("python", "kernels", "autotune"):
        assert not os.path.exists(os.path.join(moved, part)), part
    before = dict(tilelang.build_stats)
    check(tilelang.compile(cube_plain(40, 9), out_idx=[1], target="cpu"), 40, 9)
    assert tilelang.build_stats["compiled"] == before["compiled"] + 1, "not rebuilt"
    clean()
    print("tilelang.cached / clear_cache")


def disabled_cache(tmp):
    clean()
    env.TILELANG_CACHE_DIR = os.path.join(tmp, "c2")
    env.TILELANG_DISABLE_CACHE = "1"
    try:
        k = cube_plus(45, 2)
        check(k, 45, 2)
        assert k.artifact_dir.startswith(os.path.join(tmp, "c2", "tmp") + os.sep), \
            k.artifact_dir
        assert "--no-cache" in k.build_result.command
        assert not os.path.exists(os.path.join(tmp, "c2", "kernels")) or \
            not files_under(os.path.join(tmp, "c2", "kernels"))
        env.TILELANG_TMP_DIR = os.path.join(tmp, "own-tmp")
        k = cube_plus(46, 2)
        check(k, 46, 2)
        assert k.artifact_dir.startswith(os.path.join(tmp, "own-tmp") + os.sep)
    finally:
        clean()
    print("TILELANG_DISABLE_CACHE: builds under TILELANG_TMP_DIR")


class Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def print_on_compilation(tmp):
    clean()
    env.TILELANG_CACHE_DIR = os.path.join(tmp, "c3")
    logger = logging.getLogger("tilelang")
    handler = Records()
    logger.addHandler(handler)
    old = logger.level
    logger.setLevel(logging.INFO)
    try:
        check(cube_plus(21, 4), 21, 4)
        assert any("compiling kernel 'cube_plus'" in m and "'cpu'" in m
                   for m in handler.messages), handler.messages
        handler.messages.clear()
        os.environ["TILELANG_PRINT_ON_COMPILATION"] = "0"
        check(cube_plus(22, 4), 22, 4)
        assert not any("compiling" in m for m in handler.messages), handler.messages
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old)
        clean()
    print("TILELANG_PRINT_ON_COMPILATION: one log record a build")


FAKE_NVCC = """#!/bin/sh
echo "$@" >> "{log}"
exit 3
"""


def assigned_cuda_home(tmp):
    clean()
    home = os.path.join(tmp, "fake-cuda")
    os.makedirs(os.path.join(home, "bin"))
    log = os.path.join(tmp, "nvcc-calls.txt")
    nvcc = os.path.join(home, "bin", "nvcc")
    with open(nvcc, "w") as f:
        f.write(FAKE_NVCC.format(log=log))
    os.chmod(nvcc, 0o755)
    saved = {k: os.environ.pop(k, None) for k in ("TLC_NVCC", "TLC_CUDA_COMPILER")}
    env.TILELANG_CACHE_DIR = os.path.join(tmp, "c4")
    env.CUDA_HOME = home
    try:
        assert env.build_environment()["CUDA_HOME"] == home
        kernel = tilelang.jit(out_idx=[-1], target="cuda:sm_90a")(cube_plus.fn)
        try:
            kernel(64, 5)
        except tilelang.TLCBuildError:
            pass  # the fake nvcc fails the build
        else:
            raise AssertionError("the build did not run the fake nvcc")
        with open(log) as f:
            assert ".cu" in f.read()
    finally:
        for k, v in saved.items():
            if v is not None:
                os.environ[k] = v
        clean()
    print("CUDA_HOME assigned: tlc-build runs its nvcc")


SLOW_NVCC = """#!/bin/sh
sleep 20
exit 3
"""


def compile_timeout(tmp):
    clean()
    for value, want in ((None, None), ("", None), (" 0 ", None), ("1.5", 1.5), ("7", 7.0)):
        if value is not None:
            os.environ["TILELANG_COMPILE_TIMEOUT_SECONDS"] = value
        assert env.get_compile_timeout_seconds() == want, (value, want)
    for bad in ("bad", "nan", "inf", "-1"):
        os.environ["TILELANG_COMPILE_TIMEOUT_SECONDS"] = bad
        try:
            env.get_compile_timeout_seconds()
        except ValueError as e:
            assert "TILELANG_COMPILE_TIMEOUT_SECONDS" in str(e), e
        else:
            raise AssertionError(f"{bad!r} accepted")
    # A build stopped at the limit: an nvcc that takes 20 s, a 3 s limit.
    home = os.path.join(tmp, "slow-cuda")
    os.makedirs(os.path.join(home, "bin"))
    with open(os.path.join(home, "bin", "nvcc"), "w") as f:
        f.write(SLOW_NVCC)
    os.chmod(os.path.join(home, "bin", "nvcc"), 0o755)
    saved = {k: os.environ.pop(k, None) for k in ("TLC_NVCC", "TLC_CUDA_COMPILER")}
    env.TILELANG_CACHE_DIR = os.path.join(tmp, "c5")
    env.CUDA_HOME = home
    os.environ["TILELANG_COMPILE_TIMEOUT_SECONDS"] = "3"
    try:
        kernel = tilelang.jit(out_idx=[-1], target="cuda:sm_90a")(cube_plus.fn)
        start = time.monotonic()
        try:
            kernel(96, 1)
        except tilelang.TLCBuildError as e:
            assert "timed out after 3.0 s" in str(e), e
        else:
            raise AssertionError("the build was not stopped")
        assert time.monotonic() - start < 15
    finally:
        for k, v in saved.items():
            if v is not None:
                os.environ[k] = v
        clean()
    print("TILELANG_COMPILE_TIMEOUT_SECONDS: parsed, and stops a build")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TLC_CACHE_DIR"] = os.path.join(tmp, "tlc-default")
        lookup_order(tmp)
        cuda_home(tmp)
        cache_dir(tmp)
        disabled_cache(tmp)
        print_on_compilation(tmp)
        assigned_cuda_home(tmp)
        compile_timeout(tmp)


if __name__ == "__main__":
    main()
