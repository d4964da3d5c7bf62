"""Callables as factory arguments.

``matmul(M, N, K, epilogue=lambda x: T.max(x, 0))``, a ``score_mod``
function of the script, ``functools.partial(scale, s=0.5)``: tlc-build
takes a ``-D`` value naming a module-level callable of the file it builds
as that callable. A function defined at module level under its own name is
passed by that name. Anything else the package can represent (a lambda, a
function defined inside another function, a partial, a ``T.*`` function,
a builtin such as ``range``)
is appended to a copy of the script as a module-level definition, its free
variables (and the module globals it reads that hold plain values, which
later module code may rebind) captured by value, and passed by the new
name; the name carries a hash of that definition, so each distinct
callable is its own instance and cache entry. What cannot be represented
(a torch function, a callable object, a lambda of another
module or without source) is a TypeError naming the argument, never a
kernel built without it.
"""

import ast
import functools
import hashlib
import inspect
import linecache
import numbers
import os
import re
import textwrap
import types

from . import _ast_parse
from . import _build

_HEADER = ("# tlc: callable arguments of one call, added by the tilelang "
           "package\nimport functools as __tlc_functools\n"
           "import tilelang.language as __tlc_T\n")


class CallableError(TypeError):
    """A callable argument the package cannot represent for tlc."""


def _same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def _function_file(fn):
    try:
        return inspect.getsourcefile(fn) or inspect.getfile(fn)
    except TypeError:
        return None


def _lambda_source(fn):
    """The source text of lambda ``fn``, found by its line in the file's
    syntax tree; CallableError when it cannot be told apart."""
    code = fn.__code__
    path = code.co_filename
    text = "".join(linecache.getlines(path))
    if not text:
        raise CallableError("its source is not available")
    tree = _ast_parse.parse(text)
    nargs = code.co_argcount + code.co_kwonlyargcount
    params = list(code.co_varnames[:nargs])
    cands = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Lambda) or \
                node.lineno != code.co_firstlineno:
            continue
        a = node.args
        names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
        if names != params:
            continue
        cands.append(node)
    if len(cands) > 1:
        # Tell them apart by where the code's instructions are (3.11+).
        positions = getattr(code, "co_positions", None)
        if positions is not None:
            cols = {(p[0], p[2]) for p in positions()
                    if p[0] is not None and p[2] is not None}
            inside = [n for n in cands if any(
                (line, col) >= (n.body.lineno, n.body.col_offset) and
                (line, col) <= (n.body.end_lineno, n.body.end_col_offset)
                for line, col in cols)]
            if inside:
                cands = inside
        texts = {ast.get_source_segment(text, n) for n in cands}
        if len(texts) > 1:
            raise CallableError(
                f"line {code.co_firstlineno} of {os.path.basename(path)} "
                "has several lambdas with the same parameters; the package "
                "cannot tell which one this is (define it with 'def')")
    if not cands:
        raise CallableError("its source is not available")
    return ast.get_source_segment(text, cands[0])


def _def_source(fn):
    """The source text of function ``fn`` (its ``def``, decorators kept),
    dedented."""
    try:
        lines, _ = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        raise CallableError("its source is not available") from None
    return textwrap.dedent("".join(lines))


