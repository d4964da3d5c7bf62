# set.pop of an empty set raises KeyError, as in CPython
# (tests/lit/Eval/sets.py).
s = {1} - {1}
x = s.pop()
