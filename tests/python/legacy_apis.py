# The Python API of older TileLang scripts, on the CPU target, each result
# checked against torch in float64: `mod, params = tilelang.lower(func)` with
# `tilelang.Profiler(mod, params, result_idx, supply_type)` (callable, .func,
# .params, .result_idx, assert_allclose, do_bench(profiler=...)), a factory
# under `@tilelang.transform.simplify_prim_func`, one plain factory compiled
# with several dtypes in one process (each call gets its own instance, not
# the one a call site elsewhere in the file asked for), and the
# `tilelang.testing` runner with `pytest.mark.parametrize` cases.

import collections
import types

import tilelang
import tilelang.language as T
import tilelang.testing
import numpy as np
import torch
from tilelang.transform import simplify_prim_func


def axpy(M, N, block_M, dtype, alpha=2):

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype), Z: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=64) as bx:
            for i, j in T.Parallel(block_M, N):
                Z[bx * block_M + i, j] = X[bx * block_M + i, j] * alpha + Y[bx * block_M + i, j]

    return main


# A call site outside any test: under the package's tlc-build --defines-only
# it must not become the instance other calls get.
float_program = axpy(64, 32, 16, "float32")


def test_dtypes_per_call():
    for dtype in ("float32", "int32", "float16", "int8"):
        kernel = tilelang.compile(axpy(64, 32, 16, dtype), out_idx=[2], target="cpu")
        tdt = getattr(torch, dtype)
        x = torch.arange(64 * 32).reshape(64, 32).remainder(11).sub(5).to(tdt)
        y = torch.arange(64 * 32).reshape(64, 32).remainder(7).sub(3).to(tdt)
        z = kernel(x, y)
        assert z.dtype == tdt, (dtype, z.dtype)
        ref = x.double() * 2 + y.double()
        torch.testing.assert_close(z.double(), ref, rtol=0, atol=0)


def test_lower_and_legacy_profiler():
    program = axpy(128, 48, 32, "float32", alpha=3)
    mod, params = tilelang.lower(program, target="cpu")
    # TVM's runtime.Module view: the device module's source is the kernel's
    # generated source, the module's own the host side.
    assert len(mod.imported_modules) == 1
    device = mod.imported_modules[0]
    assert device.type_key == "c" and device.imported_modules == []
    assert device.get_source() == mod.get_kernel_source()
    assert "axpy" in device.get_source()
    assert mod.get_source() == mod.get_host_source()
    assert [[int(x) for x in p.shape] for p in params] == [[128, 48]] * 3
    assert [str(p.dtype) for p in params] == ["float32"] * 3
    prof = tilelang.Profiler(mod, params, [2], tilelang.TensorSupplyType.Normal)
    assert prof.result_idx == [2]
    ins = [torch.randn([int(x) for x in prof.params[i].shape]) for i in range(len(prof.params))
           if i not in prof.result_idx]
    ref = ins[0].double() * 3 + ins[1].double()
    for out in (prof.func(*ins), prof(*ins)):
        torch.testing.assert_close(out.double(), ref, rtol=1e-6, atol=1e-6)
    prof.assert_allclose(lambda x, y: x.double() * 3 + y.double(), rtol=1e-6, atol=1e-6)
    # A wrong reference is caught.
    try:
        prof.assert_allclose(lambda x, y: x.double() * 2 + y.double(), rtol=1e-6, atol=1e-6)
    except AssertionError:
        pass
    else:
        raise AssertionError("assert_allclose accepted a wrong reference")
    # The engine names and the tensor supply of blocksparse-GEMM-style
    # scripts, over the same parameters.
    from tilelang.engine.param import KernelParam
    from tilelang.utils.tensor import TensorSupplyType, get_tensor_supply
    assert all(isinstance(p, KernelParam) for p in params)
    supply = get_tensor_supply(TensorSupplyType.Integer)
    made = [supply(p) for p in params[:2]]
    for t in made:
        assert t.shape == (128, 48) and t.dtype == torch.float32
        assert set(t.flatten().tolist()) <= {-2.0, -1.0, 0.0, 1.0, 2.0}
    torch.testing.assert_close(prof(*made).double(), made[0].double() * 3 + made[1].double(),
                               rtol=0, atol=0)
    assert tilelang.engine.lower is tilelang.lower
    for backend in ("torch", "tvm", "auto"):
        ms = prof.do_bench(prof.func, n_warmup=2, n_repeat=3, profiler=backend)
        assert ms > 0
    assert prof.do_bench(prof, warmup=1, rep=2) > 0
    # TileLang's device= names where the timing runs: the CPU kernel's own
    # device is taken, a GPU one is refused before anything runs.
    assert prof.do_bench(n_warmup=1, n_repeat=2, device="cpu",
                         early_stop_baseline=1e9) > 0
    with pytest.raises(ValueError, match="does not match the kernel's target"):
        prof.do_bench(n_warmup=1, n_repeat=2, device="cuda")


