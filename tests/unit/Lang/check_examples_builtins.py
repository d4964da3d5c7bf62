#!/usr/bin/python3
"""Checks the TileLang builtin registry against CPython and the examples.

The registry rows (compiler/include/tlc/Lang/Builtins.def, DType.def) are
extracted with the C preprocessor; then, with CPython as the oracle:
  1. every parameter list parses as a Python `def` parameter list, and
     inspect.Signature accepts it;
  2. every `T.<name>(...)` / `tilelang.<name>(...)` call and every `T.<name>`
     attribute in examples/*.py names a registry entry that is Supported,
     and the call's positional count and keyword names bind with
     inspect.Signature.bind (the same rule tlc's matchArguments implements).

Usage: check_examples_builtins.py --cxx CXX --include DIR --examples DIR
"""

import argparse
import ast
import glob
import inspect
import os
import re
import subprocess
import sys

PROLOGUE = r"""
#define TLC_BUILTIN(Id, Name, Kind, Category, Support, Params, Returns, Doc) \
  ROW(#Id, Name, #Kind, #Support, Params, None),
#define TLC_ALIAS(Id, Name, TargetId, Deprecated) ROW(#Id, Name, "Alias", "", "", #TargetId),
ROWS_BEGIN
#include "tlc/Lang/Builtins.def"
ROWS_END
#define TLC_DTYPE(Id, Name, Short, Bits, Class, ExpBits, ManBits, Attr, Vec, Doc) DTYPE(Name, Attr, Vec),
#define TLC_DTYPE_ALIAS(Alias, Id, Attr) DTYPE(Alias, Attr, 0),
DTYPES_BEGIN
#include "tlc/Lang/DType.def"
DTYPES_END
"""


def load_registry(cxx, include):
    proc = subprocess.run([cxx, "-E", "-P", "-x", "c++", "-I", include, "-"], input=PROLOGUE,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("preprocessing failed:\n" + proc.stderr)
    text = proc.stdout
    rows_text = text[text.index("ROWS_BEGIN") + len("ROWS_BEGIN"):text.index("ROWS_END")]
    dtypes_text = text[text.index("DTYPES_BEGIN") + len("DTYPES_BEGIN"):text.index("DTYPES_END")]
    rows = ast.literal_eval("[" + rows_text.replace("ROW(", "(") + "]")
    dtypes = ast.literal_eval("[" + dtypes_text.replace("DTYPE(", "(") + "]")
    return rows, dtypes


def make_signature(name, params):
    """inspect.Signature for a parameter list given as source text."""
    tree = ast.parse(f"def f({params}): pass")
    args = tree.body[0].args
    P = inspect.Parameter
    out = []
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for i, (arg, default) in enumerate(zip(positional, defaults)):
        kind = P.POSITIONAL_ONLY if i < len(args.posonlyargs) else P.POSITIONAL_OR_KEYWORD
        out.append(P(arg.arg, kind, default=P.empty if default is None else ast.unparse(default)))
    if args.vararg:
        out.append(P(args.vararg.arg, P.VAR_POSITIONAL))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        out.append(P(arg.arg, P.KEYWORD_ONLY, default=P.empty if default is None else ast.unparse(default)))
    if args.kwarg:
        out.append(P(args.kwarg.arg, P.VAR_KEYWORD))
    return inspect.Signature(out)


def dtype_attributes(dtypes):
    names = set()
    for name, attr, vec in dtypes:
        if not attr:
            continue
        names.add(name)
        for bit in range(1, 7):
            if vec >> bit & 1:
                names.add(f"{name}x{1 << bit}")
    return names


def qualified(node, aliases):
    """`T.copy` / `tilelang.jit` / `tilelang.layout.make_x` for an attribute
    chain rooted at an imported module alias, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in aliases:
        return None
    return ".".join([aliases[node.id]] + parts[::-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--include", required=True)
    parser.add_argument("--examples", required=True)
    args = parser.parse_args()

    rows, dtypes = load_registry(args.cxx, args.include)
    errors = []
    by_id = {row[0]: row for row in rows}
    entries = {}
    for ident, name, kind, support, params, target in rows:
        if target is not None:
            base = by_id[target]
            kind, support, params = base[2], base[3], base[4]
        try:
            sig = make_signature(name, params)
        except (SyntaxError, ValueError) as err:
            errors.append(f"{name}: parameter list '{params}' is not valid Python: {err}")
            continue
        if name in entries:
            errors.append(f"{name}: duplicate entry")
        entries[name] = (kind, support, sig)
    dtype_names = dtype_attributes(dtypes)

    files = sorted(glob.glob(os.path.join(args.examples, "*.py")))
    if len(files) < 14:
        errors.append(f"expected at least 14 examples, found {len(files)}")
    calls = 0
    for path in files:
        tree = ast.parse(open(path).read(), path)
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name == "tilelang.language":
                        aliases[a.asname or a.name] = "T"
                    elif a.name == "tilelang":
                        aliases[a.asname or "tilelang"] = "tilelang"
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("tilelang"):
                for a in node.names:
                    aliases[a.asname or a.name] = f"{node.module}.{a.name}".replace("tilelang.language.", "T.")
        base = os.path.basename(path)
        called = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = qualified(node.func, aliases)
                if name is None and isinstance(node.func, ast.Name) and node.func.id in aliases:
                    name = aliases[node.func.id]
                if name is None:
                    continue
                called.add(id(node.func))
                where = f"{base}:{node.lineno}: {name}"
                if name.split(".")[-1] in dtype_names and name.startswith("T."):
                    continue
                if name not in entries:
                    errors.append(f"{where}: not in the registry")
                    continue
                kind, support, sig = entries[name]
                if support != "Supported":
                    errors.append(f"{where}: used by an example but not Supported")
                if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
                    continue
                try:
                    sig.bind(*range(len(node.args)), **{k.arg: 0 for k in node.keywords})
                    calls += 1
                except TypeError as err:
                    errors.append(f"{where}: {err}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and id(node) not in called:
                name = qualified(node, aliases)
                if name is None or not name.startswith("T."):
                    continue
                if name[2:] in dtype_names or name in entries:
                    continue
                # Members reached through a namespace (T.GemmWarpPolicy.FullRow) are checked whole.
                if any(n.startswith(name + ".") for n in entries):
                    continue
                errors.append(f"{base}:{node.lineno}: attribute {name} is not in the registry")

    if errors:
        print("\n".join(errors))
        print(f"{len(errors)} error(s)")
        return 1
    print(f"check_examples_builtins: {len(entries)} entries, {calls} calls in {len(files)} examples bind")
    return 0


if __name__ == "__main__":
    sys.exit(main())
