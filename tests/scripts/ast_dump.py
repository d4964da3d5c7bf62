#!/usr/bin/python3
"""Dump the statement tree of Python files with CPython's `ast` module.

This is the oracle of the `tlc-build --emit=ast` differential test. Output
format (identical to tlc-build): one line per statement (`ast.stmt`) in
pre-order, `LINE:COL KIND` with a 1-based line, the 0-based UTF-8 byte column
and the `ast` class name. A compound statement comes before the statements of
its fields, which are visited in CPython's field order (body, handlers,
orelse, finalbody, cases, ...). With several files, each file's output is
preceded by a `==> FILE <==` line.

Usage: ast_dump.py FILE...              dump the files
       ast_dump.py --accepted FILE...   print the files CPython accepts
"""

import ast
import sys


def dump(tree, out):
    def visit(node):
        if isinstance(node, ast.stmt):
            out.append("%d:%d %s" % (node.lineno, node.col_offset,
                                     type(node).__name__))
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        visit(item)
            elif isinstance(value, ast.AST):
                visit(value)
    visit(tree)


def parse(path):
    with open(path, "rb") as f:
        source = f.read()
    return ast.parse(source, filename=path)


def main(argv):
    if argv and argv[0] == "--accepted":
        for path in argv[1:]:
            try:
                parse(path)
            except (SyntaxError, ValueError, UnicodeDecodeError):
                continue
            print(path)
        return 0
    lines = []
    for path in argv:
        if len(argv) > 1:
            lines.append("==> %s <==" % path)
        dump(parse(path), lines)
    sys.stdout.write("\n".join(lines) + ("\n" if lines else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
