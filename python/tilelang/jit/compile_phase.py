"""Strict compilation (``TILELANG_REQUIRE_EXPLICIT_COMPILE=1``): a process
compiles its kernels first and runs them after.

With the switch set (``tilelang.env.is_explicit_compile_required()``):

* a kernel factory or eager kernel runs only instances compiled
  explicitly (``factory.compile(...)``, ``factory.par_compile([...])``,
  ``tilelang.compile``); a call that would compile raises RuntimeError
  (``tilelang/_compiler.py``);
* the first kernel launch, or :func:`seal_compilation`, seals compilation:
  from then on every compilation raises RuntimeError, so no launch waits
  for a build;
* a launch waits for compilations other threads are running, then seals;
  a launch from a thread inside a compilation raises (it would wait for
  itself).

Without the switch nothing is sealed and compilations and launches mix
freely, as before."""

import contextlib
import threading

from ..env import env

_cond = threading.Condition()
_state = {"sealed": False, "active": 0}
# Compilations each thread is inside (nested scopes count once each).
_depth = threading.local()

_SEALED = ("tilelang compilation is sealed: a kernel has been launched (or "
           "tilelang.seal_compilation() called) with "
           "TILELANG_REQUIRE_EXPLICIT_COMPILE set, so this process compiles "
           "nothing more; compile every kernel before the first launch, or "
           "start a new Python process")


def _own_depth():
    return getattr(_depth, "n", 0)


def is_compilation_sealed():
    with _cond:
        return _state["sealed"]


@contextlib.contextmanager
def compilation_scope():
    """The extent of one compilation: raises once compilation is sealed
    (strict mode only); launches in other threads wait for it to end."""
    if not env.is_explicit_compile_required():
        yield
        return
    with _cond:
        if _state["sealed"]:
            raise RuntimeError(_SEALED)
        _state["active"] += 1
    _depth.n = _own_depth() + 1
    try:
        yield
    finally:
        _depth.n = _own_depth() - 1
        with _cond:
            _state["active"] -= 1
            _cond.notify_all()


def _seal_after_compilations():
    with _cond:
        while _state["active"] > 0:
            _cond.wait()
        _state["sealed"] = True


def before_launch():
    """Called by every kernel launch: in strict mode, waits for the other
    threads' compilations and seals compilation."""
    if not env.is_explicit_compile_required():
        return
    if _own_depth() > 0:
        raise RuntimeError(
            "a kernel was launched from a thread that is still compiling "
            "(TILELANG_REQUIRE_EXPLICIT_COMPILE is set, so the launch would "
            "wait for its own compilation to end); launch after it returns")
    _seal_after_compilations()


def seal_compilation():
    """``tilelang.seal_compilation()``: in strict mode, ends compilation for
    the process now (after the compilations running in other threads);
    without ``TILELANG_REQUIRE_EXPLICIT_COMPILE`` it does nothing."""
    if env.is_explicit_compile_required():
        if _own_depth() > 0:
            raise RuntimeError("tilelang.seal_compilation() called inside a "
                               "compilation")
        _seal_after_compilations()


def _reset_compilation_phase_for_testing():
    """Forgets the seal (tests only: a real process never unseals)."""
    with _cond:
        _state["sealed"] = False
        _cond.notify_all()
