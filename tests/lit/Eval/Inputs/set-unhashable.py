# A list in a set display raises TypeError, as in CPython
# (tests/lit/Eval/set-dict-displays.py).
x = [1]
s = {x, 2}
