"""The environment variables a script reads while tlc evaluates it.

tlc-build evaluates the script itself, as run with none of its own
environment variables set (``os.environ.get(NAME, default)`` is the
default), unless ``--environ=NAME=VALUE`` sets one. This process may have
them set: a size read from the environment at module level
(``BLOCK = int(os.environ.get("BLOCK", "64"))``) would then be one value
here and another in the instance tlc builds. :func:`script_environ` lists
the variables the script and the modules of its directory it imports read
(``os.environ.get(NAME, ...)``, ``os.getenv(NAME)``, ``os.environ[NAME]``,
``NAME in os.environ``) that are set here; the package passes them to
tlc-build and keys its build directories, remembered refusals and tunings
by them.

NAME is a literal, or computed: a variable every binding of which in the
file is a string literal (``key = "BLOCK"``, ``for key in ("A", "B")``)
stands for those strings; an f-string, ``+`` concatenation, ``%``
formatting or ``"...".format(...)`` of such parts is a pattern whose other
parts match any text (``f"TLC_BLOCK_{kind}"`` is every set variable
starting with ``TLC_BLOCK_``). A name with no literal part at all (a
function's parameter, ``os.environ.get(key)`` in a loop over
``os.environ``) cannot be told: the package warns once at that line, and
tlc evaluates that read as of an unset variable.

The set is the script's, not each kernel's: all of it is passed to every
build. Which of them one kernel's evaluation read only the evaluator knows
(a static split is not sound: a helper any factory may call, a value
passed along): ``tlc-build --environ-report`` says, and the package keys
that kernel's build directory and remembered refusals by those
(``_build._environ_key``); this set keys them before the first build and
where the report is missing, and keys the tunings.
"""

import ast
import itertools
import os
import re
import threading
import warnings

from . import _ast_parse

_memo = {}
_lock = threading.Lock()


def _is_environ(node):
    """True for ``os.environ`` or ``environ`` (imported from ``os``)."""
    return isinstance(node, ast.Name) and node.id == "environ" or \
        isinstance(node, ast.Attribute) and node.attr == "environ" and \
        isinstance(node.value, ast.Name) and node.value.id == "os"


