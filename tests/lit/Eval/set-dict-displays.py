# Set displays and comprehensions hold each value once and dict displays
# each key once, with Python's equality (1 == 1.0 == True): a key keeps its
# first spelling and position and takes the last value. tlc used to keep
# the duplicates of `{1, 1}` and `{i % 2 for i in ...}` (len 2 and 4) and
# of `{1: 'a', **d}`. CPython is the oracle: this script (run by CPython,
# not tlc) evaluates each expression and writes a TileLang program asserting
# tlc's value of it equals CPython's, and storing the lengths in a kernel,
# whose constants FileCheck compares with CPython's.
# RUN: %python %s %t.py %t.check
# RUN: tlc-build --check %t.py 2>&1 | count 0
# RUN: tlc-build --emit=tile %t.py | FileCheck %t.check
# RUN: not tlc-build --check %S/Inputs/set-unhashable.py 2>&1 \
# RUN:   | FileCheck %s --check-prefix=UNHASHABLE
# UNHASHABLE: set-unhashable.py:4:5: error: TypeError: unhashable type: 'list'
import sys

# Expressions whose CPython value tlc must reproduce exactly (sets are
# compared through len and sorted, whose order CPython fixes).
EXPRS = [
    "len({1, 1})", "len({1, 1.0, True})", "len({0, False, 0.0, 2})",
    "len({i % 2 for i in range(4)})", "sorted({i % 3 for i in range(10)})",
    "len({'a', 'a', 'b'})", "len({(1, 2), (1, 2), (2, 1)})",
    "len({None, None})", "sorted({3, 1, 3, 2, 1})",
    "len({*[1, 2, 2], *(2, 3)})", "len({x * 0.5 for x in [2, 1, 4, 2]})",
    "len(set([1, 1, True]))", "len(set(i // 2 for i in range(6)))",
    "2 in {1, 2, 2}", "[type(v).__name__ for v in {1, 1.0, True}]",
    "len({1: 'a', 1: 'b'})", "{1: 'a', 1: 'b'}[1]",
    "list({1: 'a', 2: 'c', 1.0: 'b'}.items())",
    "repr(list({1: 'a', True: 'b'}))", "repr(list({True: 'a', 1: 'b'}))",
    "list({1: 'x', **{1: 'y', 2: 'z'}}.items())",
    "list({**{1: 'y', 2: 'z'}, 2.0: 'w'}.items())",
    "list({i % 2: i for i in range(5)}.items())",
    "list(dict([(1, 'a'), (2, 'b'), (1, 'c')]).items())",
    "list(dict({'k': 1}, k=2).items())",
]
# The lengths a kernel stores, one per line of the @consts kernel.
LENS = ["len({1, 1})", "len({i % 2 for i in range(4)})",
        "len({1: 'a', 1: 'b'})", "len({1, True, 1.0, 2})"]

out, check = sys.argv[1], sys.argv[2]
lines = ["import tilelang.language as T", ""]
for e in EXPRS:
    lines.append(f"assert ({e}) == {eval(e)!r}, {e!r}")
lines += ["", "", "@T.prim_func",
          f"def consts(B: T.Tensor(({len(LENS)},), T.int32)):",
          "    with T.Kernel(1, threads=1):"]
with open(check, "w") as f:
    f.write("CHECK-LABEL: tile.func @consts\n")
    for k, e in enumerate(LENS):
        lines.append(f"        B[{k}] = {e}")
        f.write(f"CHECK: arith.constant {eval(e)} : i32\n")
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
