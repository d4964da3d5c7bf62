# Sets and frozensets are Python sets: equality ignores order, the set
# algebra, methods and comparisons are CPython's, frozensets hash (as dict
# keys and set members), and a set iterates in CPython's order, which is
# the order of CPython's hash table (tlc builds the same table for ints,
# floats, bools and tuples of them). tlc used to hold sets as lists:
# `{1, 2} == {2, 1}` was False and `|`, `&`, `.add`, `frozenset` ... were
# missing. CPython is the oracle: this script (run by CPython, not tlc)
# runs each case and writes a TileLang program asserting that repr() of
# tlc's value (which shows the iteration order) is CPython's, then random
# sequences of set operations (fixed seeds) with the repr of the set after
# each step, and a kernel storing lengths and memberships, whose constants
# FileCheck compares with CPython's.
# RUN: %python %s %t.py %t.check
# RUN: tlc-build --check %t.py 2>&1 | count 0
# RUN: tlc-build --emit=tile %t.py | FileCheck %t.check
# RUN: not tlc-build --check %S/Inputs/set-remove-missing.py 2>&1 \
# RUN:   | FileCheck %s --check-prefix=REMOVE
# REMOVE: set-remove-missing.py:5:1: error: KeyError: 5
# RUN: not tlc-build --check %S/Inputs/set-pop-empty.py 2>&1 \
# RUN:   | FileCheck %s --check-prefix=POP
# POP: set-pop-empty.py:4:5: error: KeyError: 'pop from an empty set'
# RUN: not tlc-build --check %S/Inputs/set-unhashable-member.py 2>&1 \
# RUN:   | FileCheck %s --check-prefix=MEMBER
# MEMBER: set-unhashable-member.py:4:1: error: TypeError: unhashable type: 'set'
import random
import sys

# `!stmt` runs a statement; any other line is an expression whose repr tlc
# must reproduce (or, when CPython raises, whose exception type and str()).
CASES = r"""
{1, 2} == {2, 1}
({1, 2} != {2, 1}, {1, 2} == {1, 2, 3}, {1} == [1], {1, 2} == frozenset({2, 1}))
{1, 2, 3, 17, 9}
{9, 1}
set([9, 1])
{(1, 2), (3, 4), 5}
{(1, 2), (3, 4), 5, -1, -2, 3.5, 2.25}
frozenset([(1, 2), (3, 4), 5, -1, -2, 3.5, 2.25])
{i * 7 % 40 for i in range(30)}
set(range(100, 0, -7))
{*[33, 1], *(65, 1), 97}
{*{33, 1, 65}, 2}
set({33: 'a', 1: 'b', 65: 'c'})
sorted(set('hello'))
(set(), frozenset(), {1: 2}, len(set()), bool(set()), bool({0}))
!a = {1, 2, 3}; b = {3, 4, 11}
(a | b, a & b, a - b, a ^ b, b - a, b ^ a)
(a <= b, {1} < a, a >= {1, 2}, a > a, a <= a, a < a, {1, 5} <= a)
(a.union([5, 9], (13,)), a.intersection(b, [3]), a.difference([1], {2}))
(a.symmetric_difference([3, 9]), a.issubset([1, 2, 3, 4]), a.issuperset((1,)))
(a.isdisjoint(b), a.isdisjoint([7]), 3 in a, 7 in a, 7 not in a, len(a))
!a.add(10); a.discard(2); a.discard(99)
a
!a.update([33], {65}, (97,)); c = a.copy(); c.clear()
(a, c)
!t = a; t |= {100}; t -= {1}; t ^= {3, 4}; t &= {4, 10, 33, 65, 100}
(a, t is a)
!f = frozenset([3, 1]); g = f; g |= {2}
(f, g, isinstance(g, frozenset), f.copy() is f, frozenset(f) is f)
(a.copy() is a, set(a) is a, {1} is {1}, a is t)
(frozenset({1}) | {2}, {2} | frozenset({1}), frozenset({1, 2}) & {2})
(hash(frozenset({1, 2})), hash(frozenset()), hash((1, 2)), hash(()))
(hash(3.5), hash(-1), hash(2 ** 70), hash(-2 ** 64), hash(1e300), hash(0.1))
(hash(True), hash(-0.0), hash(float('inf')), hash(((1, 2), 3.0)))
{frozenset({1, 2}): 'x', 2: 'y'}[frozenset({2, 1})]
{frozenset({1}), frozenset({1}), frozenset([1, 1])}
({1} in {frozenset({1})}, frozenset({1, 2}) in {frozenset([2, 1])})
!s = set(); [s.add(x) for x in (1, 9, 17)]; s.discard(1); s.discard(17); s.add(25)
s
!s = set(range(0, 80, 8)); p = (s.pop(), s.pop(), s.pop())
(p, s)
!s = {1, 2}; s.remove(3)
!set().pop()
[1] in {1}
{1} < [1]
frozenset().add(1)
{1} | [2]
set(1)
{{1}}
set([1], [2])
(isinstance({1}, set), isinstance({1}, frozenset), isinstance(frozenset(), frozenset))
sorted({3, 1, 2}, reverse=True)
(min({4, 2, 9}), max(frozenset({4, 2, 9})), sum({1, 2, 3}), list({5, 3}))
[x for x in {40, 8, 16}]
"""

