# RUN: %python %s
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# iter(x) is an iterator with a position, as in Python: next() advances
# it, a `for` loop resumes where the last reader stopped and a `break`
# leaves the rest, list()/tuple() read what is left, and an exhausted one
# gives next()'s default or raises StopIteration; a generator expression
# is such an iterator. tlc's iter() returned x
# itself and next() always its first value (a silent wrong answer:
# `next(it), next(it)` was `7, 7`). CPython runs this file too
# (`%python %s`): the assertions hold in both.


def drain():
    it = iter([7, 8, 9, 10, 11])
    first = next(it)
    second = next(it)
    seen = []
    for v in it:
        seen.append(v)
        if v == 9:
            break
    rest = list(it)
    after = next(it, -1)
    try:
        next(it)
        stopped = False
    except StopIteration:
        stopped = True
    return first, second, seen, rest, after, stopped


def nested_iter():
    it = iter((1, 2, 3))
    same = iter(it)
    next(same)
    return next(it), tuple(it)


def generator_resumed():
    # A generator expression is an iterator too (tlc held it as a list,
    # so the second loop started again at 0).
    gen = (i * 2 for i in range(6))
    first = []
    for v in gen:
        first.append(v)
        if v == 2:
            break
    return first, [v for v in gen], sum(x for x in range(4)), list(gen)


assert drain() == (7, 8, [9], [10, 11], -1, True)
assert nested_iter() == (2, (3,))
assert generator_resumed() == ([0, 2], [4, 6, 8, 10], 6, [])

try:
    import tilelang.language as T
except ImportError:
    T = None

if T is not None:
    W = drain()[0] * 100 + nested_iter()[0] * 10 + len(drain()[3])

    # CHECK: tile.func @sized(%B: !tile.buffer<[722], i32, global>)
    @T.prim_func
    def sized(B: T.Tensor((W,), T.int32)):
        with T.Kernel(1, threads=1):
            B[0] = 0

    values = iter((0, 1, 2, 3))

    # A loop stopped by `break` and a second loop over the same iterator:
    # stores 0, then 11, 12, 13 (the second loop resumes at 1).
    # CHECK-LABEL: tile.func @resumed
    # CHECK: arith.constant 0 : i32
    # CHECK-NOT: arith.constant 10 : i32
    # CHECK: arith.constant 11 : i32
    # CHECK: arith.constant 12 : i32
    # CHECK: arith.constant 13 : i32
    @T.prim_func
    def resumed(B: T.Tensor((4,), T.int32)):
        for i in values:
            B[i] = i
            break
        for i in values:
            B[i] = i + 10
