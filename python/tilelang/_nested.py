"""Kernels defined inside functions.

tlc-build addresses kernels by the name of a module-level function. A
TileLang script often defines its kernel inside another function
(``def get_best_config(M, N, K): def kernel(block_M=None, ...): ...``,
``@autotune @jit`` inside a helper, factories inside tests), using that
function's variables. For such a kernel the package builds a copy of the
script with the nested function appended at module level under a new name,
its free variables turned into leading parameters; the call binds them to
the values the closure holds (``-D M=4096``), so tlc compiles the instance
Python asked for. The copy lives in the package's cache directory; the
original file is never written.
"""

import ast
import hashlib
import inspect
import os
import re
import textwrap
import threading
import types

from . import _ast_parse
from . import _build, _env


def is_nested_code(code, globals_=None):
    """Whether the function of ``code`` is defined inside another function
    (its qualified name has ``<locals>``; before Python 3.11, whether the
    module's global of that name is not this function)."""
    qualname = getattr(code, "co_qualname", None)
    if qualname is not None:
        return "<locals>" in qualname
    g = (globals_ or {}).get(code.co_name)
    while g is not None and not inspect.isfunction(g) and \
            hasattr(g, "__wrapped__"):
        g = g.__wrapped__
    return not (inspect.isfunction(g) and g.__code__ is code)


def closure_values(fn):
    """The free variables of ``fn`` and the values its closure holds now."""
    code = fn.__code__
    cells = fn.__closure__ or ()
    values = {}
    for name, cell in zip(code.co_freevars, cells):
        try:
            values[name] = cell.cell_contents
        except ValueError:  # not assigned yet in the enclosing function
            raise TypeError(
                f"kernel '{fn.__name__}' uses '{name}' of its enclosing "
                "function before that function assigns it") from None
    return values


def module_names(values):
    """``{name: module name}`` of the ``values`` that are modules (``import
    tilelang.language as T`` inside the enclosing function): a lifted copy
    imports them again instead of taking them as parameters."""
    return {name: v.__name__ for name, v in values.items()
            if isinstance(v, types.ModuleType)}


def cell_values(code, closure):
    """The closure values of ``code`` that are assigned by now."""
    values = {}
    for name, cell in zip(code.co_freevars, closure or ()):
        try:
            values[name] = cell.cell_contents
        except ValueError:
            pass
    return values


def check_defines(kernel, enclosing, values, rep=None):
    """``-D`` texts of the closure ``values`` (callables named through
    ``rep``, a ``_callables.Representer``); TypeError naming the first one
    the package cannot pass."""
    from ._callables import CallableError
    from .language._objects import Symbol
    defines = {}
    for name, value in values.items():
        if isinstance(value, Symbol):
            continue  # stays symbolic, as a Symbol passed to a factory does
        if isinstance(value, types.ModuleType):
            continue  # imported again by the lifted copy (module_names)
        try:
            text = rep.define(value) if rep is not None else \
                _build.format_define(value)
        except CallableError as e:
            raise TypeError(
                f"kernel '{kernel}' is defined inside '{enclosing}' and uses "
                f"its variable '{name}' = {_short(value)}, which the package "
                f"cannot pass to tlc: {e}") from None
        if text is None:
            raise TypeError(
                f"kernel '{kernel}' is defined inside '{enclosing}' and uses "
                f"its variable '{name}' = {_short(value)}; tlc builds a "
                "nested kernel from the values of such variables, which must "
                "be int, float, bool, None, str, a dtype or a tuple / list "
                "of these (define "
                f"'{name}' at module level or pass it as a parameter)")
        defines[name] = text
    return defines


def _short(value):
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _lifted_dir():
    if _env.cache_disabled():
        return os.path.join(_build.tmp_root(), "nested")
    return os.path.join(_build.cache_root(), "python", "nested")


def _nested_source(code):
    """``(line, lines, qualname, name)`` of the function of ``code``: the
    source line of its ``def``, its dedented lines from the ``def`` on
    (decorators dropped), its qualified name and the module-level name a
    lifted copy gets."""
    lines, first_line = inspect.getsourcelines(code)
    text = textwrap.dedent("".join(lines))
    tree = _ast_parse.parse(text)
    node = next((n for n in tree.body
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))),
                None)
    if node is None:
        raise TypeError(f"cannot find the source of '{code.co_name}'")
    body = text.splitlines(keepends=True)[node.lineno - 1:]
    qualname = getattr(code, "co_qualname", code.co_name)
    new_name = "__tlc_nested_" + re.sub(r"\W", "_", qualname.replace(
        ".<locals>.", "__"))
    return first_line + node.lineno - 1, body, qualname, new_name


