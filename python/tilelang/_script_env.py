"""The environment variables a script reads while tlc evaluates it.

tlc-build evaluates the script itself, as run with none of its own
environment variables set (``os.environ.get(NAME, default)`` is the
default), unless ``--environ=NAME=VALUE`` sets one. This process may have
them set: a size read from the environment at module level
(``BLOCK = int(os.environ.get("BLOCK", "64"))``) would then be one value
here and another in the instance tlc builds. :func:`script_environ` lists
the variables the script and the modules of its directory it imports read
with a literal name (``os.environ.get("NAME", ...)``, ``os.getenv("NAME")``,
``os.environ["NAME"]``, ``"NAME" in os.environ``) that are set here; the package passes them to tlc-build and keys its
build directories, remembered refusals and tunings by them.
"""

import ast
import os
import threading

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


def _reads(tree):
    """Names of the variables ``tree`` reads by a string literal:
    ``os.environ.get(NAME, ...)``, ``os.environ.setdefault(NAME, ...)``,
    ``os.getenv(NAME, ...)``, ``os.environ[NAME]`` and ``NAME in
    os.environ`` (also ``environ`` / ``getenv`` imported from ``os``)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _is_environ(node.value):
            name = _literal(node.slice)
        elif isinstance(node, ast.Compare) and \
                any(_is_environ(c) for c in node.comparators):
            name = _literal(node.left)
        elif isinstance(node, ast.Call) and node.args:
            name = _literal(node.args[0])
            f = node.func
            if not (isinstance(f, ast.Attribute) and
                    f.attr in ("get", "setdefault") and
                    _is_environ(f.value) or
                    isinstance(f, ast.Attribute) and f.attr == "getenv" and
                    isinstance(f.value, ast.Name) and f.value.id == "os" or
                    isinstance(f, ast.Name) and f.id == "getenv"):
                name = None
        else:
            name = None
        if name is not None:
            names.add(name)
    return names


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
    """``(names, siblings)`` of one file, memoized by its size and
    modification time; empty when it cannot be read or parsed."""
    try:
        st = os.stat(path)
    except OSError:
        return frozenset(), ()
    key = (os.path.abspath(path), st.st_size, st.st_mtime_ns)
    with _lock:
        if key in _memo:
            return _memo[key]
    try:
        with open(path, "rb") as f:
            tree = ast.parse(f.read())
        result = (frozenset(_reads(tree)),
                  tuple(_imported_siblings(tree, os.path.dirname(path))))
    except (OSError, SyntaxError, ValueError):
        result = (frozenset(), ())
    with _lock:
        _memo[key] = result
    return result


def read_names(source_file):
    """The variable names ``source_file`` and the sibling modules it
    imports (transitively) read, sorted."""
    names, seen, todo = set(), set(), [source_file]
    while todo:
        path = os.path.abspath(todo.pop())
        if path in seen:
            continue
        seen.add(path)
        file_names, siblings = _file_reads(path)
        names |= file_names
        todo.extend(siblings)
    return sorted(names)


def script_environ(source_file):
    """``[(name, value), ...]``: the variables of :func:`read_names` that
    are set in this process's environment, sorted by name."""
    return [(n, os.environ[n]) for n in read_names(source_file)
            if n in os.environ]


def environ_args(source_file):
    """tlc-build's ``--environ=NAME=VALUE`` arguments for
    :func:`script_environ`."""
    return [f"--environ={n}={v}" for n, v in script_environ(source_file)]
