"""What tlc-build builds for a ``@T.prim_func`` object (the file, kernel
and ``-D`` bindings: a module-level prim_func, one made by a factory, one
lifted out of a function or a ``__main__`` block), and the check
``@T.prim_func`` runs where it defines a function."""

import ast
import contextlib
import inspect
import os
import threading
import types

from . import _ast_parse
from . import _attrs, _build, _callables, _nested, _target_resolve
from ._eager_signature import _defines_for


def prim_func_build_inputs(func):
    """What tlc-build builds for prim_func ``func``: the file (a copy with
    a nested factory lifted or callable arguments appended, where needed),
    the kernel name and the ``-D`` bindings."""
    build_file, build_kernel = func.source_file, func.kernel_name
    defines = {}
    rep = _callables.Representer(func.source_file,
                                 getattr(func.fn, "__globals__", None))
    if func.factory is None:
        hidden = _hidden_prim_func_inputs(func, rep)
        if hidden is not None:
            build_file, build_kernel, defines = hidden
    if func.factory_code is not None and func.factory_nested:
        # A prim_func made by a factory defined inside another function.
        build_file, build_kernel = _nested.lift(
            func.source_file, func.factory_code, list(func.factory_closure),
            imports=_nested.module_names(func.factory_closure))
        defines = _nested.check_defines(func.kernel_name, "its enclosing "
                                        "function", func.factory_closure, rep)
    # A value the package cannot pass that the kernel does not read (a
    # pytest fixture such as `monkeypatch` of the test function defining
    # the prim_func) stays unbound; tlc evaluates the factory without it.
    used = set(func.fn.__code__.co_freevars)
    for name, value in func.factory_args.items():
        try:
            defines.update(_defines_for({name: value}, {}, func.kernel_name,
                                        rep))
        except TypeError:
            if name in used:
                raise
    return rep.build_file(build_file), build_kernel, defines


def _module_statement(fn, source_file):
    """Whether module-level function ``fn`` is defined by a statement of
    the module's top level of ``source_file`` (not inside an ``if``, a
    ``with``, a ``try`` ...). True where the package cannot tell."""
    try:
        with open(source_file, encoding="utf-8",
                  errors="surrogateescape") as f:
            tree = _ast_parse.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return True
    first = fn.__code__.co_firstlineno

    def starts(node):
        lines = [d.lineno for d in node.decorator_list] + [node.lineno]
        return first in lines

    found = [n for n in ast.walk(tree)
             if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and
             n.name == fn.__name__ and starts(n)]
    if len(found) != 1:
        return True
    return any(n is found[0] for n in tree.body)


def _hidden_prim_func_inputs(func, rep):
    """``(build_file, kernel, defines)`` for a prim_func defined at module
    level inside a block tlc does not run when it evaluates the module,
    such as ``if __name__ == "__main__":`` (TileLang's issue-2528 test
    defines ``kernel_3d`` there); None for one at the module's top level.
    TileLang traces the function where it is defined, reading the globals
    it uses then; the package builds a copy of it inside a module-level
    factory whose parameters are the globals it reads that hold values it
    can pass (modules are imported inside the factory), bound to their
    values at the definition."""
    fn = func.fn
    if func.factory is not None or \
            _module_statement(fn, func.source_file):
        return None
    try:
        node = _attrs._function_node(fn)
    except (OSError, TypeError, SyntaxError):
        return None
    if node is None:
        return None
    g = func.definition_globals
    if g is None:
        g = getattr(fn, "__globals__", {})
    params = set(inspect.signature(fn).parameters)
    values = {}
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Name) or \
                not isinstance(sub.ctx, ast.Load) or \
                sub.id in params or sub.id in values or sub.id not in g:
            continue
        value = g[sub.id]
        if isinstance(value, types.ModuleType) or \
                _build.format_define(value) is not None or \
                _callables.in_module_block(value, func.source_file):
            values[sub.id] = value
    # The block's functions read the globals as the definition saw them.
    rep.value_globals = g
    defines = _nested.check_defines(fn.__name__, "the module", values, rep)
    build_file, kernel = _nested.lift_prim_func(
        func.source_file, fn.__code__, list(values),
        imports=_nested.module_names(values))
    return build_file, kernel, defines


