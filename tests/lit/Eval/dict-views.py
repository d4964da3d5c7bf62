# dict.keys(), .values() and .items() are live views, as in CPython: they
# see later insertions and deletions, have len, iterate, `in`, and keys and
# items views are sets for `&`, `|`, `-`, `^` and comparisons. tlc used to
# return a list copy (`keys() & {...}` was a TypeError, a deleted key was
# still listed). CPython runs this file first (its asserts are the oracle);
# tlc must then raise nothing and store CPython's lengths in the kernel.
# `del d[key]`, `del lst[i]` and `del obj.attr` used to do nothing.
# RUN: %python %s
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s

d = {'a': 1, 'b': 2}
k, v, it = d.keys(), d.values(), d.items()
d['c'] = 3
assert repr((len(k), len(v), len(it))) == '(3, 3, 3)'
assert repr(list(k)) == "['a', 'b', 'c']"
assert repr(list(v)) == '[1, 2, 3]'
assert repr(list(it)) == "[('a', 1), ('b', 2), ('c', 3)]"
assert repr(('c' in k, 'z' in k, 3 in v, 4 in v)) == '(True, False, True, False)'
assert repr((('c', 3) in it, ('c', 4) in it, 'c' in it)) == '(True, False, False)'
assert repr(sorted(k & {'a', 'z'})) == "['a']"
assert repr(sorted(k | ['z'])) == "['a', 'b', 'c', 'z']"
assert repr(sorted(k - {'a'})) == "['b', 'c']"
assert repr(sorted(k ^ {'a', 'q'})) == "['b', 'c', 'q']"
assert repr(sorted({'a', 'q'} & k)) == "['a']"
assert repr(sorted(it | {('z', 0)})) == "[('a', 1), ('b', 2), ('c', 3), ('z', 0)]"
assert repr(sorted(it - {('a', 1)})) == "[('b', 2), ('c', 3)]"
assert repr((k == {'a', 'b', 'c'}, k <= {'a', 'b', 'c', 'd'}, k < k)) == \
    '(True, True, False)'
assert repr((k == ['a', 'b', 'c'], v == v, v == d.values())) == \
    '(False, True, False)'
del d['a']
assert repr((list(k), len(v), bool(it))) == "(['b', 'c'], 2, True)"
assert repr(d.keys()) == "dict_keys(['b', 'c'])"
assert repr(d.values()) == 'dict_values([2, 3])'
assert repr(d.items()) == "dict_items([('b', 2), ('c', 3)])"
assert repr([type(x).__name__ for x in (k, v, it)]) == \
    "['dict_keys', 'dict_values', 'dict_items']"
assert repr([key for key, val in d.items() if val > 2]) == "['c']"
assert repr(sorted(d.values(), reverse=True)) == '[3, 2]'
d.clear()
assert repr((len(k), bool(k), list(it))) == '(0, False, [])'

lst = [0, 1, 2, 3, 4, 5, 6]
del lst[1], lst[-1]
assert repr(lst) == '[0, 2, 3, 4, 5]'
del lst[::2]
assert repr(lst) == '[2, 4]'

cfg = {'block_M': 64, 'block_N': 128, 'unused': 1}
view = cfg.items()
cfg['threads'] = 256
del cfg['unused']

try:
    import tilelang.language as T
except ImportError:
    T = None

if T is not None:
    # CHECK-LABEL: tile.func @sizes
    # CHECK: arith.constant 3 : i32
    # CHECK: arith.constant 448 : i32
    @T.prim_func
    def sizes(B: T.Tensor((2,), T.int32)):
        with T.Kernel(1, threads=1):
            B[0] = len(view)
            B[1] = sum(cfg.values())
