# A set is unhashable: it cannot be a set member, as in CPython
# (tests/lit/Eval/sets.py).
s = {frozenset({1})}
s.add({2})
