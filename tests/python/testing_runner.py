"""``tilelang.testing.main()`` on public test files' forms, without pytest
installed (its marks and outcome exceptions are modelled by their shape).

* A ``T.*`` placeholder (``T.serial``) as a ``parametrize`` value: it used
  to be read as a ``pytest.param`` (its made-up ``marks`` attribute was
  iterated through ``__getitem__`` forever, so
  test_tilelang_language_pythonic.py hung before running a test).
  Iterating a placeholder is a TypeError now, and only a real
  ``pytest.param`` (a named tuple of values, marks, id) is unpacked.
* A failed ``pytest.raises`` ("DID NOT RAISE") raises pytest's ``Failed``,
  a BaseException: it is one failed test, and the run goes on (it used to
  end the whole script at the first one).
"""

import collections
import os
import signal
import subprocess
import sys
import textwrap
import unittest

import tilelang.language as T
from tilelang import testing


def on_alarm(signum, frame):
    raise AssertionError("timed out: a placeholder was iterated forever")


signal.signal(signal.SIGALRM, on_alarm)
signal.alarm(60)

# Iterating a placeholder stops at once with a TypeError.
for form in (lambda: list(T.serial), lambda: 3 in T.serial,
             lambda: tuple(T.alloc_shared((4,), "float32"))):
    try:
        form()
    except TypeError as e:
        assert "iter" in str(e), e
    else:
        raise AssertionError("iterating a placeholder raised nothing")


class Mark:
    """pytest's Mark: a name, args and kwargs."""

    def __init__(self, name, *args, **kwargs):
        self.name, self.args, self.kwargs = name, args, kwargs


# pytest.param(...) is a ParameterSet, a named tuple of these fields.
Param = collections.namedtuple("ParameterSet", ["values", "marks", "id"])


def loops(loop, control):
    pass


# T.* names are made on each access: keep one object of each.
serial, parallel, pipelined = T.serial, T.Parallel, T.Pipelined
loops.pytestmark = [
    Mark("parametrize", "control", ["break", "continue"]),
    Mark("parametrize", "loop",
         [serial, range, Param((parallel,), [], None),
          Param((pipelined,), [Mark("skipif", True)], None)]),
]
cases = testing._cases(loops)
expected = [{"loop": lp, "control": c}
            for lp in (serial, range, parallel)
            for c in ("break", "continue")]
assert len(cases) == len(expected), cases
for got, want in zip(cases, expected):
    assert got["control"] == want["control"], (got, want)
    assert got["loop"] is want["loop"], (got, want)

signal.alarm(0)

# requires_rocm is a requirement like requires_cuda: a decorator and the
# marks of a pytest.param case (test_tilelang_issue_2714.py); no ROCm
# device runs tests here, so the test is skipped.
@testing.requires_rocm
def needs_rocm():
    raise AssertionError("ran without a ROCm device")


try:
    needs_rocm()
except unittest.SkipTest:
    pass
assert isinstance(testing.requires_rocm.marks(), list)
assert testing.requires_rocm()(needs_rocm) is not None

# tvm.testing's requires_llvm / requires_metal / requires_gpu, which
# TileLang's tests name through tilelang.testing (they raised
# AttributeError at import): "llvm" is tlc's cpu target, so an llvm test
# runs; tlc has no Metal back end, so a Metal test is skipped.
ran = []


@testing.requires_llvm
def needs_llvm():
    ran.append("llvm")


@testing.requires_metal
def needs_metal():
    raise AssertionError("ran without Metal")


needs_llvm()
assert ran == ["llvm"], ran
try:
    needs_metal()
    raise AssertionError("a Metal test was not skipped")
except unittest.SkipTest:
    pass
assert isinstance(testing.requires_llvm.marks(), list)
assert isinstance(testing.requires_gpu.marks(), list)

# A pytest-style Failed is one failure; the tests after it still run.
script = textwrap.dedent('''
    import tilelang.testing

    class Failed(BaseException):  # pytest.fail / a failed pytest.raises
        pass

    def test_does_not_raise():
        raise Failed("DID NOT RAISE <class 'ValueError'>")

    def test_after():
        print("ran test_after")

    tilelang.testing.main()
''')
here = os.path.dirname(os.path.abspath(__file__))
env = dict(os.environ,
           PYTHONPATH=os.path.join(here, "..", "..", "python"))
proc = subprocess.run([sys.executable, "-c", script], capture_output=True,
                      text=True, env=env, timeout=120)
out = proc.stdout
assert proc.returncode == 1, (proc.returncode, out, proc.stderr)
assert "FAIL test_does_not_raise" in out, out
assert "ran test_after" in out and "PASS test_after" in out, out
assert "1 passed, 1 failed, 0 skipped" in out, out
print("testing_runner: OK")
