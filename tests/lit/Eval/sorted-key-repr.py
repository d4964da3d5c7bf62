# Builtins as CPython runs them: `sorted(key=...)` sorts by the key (tlc
# ignored it) and `reverse=True` keeps equal elements in their order (tlc
# reversed them); `repr` of a str picks double quotes when the text has a
# single quote and escapes backslashes and control characters (tlc always
# wrote '...' verbatim); `d.update(pairs)` takes an iterable of pairs (it
# did nothing); `Cls.attr += 1` updates a class attribute (it did
# nothing). CPython runs this file first; its asserts are the oracle.
# RUN: %python %s
# RUN: tlc-build --check %s 2>&1 | count 0

pairs = [("a", 3), ("b", 1), ("c", 3), ("d", 2)]
assert repr(sorted(pairs, key=lambda kv: kv[1])) == \
    "[('b', 1), ('d', 2), ('a', 3), ('c', 3)]"
assert repr(sorted(pairs, key=lambda kv: kv[1], reverse=True)) == \
    "[('a', 3), ('c', 3), ('d', 2), ('b', 1)]"
assert repr(sorted([3, -4, 1], key=abs)) == "[1, 3, -4]"
assert repr(sorted({"x": 2, "y": 1}.items(), key=lambda kv: kv[1])) == \
    "[('y', 1), ('x', 2)]"
assert repr(sorted([2, 1], key=None)) == "[1, 2]"

assert repr("it's") == '"it\'s"'
assert repr('say "hi"') == "'say \"hi\"'"
assert repr("both ' and \"") == "'both \\' and \"'"
assert repr("a\nb\t\\") == "'a\\nb\\t\\\\'"
assert repr(["it's"]) == '["it\'s"]'

d = {"a": 1}
d.update([("b", 2), ("a", 0)])
d.update({"c": 3}.items(), e=5)
assert repr(d) == "{'a': 0, 'b': 2, 'c': 3, 'e': 5}"


class Counter:
    hits = 1


Counter.hits += 1
Counter.hits *= 10
assert repr((Counter.hits, Counter().hits)) == "(20, 20)"
