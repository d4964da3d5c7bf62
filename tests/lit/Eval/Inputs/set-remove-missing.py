# set.remove of a missing element raises KeyError, as in CPython
# (tests/lit/Eval/sets.py).
s = {1, 2, 3}
s.discard(5)
s.remove(5)