def test_legacy_profiler_in_place():
    # result_idx=[]: the caller passes every tensor and the kernel writes Z.
    mod, params = tilelang.lower(axpy(64, 16, 16, "float64"), target="cpu")
    prof = tilelang.Profiler(mod, params, [], tilelang.TensorSupplyType.Integer)
    x = torch.randn(64, 16, dtype=torch.float64)
    y = torch.randn(64, 16, dtype=torch.float64)
    z = torch.zeros(64, 16, dtype=torch.float64)
    assert prof(x, y, z) is None
    torch.testing.assert_close(z, x * 2 + y, rtol=0, atol=0)
    prof.assert_allclose(lambda x, y, z: x * 2 + y, rtol=0, atol=0)
    # Keyword form of older rms_norm-style scripts.
    prof2 = tilelang.Profiler(mod, params, result_idx=[2])
    torch.testing.assert_close(prof2(x, y), x * 2 + y, rtol=0, atol=0)

    # manual_assert_close: the script's own comparison of both sides' lists.
    seen = []

    def exact(outs, refs):
        seen.append((len(outs), len(refs)))
        for o, r in zip(outs, refs):
            assert torch.equal(o, r), "differ"
    x = torch.randint(-4, 4, (64, 16)).double()
    y = torch.randint(-4, 4, (64, 16)).double()
    z = torch.zeros(64, 16, dtype=torch.float64)
    assert prof.manual_assert_close(lambda x, y, z: x * 2 + y, input_tensors=[x, y, z],
                                    manual_check_prog=exact)
    assert seen == [(1, 1)]
    try:
        prof.manual_assert_close(lambda x, y, z: x * 2 + y + 1, input_tensors=[x, y, z],
                                 manual_check_prog=exact)
    except AssertionError as e:
        assert "differ" in str(e)
    else:
        raise AssertionError("manual_assert_close accepted a wrong reference")
    try:
        prof.manual_assert_close(lambda x, y, z: x, input_tensors=[x, y, z])
    except ValueError as e:
        assert "manual_check_prog" in str(e)
    else:
        raise AssertionError("manual_assert_close without a check accepted")


def test_result_idx_validation():
    # result_idx / out_idx: an int or a list of ints in [-n, n); anything
    # else is a ValueError naming the range (a float or string index was
    # taken, or failed later with an unrelated TypeError).
    mod, params = tilelang.lower(axpy(32, 16, 16, "float64"), target="cpu")
    x = torch.randn(32, 16, dtype=torch.float64)
    y = torch.randn(32, 16, dtype=torch.float64)
    for idx, last in ((-3, 0), (-1, 2), (0, 0), (2, 2), ([-1], 2), ((2,), 2)):
        prof = tilelang.Profiler(mod, params, idx, tilelang.TensorSupplyType.Integer)
        want = [last]
        assert prof.result_idx == want, (idx, prof.result_idx)
    torch.testing.assert_close(prof(x, y), x * 2 + y, rtol=0, atol=0)
    for bad in (-4, 3, [3], [-4]):
        try:
            tilelang.Profiler(mod, params, bad, tilelang.TensorSupplyType.Integer)
        except ValueError as e:
            assert "between -3 and 2" in str(e), e
        else:
            raise AssertionError(f"result_idx {bad!r} accepted")
    for bad in ([0.5], ["0"], [True], 1.0, "2"):
        try:
            tilelang.compile(axpy(32, 16, 16, "float64"), out_idx=bad, target="cpu")
        except ValueError as e:
            assert "list of integers" in str(e), e
        else:
            raise AssertionError(f"out_idx {bad!r} accepted")