def lift(source_file, code, free_names, eager=False, imports=None,
         jit=False):
    """``(path, name)``: a copy of ``source_file`` with the function of
    ``code`` (defined inside another function) appended at module level as
    ``name``, with ``free_names`` as its first parameters and without its
    decorators (the package applies what they say). An ``eager`` kernel
    gets a plain ``@tilelang.jit`` instead: tlc tells an eager kernel from
    a plain function by that decorator, and its ``T.const`` names are bound
    only in a jit kernel. ``imports`` (name -> module) are free variables
    holding modules: imported at module level before the copy instead of
    being parameters. ``jit``: a lazy factory that defines no prim_func
    itself (it returns another factory's call) gets ``@tilelang.jit`` as
    well, without which tlc would not know it as a kernel."""
    imports = imports or {}
    free_names = [n for n in free_names if n not in imports]
    def_line, body, qualname, new_name = _nested_source(code)
    head = re.match(r"(\s*(?:async\s+)?def\s+)" + re.escape(code.co_name) +
                    r"(\s*\()", body[0])
    if head is None:
        raise TypeError(f"cannot lift the nested function '{qualname}': its "
                        "'def' line is not where Python says it is")
    params = "".join(f"{n}, " for n in free_names)
    body[0] = head.group(1) + new_name + head.group(2) + params + \
        body[0][head.end():]
    with open(source_file, encoding="utf-8", errors="surrogateescape") as f:
        original = f.read()
    decorator = "".join(f"import {m} as {n}\n" for n, m in imports.items())
    if decorator:
        decorator += "\n\n"
    if eager or jit:
        decorator += ("import tilelang as __tlc_tilelang\n\n\n"
                      "@__tlc_tilelang.jit\n")
    derived = (original.rstrip("\n") + "\n\n\n"
               f"# tlc: '{qualname}' of {os.path.basename(source_file)}:"
               f"{def_line}, lifted to module level by "
               "the tilelang package\n" + decorator + "".join(body))
    return write_derived(source_file, derived), new_name


def lift_prim_func(source_file, code, free_names, imports=None):
    """``(path, name)``: a copy of ``source_file`` with the prim_func of
    ``code`` (defined inside another function) appended inside a new
    module-level factory ``name`` whose parameters are ``free_names`` and
    which returns it: tlc builds the prim_func alone, without evaluating
    the rest of the function that defined it. ``imports`` (name -> module)
    are free variables holding modules, imported inside the factory."""
    imports = imports or {}
    free_names = [n for n in free_names if n not in imports]
    def_line, body, qualname, new_name = _nested_source(code)
    with open(source_file, encoding="utf-8", errors="surrogateescape") as f:
        original = f.read()
    derived = (original.rstrip("\n") + "\n\n\n"
               f"# tlc: '{qualname}' of {os.path.basename(source_file)}:"
               f"{def_line}, built alone by the "
               "tilelang package\n"
               "import tilelang.language as __tlc_T\n\n\n"
               f"def {new_name}({', '.join(free_names)}):\n" +
               "".join(f"    import {m} as {n}\n" for n, m in imports.items()) +
               "    @__tlc_T.prim_func\n" +
               textwrap.indent("".join(body), "    ") +
               f"\n    return {code.co_name}\n")
    return write_derived(source_file, derived), new_name


def write_derived(source_file, derived):
    """The path of a file holding ``derived`` (a copy of ``source_file``
    with definitions appended) in the package's cache directory, named by
    its content."""
    digest = hashlib.sha256(derived.encode("utf-8", "surrogateescape"))
    stem = os.path.splitext(os.path.basename(source_file))[0]
    directory = _lifted_dir()
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory,
                        f"{stem}__{digest.hexdigest()[:16]}.py")
    if not os.path.exists(path):
        # Threads of one process (the tuner's parallel builds) write the
        # same copy at once: each its own temporary file.
        tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
        with open(tmp, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(derived)
        os.replace(tmp, path)
    return path
