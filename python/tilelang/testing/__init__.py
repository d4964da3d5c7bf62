"""``tilelang.testing``: helpers TileLang test scripts use."""

import functools
import inspect
import os
import random
import sys
import traceback
import unittest

from .. import _tensors as tz


def set_random_seed(seed=42):
    """Seeds Python's, NumPy's and torch's generators."""
    random.seed(seed)
    if tz.numpy is not None:
        tz.numpy.random.seed(seed)
    if tz.torch is not None:
        tz.torch.manual_seed(seed)
        if tz.torch.cuda.is_available():
            tz.torch.cuda.manual_seed_all(seed)


def torch_assert_close(tensor_a, tensor_b, rtol=1e-2, atol=1e-3,
                       max_mismatched_ratio=0.001, verbose=False,
                       equal_nan=True, check_device=False, check_dtype=False,
                       base_name="LHS", ref_name="RHS"):
    """Asserts ``|a - b| <= atol + rtol * |b|`` for all but
    ``max_mismatched_ratio`` of the elements (TileLang's default check);
    NaN in ``a`` where ``b`` has none always counts as a mismatch."""
    torch = tz.torch
    a = tensor_a if tz.is_torch(tensor_a) else torch.as_tensor(tensor_a)
    b = tensor_b if tz.is_torch(tensor_b) else torch.as_tensor(tensor_b)
    if a.shape != b.shape:
        raise AssertionError(f"{base_name} has shape {tuple(a.shape)}, "
                             f"{ref_name} has {tuple(b.shape)}")
    a64 = a.detach().to("cpu", torch.float64)
    b64 = b.detach().to("cpu", torch.float64)
    close = (a64 - b64).abs() <= atol + rtol * b64.abs()
    both_nan = torch.isnan(a64) & torch.isnan(b64)
    if equal_nan:
        close = close | both_nan
    close = close | ((a64 == b64) & torch.isinf(b64))
    total = close.numel()
    mismatched = int((~close).sum())
    allowed = int(max_mismatched_ratio * total)
    if mismatched > allowed:
        diff = (a64 - b64).abs()
        diff[torch.isnan(diff)] = float("inf")
        raise AssertionError(
            f"{base_name} and {ref_name} differ in {mismatched} of {total} "
            f"elements ({mismatched / max(total, 1):.2%}; allowed "
            f"{max_mismatched_ratio:.2%}) with rtol={rtol}, atol={atol}; "
            f"max abs difference {float(diff.max()):.6g}")
    if verbose:
        print(f"{base_name} vs {ref_name}: {mismatched}/{total} mismatched")


def _cuda_capability():
    torch = tz.torch
    if torch is None or not torch.cuda.is_available():
        return None
    return torch.cuda.get_device_capability()


def _skip_unless(condition, reason):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            if not condition():
                raise unittest.SkipTest(reason)
            return fn(*args, **kwargs)
        return wrapper
    return deco


class _Requirement:
    """A test requirement as TVM's ``tvm.testing`` features are: a
    decorator (with or without a call) that skips the test when it does not
    hold, and ``marks()``, the pytest marks that do the same for a
    ``pytest.param(..., marks=...)`` case (none where pytest is missing)."""

    def __init__(self, check, reason):
        self._check = check
        self._reason = reason

    def __call__(self, fn=None):
        deco = _skip_unless(self._check, self._reason)
        return deco(fn) if fn is not None else deco

    def marks(self):
        try:
            import pytest
        except ImportError:
            return []
        return [pytest.mark.skipif(not self._check(), reason=self._reason)]


requires_cuda = _Requirement(lambda: _cuda_capability() is not None,
                             "needs a CUDA device")


# tlc builds HIP code objects but runs them only on the sim device.
requires_rocm = _Requirement(lambda: False, "needs a ROCm device")

# TVM's other features TileLang's tests name (tvm.testing.utils, which
# tilelang.testing re-exports): "llvm" is tlc's cpu target, always built
# and run here; tlc has no Metal back end; a GPU is a CUDA device.
requires_llvm = _Requirement(lambda: True, "needs LLVM")
requires_metal = _Requirement(lambda: False,
                              "needs Metal (tlc has no Metal back end)")
requires_gpu = _Requirement(lambda: _cuda_capability() is not None,
                            "needs a GPU")


def requires_cuda_compute_version(major, minor=0, mode="ge"):
    """Skips unless the device's compute capability compares ``mode``
    (ge, gt, le, lt, eq) with ``major.minor``."""
    ops = {"ge": lambda a, b: a >= b, "gt": lambda a, b: a > b,
           "le": lambda a, b: a <= b, "lt": lambda a, b: a < b,
           "eq": lambda a, b: a == b}

    def check():
        cap = _cuda_capability()
        return cap is not None and ops[mode](tuple(cap), (major, minor))
    return _skip_unless(check, f"needs CUDA compute capability {mode} "
                        f"{major}.{minor}")