class _Deferred(threading.local):
    on = False


_definition_checks = _Deferred()


@contextlib.contextmanager
def definition_checks_deferred():
    """Within it (in this thread), ``@T.prim_func`` does not check the
    function where it is defined (:func:`check_at_definition`): its build
    reports the same errors. The autotuner builds every configuration's
    prim_func at once, and the check was a second tlc-build run each."""
    previous = _definition_checks.on
    _definition_checks.on = True
    try:
        yield
    finally:
        _definition_checks.on = previous


def check_at_definition(func):
    """Raises, where ``@T.prim_func`` defines ``func``, the error TileLang
    raises while tracing it there (a ValueError for a bad argument, a
    RuntimeError for a variable used outside its region, ...): tlc checks
    the instance (``tlc-build --check``) and the first error in the
    function's own lines whose diagnostic carries a Python exception type
    TileLang raises at the definition is raised as that type.
    Other errors wait for the build. ``TLC_CHECK_AT_DEFINITION=0`` turns
    the check off."""
    if os.environ.get("TLC_CHECK_AT_DEFINITION", "1") == "0" or \
            _definition_checks.on:
        return
    try:
        build_file, kernel, defines = prim_func_build_inputs(func)
        target = _target_resolve.resolve_target(None)
        lines, first = inspect.getsourcelines(func.fn)
        within = (func.source_file, first, first + len(lines) - 1)
    except Exception:  # what cannot be built is reported by the build
        return
    found = _build.check_categorized(build_file, kernel, defines, target,
                                     within)
    if found is not None:
        cls, diagnostic = found
        raise definition_error(cls, diagnostic)


def definition_error(cls, diagnostic):
    """The exception of class ``cls`` for a diagnostic tlc reported at a
    definition (``{"file", "line", "col", "message", ...}``). Its text is
    the diagnostic's message alone, TileLang's words (scripts compare
    ``str(e)`` with TileLang's text: test_tilelang_issue_3035.py; tlc's
    ``ValueError: `` prefix is the exception's type); where
    it is stays available as ``e.location`` (``FILE:LINE:COL``),
    ``e.diagnostic`` (tlc's whole line) and a note of the exception
    (shown under the traceback)."""
    message = diagnostic.get("message", "")
    category = diagnostic.get("category")
    if category and message.startswith(category + ": "):
        # tlc's message names the exception type; Python prints the type.
        message = message[len(category) + 2:]
    error = cls(message)
    error.location = (f"{diagnostic.get('file')}:{diagnostic.get('line')}:"
                      f"{diagnostic.get('col')}")
    error.diagnostic = _build.format_diagnostic(diagnostic)
    if hasattr(error, "add_note"):  # Python 3.11+
        error.add_note(f"at {error.location} (tlc)")
    return error


def _refused_inside(error, func):
    """Whether tlc refused the build with a diagnostic located in the
    prim_func's own lines: building the prim_func alone would be refused
    the same way (an autotuner's configuration tlc refuses is built once,
    not twice)."""
    refused = getattr(error, "refused", None)
    if not refused or refused[2] is None or refused[3] is None:
        return False
    try:
        lines, first = inspect.getsourcelines(func.fn)
        same = os.path.samefile(refused[2], func.source_file)
    except (OSError, TypeError):
        return False
    return same and first <= refused[3] < first + len(lines)


def prim_func_alone_inputs(func):
    """Like :func:`prim_func_build_inputs`, for a prim_func defined inside
    a function: its copy inside a module-level factory of the variables it
    uses, bound to the values its closure holds. tlc then builds it without
    evaluating the rest of the defining function (a test's later lines,
    which may fail where tlc cannot evaluate them, such as an inspection of
    the compiled kernel). None for a module-level prim_func."""
    if func.factory is None:
        return None
    closure = {**_nested.closure_values(func.fn), **func.materialized}
    rep = _callables.Representer(func.source_file,
                                 getattr(func.fn, "__globals__", None))
    defines = _nested.check_defines(func.fn.__name__, func.factory, closure,
                                    rep)
    build_file, kernel = _nested.lift_prim_func(
        func.source_file, func.fn.__code__, list(closure),
        imports=_nested.module_names(closure))
    return rep.build_file(build_file), kernel, defines