def _literal(node):
    """The string of a string literal, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


# A part of a computed name that may be any text.
_ANY = None
# Alternatives kept for one name expression (a product of bindings).
_MAX_ALTERNATIVES = 64


def _string_bindings(tree):
    """``{name: set of strings}`` for the variables of ``tree`` every
    binding of which (in any scope) is a string literal: ``x = "A"``,
    ``x: str = "A"``, ``for x in ("A", "B")`` (a tuple or list of
    literals). A name bound any other way anywhere in the file (a
    parameter, an import, ``x += ...``, a ``with``/``except`` target, a
    comprehension) is left out: its value cannot be told."""
    values, other, literal_stores = {}, set(), set()

    def literals(node):
        if isinstance(node, (ast.Tuple, ast.List)):
            items = [_literal(e) for e in node.elts]
            return None if None in items else items
        return None

    def bind(target, strings):
        values.setdefault(target.id, set()).update(strings)
        literal_stores.add(id(target))

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and _literal(node.value) is not None \
                and all(isinstance(t, ast.Name) for t in node.targets):
            for t in node.targets:
                bind(t, [node.value.value])
        elif isinstance(node, ast.AnnAssign) and \
                isinstance(node.target, ast.Name) and \
                (node.value is None or _literal(node.value) is not None):
            bind(node.target, [] if node.value is None else
                 [node.value.value])
        elif isinstance(node, (ast.For, ast.AsyncFor)) and \
                isinstance(node.target, ast.Name) and \
                literals(node.iter) is not None:
            bind(node.target, literals(node.iter))
        elif isinstance(node, ast.arg):
            other.add(node.arg)
        elif isinstance(node, ast.alias):
            other.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                               ast.ClassDef)):
            other.add(node.name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            other.add(node.name)
        elif type(node).__name__ in ("MatchAs", "MatchStar") and node.name:
            other.add(node.name)
        elif type(node).__name__ == "MatchMapping" and node.rest:
            other.add(node.rest)
    # Every other store of a name (tuple unpacking, with/for targets over
    # other values, the walrus, augmented assignment, del).
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and \
                isinstance(node.ctx, (ast.Store, ast.Del)) and \
                id(node) not in literal_stores:
            other.add(node.id)
    return {k: v for k, v in values.items() if k not in other}


def _printf_parts(text):
    """The parts of a ``%`` format string: its text, and _ANY for each
    conversion (``%s``, ``%(key)d``, ``%-4.2f``); ``%%`` is ``%``."""
    parts, pos = [], 0
    for m in re.finditer(r"%(%|(\([^)]*\))?[-#0 +]*(\*|\d+)?"
                         r"(\.(\*|\d+))?[hlL]?[diouxXeEfFgGcrsa])", text):
        parts.append(text[pos:m.start()])
        parts.append("%" if m.group(1) == "%" else _ANY)
        pos = m.end()
    parts.append(text[pos:])
    return [tuple(parts)]


def _format_parts(text):
    """The parts of a ``str.format`` string: its text, and _ANY for each
    replacement field; ``{{``/``}}`` are braces."""
    parts, pos = [], 0
    for m in re.finditer(r"\{\{|\}\}|\{[^{}]*\}", text):
        parts.append(text[pos:m.start()])
        parts.append(m.group()[0] if m.group() in ("{{", "}}") else _ANY)
        pos = m.end()
    parts.append(text[pos:])
    return [tuple(parts)]


def _name_parts(node, strings):
    """The alternatives of the name expression ``node``: a list of tuples
    of parts, each part a string or _ANY (any text)."""
    if _literal(node) is not None:
        return [(node.value,)]
    if isinstance(node, ast.Name) and node.id in strings:
        return [(v,) for v in sorted(strings[node.id])]
    if isinstance(node, ast.JoinedStr):
        pieces = []
        for v in node.values:
            if _literal(v) is not None:
                pieces.append([(v.value,)])
            elif isinstance(v, ast.FormattedValue) and v.format_spec is None \
                    and v.conversion in (-1, ord("s")):
                pieces.append(_name_parts(v.value, strings))
            else:
                pieces.append([(_ANY,)])
        return _product(pieces)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _product([_name_parts(node.left, strings),
                         _name_parts(node.right, strings)])
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and \
            _literal(node.left) is not None:
        return _printf_parts(node.left.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "format" and \
            _literal(node.func.value) is not None:
        return _format_parts(node.func.value.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in ("upper", "lower") and not node.args:
        inner = _name_parts(node.func.value, strings)
        conv = str.upper if node.func.attr == "upper" else str.lower
        return [tuple(p if p is _ANY else conv(p) for p in alt)
                for alt in inner]
    return [(_ANY,)]


def _product(pieces):
    """Concatenations of one alternative of each piece in order (all of
    them up to _MAX_ALTERNATIVES; past that, one part matching any text
    after the common first alternative's parts)."""
    count = 1
    for p in pieces:
        count *= len(p)
    if count > _MAX_ALTERNATIVES:
        pieces = [p if len(p) == 1 else [(_ANY,)] for p in pieces]
    return [tuple(part for alt in combo for part in alt)
            for combo in itertools.product(*pieces)]


def _pattern(parts):
    """A name (str) for parts with no _ANY, a compiled regular expression
    matching the names the parts can spell when some text is known, else
    None (nothing of the name is known)."""
    if _ANY not in parts:
        return "".join(parts)
    if not any(parts):
        return None
    return re.compile("".join(".*" if p is _ANY else re.escape(p)
                              for p in parts), re.DOTALL)


def _environ_call_name(node):
    """The name argument of an environment read ``node`` (a call of
    ``os.environ.get``/``setdefault`` or ``os.getenv``, a subscript of
    ``os.environ``, or ``NAME in os.environ``), else None."""
    if isinstance(node, ast.Subscript) and _is_environ(node.value):
        s = node.slice
        # Python 3.8 wraps the index in ast.Index (gone in later ones).
        return s.value if isinstance(s, getattr(ast, "Index", ())) else s
    if isinstance(node, ast.Compare) and \
            any(_is_environ(c) for c in node.comparators):
        return node.left
    if isinstance(node, ast.Call) and node.args:
        f = node.func
        if isinstance(f, ast.Attribute) and \
                f.attr in ("get", "setdefault") and _is_environ(f.value) or \
                isinstance(f, ast.Attribute) and f.attr == "getenv" and \
                isinstance(f.value, ast.Name) and f.value.id == "os" or \
                isinstance(f, ast.Name) and f.id == "getenv":
            return node.args[0]
    return None


def _all_reads(tree):
    """``(names, patterns, unknown)`` of the variables ``tree`` reads:
    the names it spells out or computes from literals only, regular
    expressions for computed names with some known text, and the lines of
    reads whose name has none."""
    strings = _string_bindings(tree)
    names, patterns, unknown = set(), [], []
    for node in ast.walk(tree):
        arg = _environ_call_name(node)
        if arg is None:
            continue
        for alt in _name_parts(arg, strings):
            p = _pattern(alt)
            if isinstance(p, str):
                names.add(p)
            elif p is not None:
                if p.pattern not in {q.pattern for q in patterns}:
                    patterns.append(p)
            elif node.lineno not in unknown:
                unknown.append(node.lineno)
    return names, patterns, sorted(unknown)


def _reads(tree):
    """Names of the variables ``tree`` reads by a literal name or one
    computed from literals only (see :func:`_all_reads`)."""
    return _all_reads(tree)[0]


def _imported_siblings(tree, directory):
    """The ``.py`` files of ``directory`` that ``tree`` imports by a
    top-level name (``import utils``, ``from utils import f``)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and \
                node.module:
            mods = [node.module]
        else:
            continue
        for mod in mods:
            path = os.path.join(directory, *mod.split(".")) + ".py"
            if os.path.isfile(path):
                found.append(path)
    return found


def _file_reads(path):
    """``(names, siblings, patterns, unknown lines)`` of one file,
    memoized by its size and modification time; empty when it cannot be
    read or parsed."""
    try:
        st = os.stat(path)
    except OSError:
        return frozenset(), (), (), ()
    key = (os.path.abspath(path), st.st_size, st.st_mtime_ns)
    with _lock:
        if key in _memo:
            return _memo[key]
    try:
        with open(path, "rb") as f:
            tree = _ast_parse.parse(f.read())
        names, patterns, unknown = _all_reads(tree)
        result = (frozenset(names),
                  tuple(_imported_siblings(tree, os.path.dirname(path))),
                  tuple(patterns), tuple(unknown))
    except (OSError, SyntaxError, ValueError):
        result = (frozenset(), (), (), ())
    with _lock:
        _memo[key] = result
    return result


def _read_set(source_file):
    """``(names, patterns, unknown)`` over ``source_file`` and the sibling
    modules it imports (transitively); ``unknown`` holds ``(file, line)``
    of reads whose name has no known text."""
    names, patterns, unknown = set(), [], []
    seen, todo = set(), [source_file]
    while todo:
        path = os.path.abspath(todo.pop())
        if path in seen:
            continue
        seen.add(path)
        file_names, siblings, file_patterns, lines = _file_reads(path)
        names |= file_names
        patterns.extend(file_patterns)
        unknown.extend((path, line) for line in lines)
        todo.extend(siblings)
    return names, patterns, unknown


def read_names(source_file):
    """The variable names ``source_file`` and the sibling modules it
    imports (transitively) read by a name known in full, sorted."""
    return sorted(_read_set(source_file)[0])


_warned = set()


def script_environ(source_file):
    """``[(name, value), ...]``: the variables of this process's
    environment the script may read (:func:`read_names`, and every set
    variable a computed name's pattern matches), sorted by name. Warns
    once per line of a read whose name cannot be told."""
    names, patterns, unknown = _read_set(source_file)
    for where in unknown:
        with _lock:
            if where in _warned:
                continue
            _warned.add(where)
        warnings.warn(
            f"{where[0]}:{where[1]}: tlc cannot tell which environment "
            "variable this reads (its name is computed, with no literal "
            "part); tlc evaluates it as unset, so a kernel it changes may "
            "differ from this process's (spell the name, or a literal "
            "prefix, in the call)", RuntimeWarning, stacklevel=2)
    environ = os.environ
    found = {n for n in names if n in environ}
    if patterns:  # a scan of the environment (~30 us): only when needed
        found |= {n for n in environ
                  if any(p.fullmatch(n) for p in patterns)}
    return [(n, environ[n]) for n in sorted(found)]


def environ_args(source_file):
    """tlc-build's ``--environ=NAME=VALUE`` arguments for
    :func:`script_environ`."""
    return [f"--environ={n}={v}" for n, v in script_environ(source_file)]
