# tilelang.language.eager.ast (TileLang's test_tilelang_language_pythonic.py
# runs `mutate(fn).gen(builder)()` with a BaseBuilder subclass): a function
# whose statements go through a builder's hooks. With BaseBuilder's hooks it
# computes what CPython computes for the same function (the oracle: the
# function called directly), loops with break / continue / else, while-else,
# elif chains, tuple swaps, augmented and annotated assignments, closures,
# defaults and nested functions included; a recording builder sees each
# hook, and a builder that changes a hook changes the result accordingly.

import pytest
import tilelang.testing
from tilelang.language.eager.ast import BaseBuilder, mutate


def loops(n, stop=7):
    out = []
    for i in range(n):
        if i % 3 == 0:
            continue
        elif i == stop:
            break
        else:
            out.append(i)
    else:
        out.append(-1)
    k = 0
    while k < n:
        k += 2
        if k == 4:
            continue
        out.append(k * 10)
    else:
        out.append(-2)
    return out


def swaps(a, b, *, times=3):
    acc: int = 0
    for _ in range(times):
        a, b = b, a + b
        acc += a
    acc //= 2
    return a, b, acc


def closure_user(scale):
    offset = 5

    def inner(x):
        return [x * scale + offset for _ in range(2)]

    total = 0
    for v in inner(3):
        total = total + v
    return total


@pytest.mark.parametrize("fn,args", [
    (loops, (10,)), (loops, (5,)), (loops, (0,)), (loops, (10, 4)),
    (swaps, (1, 1)), (swaps, (2, 3)), (closure_user, (4,)),
])
def test_base_builder_is_python(fn, args):
    assert mutate(fn).gen(BaseBuilder())(*args) == fn(*args)


def test_defaults_kept():
    g = mutate(swaps).gen(BaseBuilder())
    assert g(2, 5) == swaps(2, 5)
    assert g(2, 5, times=5) == swaps(2, 5, times=5)


class Recorder(BaseBuilder):
    def __init__(self):
        self.log = []

    def ctx_for(self, iterable):
        self.log.append("for")
        return iterable

    def ctx_break(self):
        self.log.append("break")
        return True

    def ctx_continue(self):
        self.log.append("continue")
        return True

    def bind(self, name, value, annot=BaseBuilder.empty):
        self.log.append(("bind", name, value))
        return value


def test_hooks_are_called():
    rec = Recorder()
    assert mutate(loops).gen(rec)(8, 4) == loops(8, 4)
    assert rec.log.count("for") == 1
    assert rec.log.count("break") == 1             # at i == 4
    assert rec.log.count("continue") == 2 + 1      # i = 0, 3; k == 4
    assert ("bind", "k", 0) in rec.log and ("bind", "k", 4) in rec.log
    assert rec.location[1] > loops.__code__.co_firstlineno


class Reversed(BaseBuilder):
    def ctx_for(self, iterable):
        return reversed(list(iterable))

    def ctx_break(self):
        return False       # never leave a loop early


def test_hooks_change_the_program():
    # Iterating 9..0 without breaks: multiples of 3 continue, 7 takes the
    # (now non-breaking) elif branch, the for-else runs; the while loop
    # does not iterate through ctx_for and is unchanged.
    got = mutate(loops).gen(Reversed())(10, 7)
    assert got == [8, 5, 4, 2, 1, -1, 20, 60, 80, 100, -2]
    assert loops(10, 7) == [1, 2, 4, 5, 20, 60, 80, 100, -2]


if __name__ == "__main__":
    tilelang.testing.main()