def test_do_bench_quantiles():
    # Quantiles are interpolated linearly (numpy.quantile's default); one
    # quantile is a number, several a list; bad quantiles / return modes
    # are ValueErrors before anything runs.
    from tilelang.profiler import _quantile, do_bench
    rng = np.random.default_rng(5)
    for n in (1, 2, 7, 50):
        times = sorted(rng.random(n).tolist())
        for q in (0.0, 0.1, 0.25, 0.5, 0.9, 1.0):
            assert abs(_quantile(times, q) - np.quantile(times, q)) < 1e-12, (n, q)
    one = do_bench(lambda: None, quantiles=[0.5], _n_warmup=1, _n_repeat=5, cuda=False)
    assert isinstance(one, float) and one >= 0
    two = do_bench(lambda: None, quantiles=(0.2, 0.8), _n_warmup=1, _n_repeat=5, cuda=False)
    assert isinstance(two, list) and len(two) == 2 and two[0] <= two[1]
    calls = []
    for bad in ([], [-0.1], [1.1], ["0.5"], 0.5):
        try:
            do_bench(lambda: calls.append(1), quantiles=bad, cuda=False)
        except ValueError as e:
            assert "quantiles" in str(e)
        else:
            raise AssertionError(f"quantiles {bad!r} accepted")
    try:
        do_bench(lambda: calls.append(1), return_mode="average", cuda=False)
    except ValueError as e:
        assert "return_mode" in str(e)
    else:
        raise AssertionError("return_mode 'average' accepted")
    assert calls == []


@simplify_prim_func
def row_sum(M, N, dtype="float32"):

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), S: T.Tensor((M,), dtype)):
        with T.Kernel(M, threads=32) as bx:
            acc = T.alloc_local((1,), dtype)
            acc[0] = 0
            for j in T.serial(N):
                acc[0] += A[bx, j]
            S[bx] = acc[0]

    return main


def test_simplify_prim_func_factory():
    kernel = tilelang.compile(row_sum(16, 40), out_idx=[1], target="cpu")
    a = torch.randn(16, 40)
    torch.testing.assert_close(kernel(a).double(), a.double().sum(1), rtol=1e-5, atol=1e-5)
    assert "row_sum" in kernel.get_host_source()


def supply_kernel(M, N):

    @T.prim_func
    def main(H: T.Tensor((M, N), "float16"), F: T.Tensor((M, N), "float32"),
             D: T.Tensor((M, N), "float64"), I8: T.Tensor((M, N), "int8"),
             U8: T.Tensor((M, N), "uint8"), O: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, 32), threads=32) as bx:
            for i, j in T.Parallel(32, N):
                O[bx * 32 + i, j] = F[bx * 32 + i, j]

    return main


