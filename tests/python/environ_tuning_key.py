"""The tuning cache and the in-process JIT cache are keyed by the
environment variables the kernel's own evaluation read (tlc-build
--environ-report), like the build directories (environ_per_kernel.py).

Tuning: `scaled` reads TLC_TEST_TK_FACTOR, `other` reads TLC_TEST_TK_OTHER.
Before, the stored best tuning of `scaled` was keyed by every variable the
script reads, so setting TLC_TEST_TK_OTHER (which `scaled` never reads)
tuned again; now that is a hit, while changing TLC_TEST_TK_FACTOR is a
miss (and the tuned kernel multiplies by the new factor).

JIT cache: a script that sets os.environ between two calls of a factory
got the first call's kernel (the memo was keyed by the bindings only): the
second call now builds the instance the new value gives, a variable the
kernel does not read reuses the kernel, and the first value again finds
the first kernel without a build; under strict compilation an instance
compiled explicitly under another value does not run. One process, a
fresh cache directory; small CPU kernels against torch (about 30 s on a
loaded 2-core host, most of it the host compiler building six kernels)."""

import contextlib
import io
import os
import tempfile

import tilelang
import tilelang.language as T
import torch
from tilelang import _build
from tilelang.autotuner import autotune, set_autotune_inputs

N = 256
CONFIGS = [dict(block=32), dict(block=64)]


@tilelang.jit(out_idx=[-1], target="cpu")
def scaled(n, block=32):
    s = float(os.environ.get("TLC_TEST_TK_FACTOR", "2"))

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                if bx * block + i < n:
                    B[bx * block + i] = A[bx * block + i] * s

    return main


@tilelang.jit(out_idx=[-1], target="cpu")
def other(n):
    s = float(os.environ.get("TLC_TEST_TK_OTHER", "1"))

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(n):
                B[i] = A[i] + s

    return main


def factor():
    return float(os.environ.get("TLC_TEST_TK_FACTOR", "2"))


def reference(a):
    return (a.double() * factor()).float()


def tune(a):
    """Tunes `scaled`; returns whether the stored best was taken."""
    tuned = autotune(configs=CONFIGS, ref_prog=reference, warmup=1,
                     rep=2)(scaled)
    log = io.StringIO()
    with contextlib.redirect_stdout(log), set_autotune_inputs(a):
        kernel = tuned(N)
    assert kernel.config in CONFIGS, kernel.config
    torch.testing.assert_close(kernel(a), reference(a), rtol=0, atol=0)
    return "autotune cache hit" in log.getvalue()


def check_tuning(a):
    for name in ("TLC_TEST_TK_FACTOR", "TLC_TEST_TK_OTHER"):
        os.environ.pop(name, None)
    assert not tune(a), "first tuning: nothing stored yet"
    assert tune(a), "same environment: the stored tuning"
    os.environ["TLC_TEST_TK_OTHER"] = "5"
    assert tune(a), ("a variable only `other` reads must not invalidate "
                     "`scaled`'s tuning")
    os.environ["TLC_TEST_TK_FACTOR"] = "3"
    assert not tune(a), "a variable `scaled` reads changed: tune again"
    assert tune(a), "the new value's tuning is stored"
    del os.environ["TLC_TEST_TK_FACTOR"]
    assert tune(a), "the first value's tuning is still there"
    del os.environ["TLC_TEST_TK_OTHER"]


def check_jit_cache(a):
    os.environ["TLC_TEST_TK_FACTOR"] = "2"
    k2 = scaled(N, block=64)
    torch.testing.assert_close(k2(a), (a.double() * 2).float(), rtol=0,
                               atol=0)
    os.environ["TLC_TEST_TK_FACTOR"] = "7"
    k7 = scaled(N, block=64)
    assert k7 is not k2, "the factor changed: another instance"
    torch.testing.assert_close(k7(a), (a.double() * 7).float(), rtol=0,
                               atol=0)
    builds = _build.stats["builds"]
    os.environ["TLC_TEST_TK_OTHER"] = "9"
    assert scaled(N, block=64) is k7, "a variable `scaled` does not read"
    os.environ["TLC_TEST_TK_FACTOR"] = "2"
    assert scaled(N, block=64) is k2, "the first value's kernel again"
    assert _build.stats["builds"] == builds, "no build for either"
    torch.testing.assert_close(other(N)(a), a + 9, rtol=0, atol=0)
    for name in ("TLC_TEST_TK_FACTOR", "TLC_TEST_TK_OTHER"):
        del os.environ[name]


def check_strict(a):
    # TILELANG_REQUIRE_EXPLICIT_COMPILE: a call runs only an instance
    # compiled explicitly; one compiled under another value of a variable
    # it reads is not that instance (it ran, computing with the old value).
    from tilelang.jit import compile_phase
    os.environ["TLC_TEST_TK_FACTOR"] = "4"
    os.environ["TILELANG_REQUIRE_EXPLICIT_COMPILE"] = "1"
    compile_phase._reset_compilation_phase_for_testing()
    try:
        scaled.compile(N, block=32)
        torch.testing.assert_close(scaled(N, block=32)(a),
                                   (a.double() * 4).float(), rtol=0, atol=0)
        os.environ["TLC_TEST_TK_FACTOR"] = "6"
        try:
            scaled(N, block=32)
        except RuntimeError as e:
            assert "No explicitly compiled specialization" in str(e), e
        else:
            raise AssertionError("the factor-4 instance ran for factor 6")
    finally:
        del os.environ["TILELANG_REQUIRE_EXPLICIT_COMPILE"]
        del os.environ["TLC_TEST_TK_FACTOR"]
        compile_phase._reset_compilation_phase_for_testing()


def main():
    with tempfile.TemporaryDirectory(prefix="tlc-tk-") as cache:
        os.environ["TLC_CACHE_DIR"] = cache
        a = torch.arange(N, dtype=torch.float32) - 100
        check_tuning(a)
        check_jit_cache(a)
        check_strict(a)
    print("environ_tuning_key: ok")


if __name__ == "__main__":
    main()
