# One-shot iterators (zip, enumerate, map, generator objects) as values a
# prim_func's body iterates: the package reads each once into a tuple, as
# TileLang's single trace of the body does, and tlc builds the body with
# it. The stores of PrimFunc.body and the kernel's results are checked
# against CPython iterating a fresh copy of the same iterator. A body whose
# second loop resumes an iterator the first left with `break` sees the
# rest, as in CPython (tlc takes it as an iterator, `iter((...))`); one
# read other than by loops is refused with a TypeError; an iterator the
# body does not use is not read.

import numpy as np
import pytest
import torch
import tilelang
import tilelang.language as T
import tilelang.testing
from tvm import tirx

KEYS, VALUES = (0, 2, 5), (7, 11, 13)


def stores(func):
    found = []
    tirx.stmt_functor.post_order_visit(
        func.body, lambda n: found.append(n)
        if isinstance(n, tirx.BufferStore) else None)
    return found


def expected(make):
    out = [0] * 8
    for k, v in make():
        out[k] = v
    return out


CASES = {
    "zip": lambda: zip(KEYS, VALUES),
    "enumerate": lambda: enumerate(VALUES),
    "map": lambda: map(lambda k: (k, k * k + 1), KEYS),
    "generator": lambda: ((k + 1, v - k) for k, v in zip(KEYS, VALUES)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_argument_iterator(name):
    def build(pairs):
        @T.prim_func
        def main(B: T.Tensor((8,), "int32")):
            with T.Kernel(1, threads=1):
                for key, value in pairs:
                    B[key] = value

        return main

    func = build(CASES[name]())
    want = expected(CASES[name])
    got = [int(s.value) for s in stores(func)]
    assert got == [v for v in want if v], (got, want)
    b = torch.zeros(8, dtype=torch.int32)
    tilelang.compile(func)(b)
    np.testing.assert_array_equal(b.numpy(), np.array(want))


def test_closure_iterator_built_alone():
    pairs = CASES["zip"]()

    @T.prim_func
    def main(B: T.Tensor((8,), "int32")):
        with T.Kernel(1, threads=1):
            for key, value in pairs:
                B[key] = value

    # The test's later lines (this assert on the view) are not tlc's: the
    # prim_func is built alone, from the tuple the iterator gave.
    assert [int(s.value) for s in stores(main)] == list(VALUES)
    assert main.materialized == {"pairs": tuple(CASES["zip"]())}
    b = torch.zeros(8, dtype=torch.int32)
    tilelang.compile(main)(b)
    np.testing.assert_array_equal(b.numpy(), np.array(expected(CASES["zip"])))


def resumed_in_python(values):
    out = [0] * 6
    for i in values:
        out[i] = i + 1
        if i == 1:
            break
    for i in values:
        out[i] = i + 20
    return out


def test_second_loop_resumes_the_iterator():
    values = (i for i in range(6))

    @T.prim_func
    def main(B: T.Tensor((6,), "int32")):
        with T.Kernel(1, threads=1):
            for i in values:
                B[i] = i + 1
                if i == 1:
                    break
            for i in values:
                B[i] = i + 20

    want = resumed_in_python(i for i in range(6))
    assert [int(s.value) for s in stores(main)] == want
    b = torch.zeros(6, dtype=torch.int32)
    tilelang.compile(main)(b)
    np.testing.assert_array_equal(b.numpy(), np.array(want))


def test_iterator_read_other_than_by_loops_is_refused():
    values = (i for i in range(4))
    with pytest.raises(TypeError, match="reads the iterator 'values' other "
                       "than as a loop's iterable"):
        @T.prim_func
        def main(B: T.Tensor((4,), "int32")):
            with T.Kernel(1, threads=1):
                for i in values:
                    B[i] = i
                B[0] = len(list(values))


def test_unused_iterator_is_not_read():
    def build(pairs, spare):
        @T.prim_func
        def main(B: T.Tensor((8,), "int32")):
            with T.Kernel(1, threads=1):
                for key, value in pairs:
                    B[key] = value

        return main

    spare = iter([4, 5, 6])
    func = build(zip(KEYS, VALUES), spare)
    assert [int(s.value) for s in stores(func)] == list(VALUES)
    assert list(spare) == [4, 5, 6]   # still unread


if __name__ == "__main__":
    tilelang.testing.main()