def test_profiler_inputs():
    # The inputs get_profiler() draws are TileLang's: scripts' tolerances
    # (f16 accumulation, f16 atomics) are written for these ranges.
    kernel = tilelang.compile(supply_kernel(256, 512), out_idx=[5], target="cpu")
    T_ = tilelang.TensorSupplyType

    def inputs(kind):
        return kernel.get_profiler(tensor_supply_type=kind)._get_inputs()

    h, f, d, i8, u8 = inputs(T_.Auto)
    for x in (h, f):
        assert x.min() >= -1 and x.max() <= 1 and abs(float(x.double().mean())) < 0.02
        assert float(x.double().std()) > 0.5  # uniform in [-1, 1): 0.577
    assert sorted(set(d.flatten().tolist())) == [-2.0, -1.0, 0.0, 1.0, 2.0]
    assert sorted(set(i8.flatten().tolist())) == [-2, -1, 0, 1, 2]
    assert sorted(set(u8.flatten().tolist())) == [0, 1, 2]
    h, f, d, i8, u8 = inputs(T_.Normal)
    for x in (h, f, d):
        assert abs(float(x.double().mean()) + 1) < 0.02 and abs(float(x.double().std()) - 1) < 0.02
    assert bool((i8 == 1).all())
    h, f, d, i8, u8 = inputs(T_.Randn)
    for x in (h, f, d):
        assert abs(float(x.double().mean())) < 0.02 and abs(float(x.double().std()) - 1) < 0.02
    h, f, d, i8, u8 = inputs(T_.Integer)
    assert sorted(set(h.flatten().tolist())) == [-2.0, -1.0, 0.0, 1.0, 2.0]
    # TileLang's other name of the enum and of the keyword (scripts of its
    # April 2025 rename: get_profiler(tensor_distribution=...)).
    assert tilelang.TensorDistribution is T_
    h = kernel.get_profiler(tensor_distribution=tilelang.TensorDistribution.Integer)._get_inputs()[0]
    assert sorted(set(h.flatten().tolist())) == [-2.0, -1.0, 0.0, 1.0, 2.0]
    h = kernel.get_profiler(tilelang.TensorDistribution.Randn)._get_inputs()[0]
    assert abs(float(h.double().std()) - 1) < 0.02


def _parametrize(names, values):
    """pytest.mark.parametrize, or the same mark object pytest attaches
    where pytest is not installed."""
    try:
        import pytest
        return pytest.mark.parametrize(names, values)
    except ImportError:
        import types

        def deco(fn):
            mark = types.SimpleNamespace(name="parametrize", args=(names, values), kwargs={})
            fn.pytestmark = getattr(fn, "pytestmark", []) + [mark]
            return fn
        return deco


_param_runs = []


@_parametrize("N", [24, 40])
@_parametrize("dtype", ["float32", "float64"])
def test_parametrized(N, dtype):
    kernel = tilelang.compile(row_sum(8, N, dtype), out_idx=[1], target="cpu")
    a = torch.randn(8, N, dtype=getattr(torch, dtype))
    torch.testing.assert_close(kernel(a).double(), a.double().sum(1), rtol=1e-5, atol=1e-5)
    _param_runs.append((N, dtype))


def test_parametrized_cases_ran():
    # tilelang.testing.main() ran each combination once, in order.
    assert sorted(_param_runs) == [(24, "float32"), (24, "float64"), (40, "float32"),
                                   (40, "float64")], _param_runs


# pytest.param(value, marks=tilelang.testing.requires_cuda.marks()), as
# testing/python/issue/test_tilelang_issue_2714.py writes a CUDA-only case:
# a case whose skipif mark holds does not run. Where pytest is missing the
# case is shaped as pytest.param's ParameterSet (a named tuple of values,
# marks and id) carrying the mark pytest's skipif(True) would be; with
# pytest (which then runs the script) it is pytest.param itself.
_mark_runs = []
try:
    import pytest
    _SKIPPED_CASE = pytest.param("skipped", marks=pytest.mark.skipif(True, reason="case skipped"))
except ImportError:
    _SKIPPED_CASE = collections.namedtuple("ParameterSet", ["values", "marks", "id"])(
        ("skipped",), [types.SimpleNamespace(name="skipif", args=(True,), kwargs={})], None)


@_parametrize("which", ["kept", _SKIPPED_CASE])
def test_param_marks(which):
    _mark_runs.append(which)