def requires_cuda_compute_version_ge(major, minor=0):
    return requires_cuda_compute_version(major, minor, "ge")


def requires_cuda_compute_version_gt(major, minor=0):
    return requires_cuda_compute_version(major, minor, "gt")


def requires_cuda_compute_version_eq(major, minor=0):
    return requires_cuda_compute_version(major, minor, "eq")


def requires_cuda_compute_version_le(major, minor=0):
    return requires_cuda_compute_version(major, minor, "le")


def requires_cuda_compute_version_lt(major, minor=0):
    return requires_cuda_compute_version(major, minor, "lt")


def requires_package(*names):
    def available():
        import importlib.util
        return all(importlib.util.find_spec(n) is not None for n in names)
    return _skip_unless(available, f"needs package(s) {', '.join(names)}")


def _is_param(value):
    """Whether a parametrize value is a ``pytest.param(...)`` (pytest's
    ParameterSet, a named tuple of values, marks and id) rather than a
    value itself: only that one's ``values`` / ``marks`` are read, so a
    value whose attributes are made up on demand (``T.serial``) is a value."""
    return isinstance(value, tuple) and \
        getattr(type(value), "_fields", None) == ("values", "marks", "id")


def _cases(fn):
    """The keyword sets a test runs with: one per combination of its
    ``pytest.mark.parametrize`` cases (read from the marks pytest attaches
    as ``fn.pytestmark``), or one empty set; None when a ``skip`` /
    ``skipif(True)`` mark skips it."""
    cases = [{}]
    for mark in reversed(getattr(fn, "pytestmark", [])):
        name = getattr(mark, "name", None)
        args = tuple(getattr(mark, "args", ()))
        kwargs = dict(getattr(mark, "kwargs", {}))
        if name == "skip" or (name == "skipif" and args and args[0]):
            return None
        if name != "parametrize":
            continue
        names = args[0] if args else kwargs["argnames"]
        values = args[1] if len(args) > 1 else kwargs["argvalues"]
        if isinstance(names, str):
            names = [n.strip() for n in names.split(",") if n.strip()]
        rows = []
        for v in values:
            if _is_param(v):  # pytest.param(..., marks=...)
                # marks=[skipif(True)] drops the case.
                if any(getattr(m, "name", None) == "skipif" and
                       tuple(getattr(m, "args", ()))[:1] == (True,)
                       for m in v.marks):
                    continue
                v = v.values
            if len(names) == 1 and not (isinstance(v, tuple) and len(v) == 1):
                v = (v,)
            rows.append(dict(zip(names, v)))
        cases = [{**c, **r} for c in cases for r in rows]
    return cases


def _xfail_marks(fn):
    """The kwargs of an unconditional ``pytest.mark.xfail`` on ``fn``."""
    for mark in getattr(fn, "pytestmark", []):
        if getattr(mark, "name", None) != "xfail":
            continue
        args = tuple(getattr(mark, "args", ()))
        kwargs = dict(getattr(mark, "kwargs", {}))
        if args[0] if args else kwargs.get("condition", True):
            return kwargs
    return None


def _run_case(case):
    """Runs one test case with the fixtures its parameters name; returns
    the outcome ("PASS", "FAIL", "SKIP", "XFAIL") and a message."""
    from .._fixtures import Case  # noqa: F401 (the type of case)
    fn = case.fn
    kwargs = dict(case.params)
    try:
        for name, p in inspect.signature(fn).parameters.items():
            if name in kwargs or p.default is not p.empty or \
                    p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            kwargs[name] = case.fixture(name)
        fn(**{k: v for k, v in kwargs.items()
              if k in inspect.signature(fn).parameters})
    except unittest.SkipTest as e:
        return "SKIP", str(e)
    except BaseException as e:
        # pytest.skip() and pytest.fail() (also a failed pytest.raises:
        # "DID NOT RAISE") raise pytest's Skipped and Failed,
        # BaseExceptions; the others (KeyboardInterrupt, SystemExit,
        # pytest.exit) stop the run.
        kind = type(e).__name__
        if kind == "Skipped":
            return "SKIP", str(e)
        if not isinstance(e, Exception) and kind != "Failed":
            raise
        xfail = case.xfail
        if xfail is not None:
            raises = xfail.get("raises")
            if raises is None or isinstance(e, raises):
                return "XFAIL", xfail.get("reason", "")
        return "FAIL", traceback.format_exc()
    finally:
        case.close()
    if case.xfail is not None and case.xfail.get("strict", False):
        return "FAIL", "[XPASS(strict)] " + case.xfail.get("reason", "")
    return "PASS", ""


