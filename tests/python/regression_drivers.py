# TileLang's performance drivers, as the upstream regression_example_*.py
# and bench_example_*.py scripts call them: tilelang.testing.process_func /
# tilelang.testing.benchmark.process_func run an example's benchmark
# function (a kernel timed with do_bench, latency in ms) and record it;
# tilelang.testing.regression() / bench() run the calling script's
# regression_* / bench_* functions in order, print the records and exit 1
# when one failed (its error recorded and named). `import
# tilelang.testing.benchmark` needs tilelang.testing to be a package.

import contextlib
import io

import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
import tilelang.testing.benchmark
import torch
from tilelang.profiler import do_bench


@tilelang.jit(out_idx=[1], target="cpu")
def double(N, block=64):

    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[bx * block + i] * 2

    return main


def run_regression_perf(N=256):
    kernel = double(N)
    a = torch.randn(N)
    torch.testing.assert_close(kernel(a), a * 2, rtol=0, atol=0)
    return do_bench(lambda: kernel(a), warmup=1, rep=2)


def broken_perf():
    raise RuntimeError("no such kernel")


calls = []


def regression_double():
    calls.append("double")
    tilelang.testing.process_func(run_regression_perf, N=512)


def regression_named():
    calls.append("named")
    tilelang.testing.process_func(run_regression_perf, name="double-128",
                                  N=128)


def bench_double():
    calls.append("bench")
    tilelang.testing.benchmark.process_func(run_regression_perf)


def run_driver(driver):
    out = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out):
        try:
            driver()
        except SystemExit as e:
            code = e.code
    return code, out.getvalue()


def test_drivers():
    records = tilelang.testing.benchmark.records
    code, text = run_driver(tilelang.testing.regression)
    assert code == 0, text
    assert calls == ["double", "named"], calls
    assert [r[0] for r in records] == [__name__, "double-128"], records
    assert all(isinstance(r[1], float) and r[1] > 0 and r[2] is None
               for r in records), records
    assert "double-128" in text and "latency (ms)" in text, text

    del records[:], calls[:]
    code, text = run_driver(tilelang.testing.bench)
    assert code == 0 and calls == ["bench"] and len(records) == 1, text

    # A failing benchmark is recorded with its error; the driver exits 1.
    del records[:]
    globals()["regression_broken"] = lambda: \
        tilelang.testing.process_func(broken_perf, name="broken")
    try:
        code, text = run_driver(tilelang.testing.regression)
    finally:
        del globals()["regression_broken"]
    assert code == 1, text
    broken = [r for r in records if r[0] == "broken"]
    assert broken and broken[0][1] is None, records
    assert "RuntimeError: no such kernel" in broken[0][2], records
    assert "broken" in text and "failed" in text, text


if __name__ == "__main__":
    test_drivers()
    print("ok")