def test_param_marks_ran():
    assert _mark_runs == ["kept"], _mark_runs
    marks = tilelang.testing.requires_cuda.marks()
    assert isinstance(marks, list)
    try:
        import pytest  # noqa: F401
        # One skipif mark that holds exactly when there is no CUDA device.
        assert len(marks) == 1 and marks[0].args[0] == (not torch.cuda.is_available())
    except ImportError:
        assert marks == []
    # Still a decorator, with and without a call.
    assert callable(tilelang.testing.requires_cuda(lambda: None))
    assert callable(tilelang.testing.requires_cuda()(lambda: None))


_TVM_FIRST = """
from tvm import DataType   # before tilelang, as gemm_simt-style tests do
import tvm
import tilelang
import tilelang.language as T
import torch


def widen(M, dtype):
    lanes = 128 // DataType(dtype).bits   # computed in Python: 8 for float16

    @T.prim_func
    def main(A: T.Tensor((M, lanes), dtype), B: T.Tensor((M,), "float32")):
        with T.Kernel(M, threads=32) as bx:
            acc = T.alloc_local((1,), "float32")
            acc[0] = 0
            for v in T.serial(lanes):
                acc[0] += A[bx, v]
            B[bx] = acc[0]

    return main


assert tvm.te.var("m").name == "m"
kernel = tilelang.compile(widen(16, "float16"), out_idx=[1], target="cpu")
a = torch.randn(16, 8).half()
torch.testing.assert_close(kernel(a).double(), a.double().sum(1), rtol=1e-5, atol=1e-5)
print("tvm-first ok")
"""


def test_tvm_imported_before_tilelang():
    import os
    import subprocess
    import sys
    import tempfile
    here = os.path.dirname(os.path.abspath(tilelang.__file__))
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "tvm_first.py")
        with open(path, "w") as f:
            f.write(_TVM_FIRST)
        env = dict(os.environ, PYTHONPATH=os.path.dirname(here))
        proc = subprocess.run([sys.executable, path], capture_output=True, text=True, env=env)
    assert proc.returncode == 0 and "tvm-first ok" in proc.stdout, proc.stderr[-2000:]


def test_pytest_skip():
    # pytest.skip() raises pytest's Skipped, a BaseException: the runner
    # reports the test as skipped and goes on (an escaping BaseException
    # would end this script with a traceback and a non-zero status).
    try:
        import pytest
        pytest.skip("skipped on purpose")
    except ImportError:
        class Skipped(BaseException):
            pass
        raise Skipped("skipped on purpose")


def test_dtype_calls():
    # T.<dtype>(value) is the value at Python level; T.<dtype>() a fresh
    # variable Python code may combine (test_tilelang_intimm.py's form).
    assert T.uint64(0xffffffffffffffff) == np.iinfo(np.uint64).max
    assert T.int64(-0x7fffffffffffffff - 1) == np.iinfo(np.int64).min
    assert isinstance(T.float32(1), float) and T.float32(1) == 1.0
    a = T.uint32()
    masked = a & 0xffffffff
    assert masked is not a and "&" in repr(masked), repr(masked)
    assert "&" in repr(T.uint64() & T.uint64(0xffffffffffffffff))


def test_dtype_equality():
    # A dtype equals its torch dtype and its other spellings
    # (test_tilelang_language_dtype.py's test_torch_eq); it stays a str key.
    for a, b in ((T.bool, torch.bool), (T.short, torch.short),
                 (T.int, torch.int), (T.long, torch.long),
                 (T.half, torch.half), (T.float, torch.float),
                 (T.bfloat16, torch.bfloat16), (T.uint8, torch.uint8)):
        assert a == b and not (a != b) and T.dtype(b) == a, (a, b)
    assert T.float16 != torch.float32 and T.float16 == "half"
    assert T.float16 != "float32" and T.float16 != 16
    assert {T.float16: 1}["float16"] == 1


if __name__ == "__main__":
    tilelang.testing.main()