@functools.lru_cache(maxsize=64)
def _top_level_lines(path, mtime):
    """The lines of ``path`` that its module-level statements run by
    evaluating the module start on: the decorator and ``def`` lines of
    top-level functions and classes, every line of other top-level simple
    statements (``f = lambda x: ...``). Lines inside a top-level ``if``,
    ``with``, ``for``, ``try`` ... are not. None where it does not
    parse."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            tree = _ast_parse.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return None
    lines = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                             ast.ClassDef)):
            first = min([d.lineno for d in node.decorator_list] +
                        [node.lineno])
            lines.update(range(first, node.lineno + 1))
        elif not isinstance(node, (ast.If, ast.With, ast.AsyncWith, ast.For,
                                   ast.AsyncFor, ast.While, ast.Try)):
            lines.update(range(node.lineno, node.end_lineno + 1))
    return frozenset(lines)


def in_module_block(fn, script_file):
    """Whether ``fn`` (a function or lambda; also through ``__wrapped__``)
    is defined at module level of ``script_file`` inside a block, such as
    ``if __name__ == "__main__":``, rather than by a top-level statement:
    TileLang reads it where a prim_func of the block is defined; tlc's run
    of the module need not define it, or may rebind what it reads, so the
    package passes it as a definition of its own."""
    if not isinstance(fn, types.FunctionType):
        fn = getattr(fn, "__wrapped__", None)
    if not isinstance(fn, types.FunctionType) or \
            "<locals>" in fn.__qualname__:
        return False
    path = _function_file(fn)
    if path is None or not _same_file(path, script_file):
        return False
    try:
        mtime = os.path.getmtime(path)
    except OSError:
        return False
    lines = _top_level_lines(os.path.abspath(path), mtime)
    return lines is not None and fn.__code__.co_firstlineno not in lines


class Representer:
    """Collects the callable arguments of one call and the module-level
    definitions they need in the copy of the script tlc builds.
    ``value_globals``: the module's globals as a definition saw them (a
    prim_func under ``if __name__ == "__main__":``), read instead of the
    live module's for the values appended functions capture."""

    def __init__(self, script_file, script_globals=None, value_globals=None):
        self.script_file = script_file
        self.script_globals = script_globals
        self.value_globals = value_globals
        self.defs = []
        self._names = {}

    # -- values ----------------------------------------------------------------

    def define(self, value):
        """The ``-D`` text of ``value``; callables (also inside tuples and
        lists) are named. None for a value tlc cannot take at all."""
        return _build.format_define(value, callable_hook=self.reference)

    def literal(self, value):
        """``value`` as Python source in the appended definitions."""
        from ._dtype import dtype
        if isinstance(value, (bool, type(None))):
            return repr(value)
        if isinstance(value, numbers.Integral):
            return str(int(value))
        if isinstance(value, numbers.Real) and \
                not isinstance(value, numbers.Rational):
            f = float(value)
            return repr(f) if f == f and abs(f) != float("inf") \
                else f"float({str(f)!r})"
        if isinstance(value, str):
            return repr(value)
        if isinstance(value, dtype):
            return "__tlc_T." + value.tlc_name
        if isinstance(value, _build.IteratorValues):
            return f"iter({self.literal(tuple(value))})"
        if isinstance(value, (tuple, list)):
            items = [self.literal(v) for v in value]
            if isinstance(value, list):
                return "[" + ", ".join(items) + "]"
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") \
                + ")"
        if isinstance(value, dict):
            return "{" + ", ".join(f"{self.literal(k)}: {self.literal(v)}"
                                   for k, v in value.items()) + "}"
        if str(value).startswith("torch.") and \
                _build.format_define(value) is not None:
            return "__tlc_T." + _build.format_define(value)[2:]
        if callable(value):
            return self.reference(value)
        raise CallableError(f"it uses the value {_short(value)}, which the "
                            "package cannot pass to tlc")

    # -- callables -------------------------------------------------------------

    def reference(self, value):
        """The module-level name of callable ``value`` in the built copy."""
        key = id(value)
        if key in self._names:
            return self._names[key][0]
        name = self._reference(value)
        self._names[key] = (name, value)  # keeps value alive for id()
        return name

    def _script_name(self, value):
        """The name ``value`` is defined under at the script's module level,
        when it is a function of the script (or imported into it) bound
        under its own name."""
        g = self.script_globals
        name = getattr(value, "__name__", None)
        if g is None or not name or name == "<lambda>":
            return None
        qual = getattr(value, "__qualname__", name)
        if "<locals>" in qual or g.get(name) is not value or \
                in_module_block(value, self.script_file):
            return None
        return name

    def _emit(self, stem, body):
        digest = hashlib.sha256(body.encode()).hexdigest()[:12]
        name = f"__tlc_arg_{stem}_{digest}"
        self.defs.append(body.replace("__TLC_NAME__", name))
        return name

    def _reference(self, value):
        from . import language as T
        if isinstance(value, functools.partial):
            args = [self.literal(a) for a in value.args]
            args += [f"{k}={self.literal(v)}"
                     for k, v in value.keywords.items()]
            fn = self.reference(value.func)
            return self._emit("partial", f"__TLC_NAME__ = __tlc_functools."
                              f"partial({', '.join([fn] + args)})\n")
        from ._layout_objects import Layout
        if isinstance(value, type) and getattr(value, "_tlc_name", None):
            # T.Layout / T.Fragment themselves (classes in Python).
            return self._emit(value._tlc_name,
                              f"__TLC_NAME__ = __tlc_T.{value._tlc_name}\n")
        if isinstance(value, Layout):
            return self._layout(value)
        from .language._objects import Placeholder
        if isinstance(value, Placeholder) and not value._args and \
                re.fullmatch(r"T(\.[A-Za-z_]\w*)+", value._text):
            return self._emit(value._text[2:].replace(".", "_"),
                              f"__TLC_NAME__ = __tlc_T.{value._text[2:]}\n")
        m = isinstance(value, Placeholder) and not value._args and \
            re.fullmatch(r"(tilelang(?:\.[A-Za-z_]\w*)*)\.([A-Za-z_]\w*)",
                         value._text)
        if m:
            # A name of a TileLang module tlc models (tilelang.layout's
            # make_*_swizzled_layout): imported from there by the defs.
            module, attr = m.group(1), m.group(2)
            alias = "__tlc_" + module.replace(".", "_")
            return self._emit(
                module.replace(".", "_") + "_" + attr,
                f"import {module} as {alias}\n"
                f"__TLC_NAME__ = {alias}.{attr}\n")
        if _build.is_builtin(value):
            # A builtin by its own name, unless the script rebinds it.
            g = self.script_globals or {}
            if value.__name__ in g and g[value.__name__] is not value:
                raise CallableError(
                    f"the script rebinds the builtin name "
                    f"'{value.__name__}'")
            return self._emit(value.__name__,
                              f"__TLC_NAME__ = {value.__name__}\n")
        for attr, obj in vars(T).items():
            if obj is value and not attr.startswith("_"):
                return self._emit(attr, f"__TLC_NAME__ = __tlc_T.{attr}\n")
        name = self._script_name(value)
        if name is not None:
            return name
        fn = getattr(value, "__wrapped__", None) \
            if not isinstance(value, types.FunctionType) else value
        if not isinstance(fn, types.FunctionType):
            raise CallableError(
                f"{_short(value)} is not a Python function, lambda or "
                "functools.partial (tlc evaluates the kernel's Python code "
                "itself and cannot call it)")
        path = _function_file(fn)
        if path is None or not _same_file(path, self.script_file):
            raise CallableError(
                f"function '{fn.__qualname__}' is defined in "
                f"{path or 'no file'}, not in the script tlc builds, and the "
                "script has no module-level name for it")
        is_lambda = fn.__name__ == "<lambda>"
        src = _lambda_source(fn) if is_lambda else _def_source(fn)
        code = fn.__code__
        cells = fn.__closure__ or ()
        captured = {}
        for var, cell in zip(code.co_freevars, cells):
            try:
                captured[var] = cell.cell_contents
            except ValueError:
                raise CallableError(
                    f"'{fn.__qualname__}' uses '{var}' before its enclosing "
                    "function assigns it") from None
        # Module globals holding plain values are taken now: module code
        # after the call may rebind them before tlc traces the instance.
        # Functions of a module block it calls are passed too (tlc's run
        # of the module need not define them).
        g = fn.__globals__
        if self.value_globals is not None and g is self.script_globals:
            g = self.value_globals
        for var in code.co_names:
            if var not in g or var in captured:
                continue
            if (_build.format_define(g[var]) is not None and
                    not isinstance(g[var], (types.ModuleType, type))) or \
                    (var != fn.__name__ and
                     in_module_block(g[var], self.script_file)):
                captured[var] = g[var]
        params = ", ".join(captured)
        args = ", ".join(self.literal(v) for v in captured.values())
        if is_lambda:
            body = f"    return (\n{src}\n    )\n"
        else:
            body = textwrap.indent(src, "    ") + \
                f"    return {fn.__name__}\n"
        stem = "lambda" if is_lambda else fn.__name__
        text = (f"# {fn.__qualname__} of {os.path.basename(path)}:"
                f"{code.co_firstlineno}\n"
                f"def __TLC_NAME___make({params}):\n{body}"
                f"__TLC_NAME__ = __TLC_NAME___make({args})\n")
        return self._emit(stem, text)

    def _layout(self, layout):
        """A layout made in Python (``T.Fragment((M, N), forward_fn=f)``,
        ``layout.repeat(...)``): its construction, replayed at module level
        of the built copy (tlc-build binds a -D name to a module-level
        layout as to a callable). Its forward functions and arguments are
        represented as other arguments are: what cannot be is a
        CallableError naming it."""
        recipe = layout._recipe
        if recipe[0] == "method":
            _, base, method, args, kwargs = recipe
            head = f"{self.reference(base)}.{method}"
        else:
            _, ctor, args, kwargs = recipe
            head = f"__tlc_T.{ctor}"
        try:
            parts = [self.literal(a) for a in args] + \
                [f"{k}={self.literal(v)}" for k, v in kwargs.items()]
        except CallableError as e:
            raise CallableError(f"layout {layout!r}: {e}") from None
        return self._emit(type(layout)._tlc_name,
                          f"__TLC_NAME__ = {head}({', '.join(parts)})\n")

    # -- the copy of the script ------------------------------------------------

    def build_file(self, base_file):
        """``base_file``, or a copy of it with the definitions appended when
        the call passed callables that need them."""
        if not self.defs:
            return base_file
        from ._nested import write_derived
        with open(base_file, encoding="utf-8",
                  errors="surrogateescape") as f:
            original = f.read()
        return write_derived(base_file, original.rstrip("\n") + "\n\n\n" +
                             _HEADER + "\n" + "\n".join(self.defs))


def _short(value):
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
