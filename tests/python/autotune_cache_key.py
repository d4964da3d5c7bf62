"""The tuning cache (``<cache>/autotune/``) is a hit only for a tuning
checked and timed as the stored one was: the same reference program,
tolerances, warmup and rep, and inputs (``set_autotune_inputs``) of the
same shapes and dtypes. Before, the key held only the kernel's source,
bindings and configurations, so a tuning with a tighter tolerance, another
reference or inputs of another size (a ``T.dynamic`` extent) got the best
configuration stored for other checks without checking or timing anything.
One process, a fresh cache directory; each tuning is a new
``@autotune`` over the same ``@jit`` factory (the same cache key base).
CPU target, against torch."""

import contextlib
import io
import os
import tempfile

import tilelang
import tilelang.language as T
import torch
from tilelang.autotuner import autotune, set_autotune_inputs

CONFIGS = [dict(block=32), dict(block=64)]


@tilelang.jit(out_idx=[-1], target="cpu")
def double(block=32):
    n = T.dynamic("n")

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32), B: T.Tensor((n,), T.float32)):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                if bx * block + i < n:
                    B[bx * block + i] = A[bx * block + i] * 2

    return main


def reference(a):
    return a * 2


def other_reference(a):
    return a + a


def tune(inputs, **options):
    """Tunes ``double`` on ``inputs``; returns whether the stored best
    configuration was taken (the tuner's "autotune cache hit" line)."""
    options = {"ref_prog": reference, "rtol": 1e-2, "warmup": 1, "rep": 2,
               **options}
    tuned = autotune(configs=CONFIGS, **options)(double)
    log = io.StringIO()
    with contextlib.redirect_stdout(log), set_autotune_inputs(*inputs):
        kernel = tuned()
    assert kernel.config in CONFIGS, kernel.config
    a = inputs[0]
    torch.testing.assert_close(kernel(a), a * 2, rtol=0, atol=0)
    return "autotune cache hit" in log.getvalue()


def main():
    with tempfile.TemporaryDirectory() as cache:
        os.environ["TLC_CACHE_DIR"] = cache
        os.environ.pop("TILELANG_DISABLE_CACHE", None)
        a = torch.randn(256)
        assert not tune([a])
        # The same checks on inputs of the same shape: the stored best.
        assert tune([torch.randn(256)])
        # Other checks or other inputs: tuned again.
        assert not tune([a], rtol=1e-5)
        assert not tune([a], ref_prog=other_reference)
        assert not tune([torch.randn(1000)])
        assert not tune([a], rep=3)
        # Each of those was stored under its own key.
        assert tune([a], rtol=1e-5)
        assert tune([torch.randn(1000)])
    print("autotune_cache_key: OK")


if __name__ == "__main__":
    main()