def _caller_module(caller):
    """The module object whose globals are ``caller``, if it is in
    ``sys.modules``."""
    mod = sys.modules.get(caller.get("__name__", ""))
    if mod is not None and getattr(mod, "__dict__", None) is caller:
        return mod
    return None


def _pytest_main(caller):
    """Runs the calling script's tests through pytest, as TileLang's
    ``tilelang.testing.main()`` does: pytest's fixtures, marks, ids and
    outcomes. The script already ran as ``__main__``; it is registered
    under the name pytest imports it by, so its module code (kernels built
    at import) does not run a second time."""
    import pytest
    path = os.path.abspath(caller["__file__"])
    stem = os.path.splitext(os.path.basename(path))[0]
    mod = _caller_module(caller)
    if mod is not None and stem not in sys.modules and \
            not os.path.exists(os.path.join(os.path.dirname(path),
                                            "__init__.py")):
        sys.modules[stem] = mod
    return pytest.main([path, "-p", "no:cacheprovider"] + sys.argv[1:])


def _runner():
    """"pytest" when the scripts' tests run through pytest (the default
    where pytest is installed), else "builtin"; ``TLC_TESTING_RUNNER``
    chooses."""
    choice = os.environ.get("TLC_TESTING_RUNNER", "")
    if choice in ("pytest", "builtin"):
        return choice
    import importlib.util
    return "pytest" if importlib.util.find_spec("pytest") else "builtin"


def main():
    """Runs every ``test_*`` function of the calling module (the
    ``__main__`` script) and exits with status 1 when one fails.

    Where pytest is installed this is ``pytest.main`` on the script (what
    TileLang's ``main`` does), so every fixture, mark and hook behaves as
    under pytest. Without it (or with ``TLC_TESTING_RUNNER=builtin``) the
    package's own runner runs each ``pytest.mark.parametrize`` case once,
    with the fixtures of ``_fixtures`` (``request``, ``monkeypatch``,
    ``tmp_path``, ``capsys``); tests raising ``unittest.SkipTest`` are
    reported as skipped, an expected failure (an ``xfail`` mark) too."""
    from .._fixtures import Case
    caller = inspect.stack()[1].frame.f_globals
    if _runner() == "pytest" and caller.get("__file__"):
        sys.exit(_pytest_main(caller))
    tests = []
    for name, fn in list(caller.items()):
        if not (name.startswith("test") and callable(fn)
                and inspect.isfunction(fn)):
            continue
        cases = _cases(fn)
        if cases is None:
            print(f"SKIP {name}: skip mark")
            continue
        for kw in cases:
            label = name if not kw else \
                f"{name}[{'-'.join(map(str, kw.values()))}]"
            tests.append((label, fn, kw))
    failed = skipped = 0
    for label, fn, kw in tests:
        case = Case(label, fn, kw)
        case.xfail = _xfail_marks(fn)
        outcome, message = _run_case(case)
        if outcome == "FAIL":
            failed += 1
            print(f"FAIL {label}")
            print(message, end="" if message.endswith("\n") else "\n")
        elif outcome in ("SKIP", "XFAIL"):
            skipped += 1
            print(f"{outcome} {label}: {message}")
        else:
            print(f"PASS {label}")
    print(f"{len(tests) - failed - skipped} passed, {failed} failed, "
          f"{skipped} skipped")
    sys.exit(1 if failed else 0)


# -- performance drivers (regression_*.py / bench_*.py scripts) --------------

def process_func(func, *args, name=None, **kwargs):
    """TileLang's performance-regression step: runs ``func(*args,
    **kwargs)`` (an example's ``run_regression_perf``, which returns its
    kernel's latency in ms) and records ``(name, latency)`` under ``name``
    (default: the function's module). A function that raises is recorded
    as failed with its error, its traceback printed: :func:`regression`
    then exits with status 1 (TileLang only warns)."""
    from .benchmark import _record
    return _record(func, args, kwargs, name)


def regression():
    """Runs every ``regression_*`` function of the calling script in the
    order it defines them, prints the latencies :func:`process_func`
    recorded, and exits with status 1 when one failed."""
    from .benchmark import _drive
    _drive(inspect.stack()[1].frame.f_globals, "regression_")


def bench():
    """Runs every ``bench_*`` function of the calling script (the
    ``bench_example_*.py`` files, which record through
    ``tilelang.testing.benchmark.process_func``), prints the latencies and
    exits with status 1 when one failed."""
    from .benchmark import _drive
    _drive(inspect.stack()[1].frame.f_globals, "bench_")
