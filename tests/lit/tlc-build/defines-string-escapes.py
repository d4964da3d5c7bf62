# A quoted -D value is a Python string literal: its escapes (\n, \', \\,
# \x41, \u0042) are decoded as CPython decodes them, so the Python package
# passes any str factory argument as its repr() (a T.import_source prelude
# with newlines and quotes, test_tilelang_language_import_source.py). A
# value without quotes stays the plain text it is.
# RUN: tlc-build %s --emit=tile --target=cpu --kernel=lengths --defines-only "-Dtext='a\nb\'c\\\\d\x41\u0042'" | FileCheck %s --check-prefix=ESC
# RUN: tlc-build %s --emit=tile --target=cpu --kernel=lengths --defines-only '-Dtext="it'"'"'s"' | FileCheck %s --check-prefix=DQ
# RUN: tlc-build %s --emit=tile --target=cpu --kernel=lengths --defines-only "-Dtext=('x\'y', 'z')" | FileCheck %s --check-prefix=TUPLE
# RUN: tlc-build %s --emit=tile --target=cpu --kernel=lengths --defines-only "-Dtext=plain" | FileCheck %s --check-prefix=PLAIN

# 'a', '\n', 'b', "'", 'c', '\\', 'd', 'A', 'B': 9 characters, 1 newline,
# 1 quote, 1 backslash, 1 'A'.
# ESC: arith.constant 9 : i32
# ESC: arith.constant 1 : i32
# ESC: arith.constant 1 : i32
# ESC: arith.constant 1 : i32
# ESC: arith.constant 1 : i32
# DQ: arith.constant 4 : i32
# TUPLE: arith.constant 2 : i32
# TUPLE: arith.constant 31 : i32
# PLAIN: arith.constant 5 : i32

import tilelang
import tilelang.language as T


@tilelang.jit(target="cpu")
def lengths(text):
    @T.prim_func
    def main(A: T.Tensor((8,), "int32")):
        with T.Kernel(1, threads=1):
            A[0] = len(text)
            if isinstance(text, str):
                A[1] = text.count("\n")
                A[2] = text.count("'")
                A[3] = text.count("\\")
                A[4] = text.count("A")
            else:
                A[1] = len(text[0]) * 10 + text[0].count("'")
    return main