# Lengths and memberships a kernel stores, one per line of @consts.
STORES = ["len({1, 2} | {2, 3})", "len({1, 1.0, True})", "int(3 in {1, 3})",
          "len(frozenset(range(10)) - {1, 2})", "int({1, 2} <= {1, 2, 5})",
          "len({frozenset({1}), frozenset([1])})"]

out, check = sys.argv[1], sys.argv[2]
lines = ["import tilelang.language as T", ""]
env = {}


def emit(stmt):
    lines.append(stmt)


for k, line in enumerate(CASES.strip().split("\n")):
    if line.startswith("!"):
        stmt = line[1:]
        try:
            exec(stmt, env)
            emit(stmt)
        except Exception as e:
            emit(f"try:\n    {stmt}\n    assert False, {stmt!r}\n"
                 f"except {type(e).__name__} as e{k}:\n"
                 f"    assert str(e{k}) == {str(e)!r}, str(e{k})")
        continue
    try:
        value = repr(eval(line, env))
    except Exception as e:
        emit(f"try:\n    ({line})\n    assert False, {line!r}\n"
             f"except {type(e).__name__} as e{k}:\n"
             f"    assert str(e{k}) == {str(e)!r}, str(e{k})")
        continue
    emit(f"assert repr({line}) == {value!r}, ({line!r}, repr({line}))")

# Random sequences of set operations on elements whose hashes collide in
# small tables (multiples of 8, 32, 64, equal ints and floats, tuples, ints
# past 64 bits), checking every set's repr after each step.
R = random.Random(12)


def elem():
    k = R.random()
    if k < 0.6:
        return R.choice([R.randrange(-4, 20), R.randrange(8) * 8 + R.randrange(2),
                         R.randrange(4) * 32 + 1, R.randrange(3) * 64])
    if k < 0.75:
        return R.choice([0.5, 1.5, 2.0, 3.25, -0.5, 1e20, 2.0 ** 70])
    if k < 0.9:
        return (R.randrange(4), R.randrange(4))
    return R.choice([True, False, 2 ** 64 + 3, -(2 ** 65)])


def listed(vals):
    return "[" + ", ".join(map(repr, vals)) + "]"


def iterable():
    vals = [elem() for _ in range(R.randrange(12))]
    k = R.random()
    if k < 0.3:
        return f"set({listed(vals)})"
    if k < 0.45:
        return f"frozenset({listed(vals)})"
    if k < 0.6:
        return listed(vals)
    if k < 0.7:
        return "{" + ", ".join(f"{v!r}: 0" for v in vals) + "}"
    if k < 0.8 and vals:
        return "{" + ", ".join(map(repr, vals)) + "}"
    return f"S{R.randrange(4)}"


def step(s):
    other = R.choice(["S0", "S1", "S2", "S3", f"set({iterable()})"])
    return R.choice([
        f"{s}.add({elem()!r})", f"{s}.discard({elem()!r})",
        f"{s}.remove({elem()!r})", f"R = {s}.pop()",
        f"{s}.update({iterable()})",
        f"{s} = {s}.union({iterable()}, {iterable()})",
        f"{s} = {s}.intersection({iterable()})",
        f"{s} = {s}.difference({iterable()}, {iterable()})",
        f"{s} = {s}.symmetric_difference({iterable()})",
        f"{s} = {s} {R.choice('|&-^')} {other}",
        f"{s} {R.choice('|&-^')}= {other}",
        f"{s}.intersection_update({iterable()})",
        f"{s}.difference_update({iterable()})",
        f"{s}.symmetric_difference_update({iterable()})",
        f"R = ({s}.issubset({iterable()}), {s}.isdisjoint({iterable()}))",
        f"R = ({s} <= S0, {s} < S1, {s} >= S2, {s} == S3, {elem()!r} in {s})",
        f"{s} = set(frozenset({s}) | {{{elem()!r}, {elem()!r}, {elem()!r}}})",
        f"{s} = {{x for x in {s} if x != {elem()!r}}}",
        f"R = hash(frozenset({s}))"])


for i in range(4):
    stmt = f"S{i} = set({listed([elem() for _ in range(R.randrange(20))])})"
    exec(stmt, env)
    emit(stmt)
for k in range(400):
    s = f"S{R.randrange(4)}"
    stmt = step(s)
    try:
        exec(stmt, env)
        emit(stmt)
    except KeyError:
        emit(f"try:\n    {stmt}\n    assert False\nexcept KeyError:\n    pass")
    if stmt.startswith("R ="):
        emit(f"assert repr(R) == {repr(env['R'])!r}, ({k}, repr(R))")
    emit(f"assert repr({s}) == {repr(env[s])!r}, ({k}, repr({s}))")

lines += ["", "", "@T.prim_func",
          f"def consts(B: T.Tensor(({len(STORES)},), T.int32)):",
          "    with T.Kernel(1, threads=1):"]
with open(check, "w") as f:
    f.write("CHECK-LABEL: tile.func @consts\n")
    for k, e in enumerate(STORES):
        lines.append(f"        B[{k}] = {e}")
        f.write(f"CHECK: arith.constant {eval(e)} : i32\n")
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
