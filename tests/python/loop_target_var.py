"""A loop target named like a ``T.alloc_var`` (``for d in T.serial(4)``
after ``d = T.alloc_var(...)``) binds the name afresh instead of storing
into the variable, and a variable declared in a loop body that has ended
is a new binding after it. The same pattern as TileLang's loop-target
binding tests, for every loop kind, with the variable live or expired. The
oracle is the same loops run by plain Python over a list (Python's own
binding rules). CPU target."""

import torch

import tilelang
import tilelang.language as T

KINDS = ("serial", "parallel", "unroll", "stepped", "grid")


def make_kernel(kind, live):
    @T.prim_func
    def kernel(A: T.Tensor((5,), "int32")):
        with T.Kernel(1, threads=1):
            if live:
                d = T.alloc_var("int32", init=19)
                saved = d
            else:
                for j in T.serial(2):
                    d = T.alloc_var("int32", init=j)
                    A[j] = d
            if kind == "serial":
                for d in T.serial(4):
                    A[d] = d
            elif kind == "parallel":
                for d in T.Parallel(4):
                    A[d] = d
            elif kind == "unroll":
                for d in T.unroll(4):
                    A[d] = d
            elif kind == "stepped":
                for d in T.serial(0, 4, step=2):
                    A[d] = d
            else:
                for d, j in T.grid(2, 2):
                    A[d * 2 + j] = d * 2 + j
            if live:
                A[4] = saved

    return kernel


def python_reference(kind, live):
    """The kernel's statements run by Python on a list (a var is a value)."""
    A = [-1] * 5
    if live:
        d = 19
        saved = d
    else:
        for j in range(2):
            d = j
            A[j] = d
    if kind in ("serial", "parallel", "unroll"):
        for d in range(4):
            A[d] = d
    elif kind == "stepped":
        for d in range(0, 4, 2):
            A[d] = d
    else:
        for d in range(2):
            for j in range(2):
                A[d * 2 + j] = d * 2 + j
    if live:
        A[4] = saved
    return A


@T.prim_func
def expired_then_assigned(A: T.Tensor((4,), "int32")):
    with T.Kernel(1, threads=1):
        for j in T.serial(2):
            d = T.alloc_var("int32", init=j)
            A[j] = d
        for k in T.serial(2):
            d = k + 10
            A[2 + k] = d


@T.prim_func
def live_updates(A: T.Tensor((3,), "int32")):
    with T.Kernel(1, threads=1):
        a = T.alloc_var("int32", init=1)
        b = T.alloc_var("int32", init=2)
        d = T.alloc_var("int32", init=0)
        for j in T.serial(3):
            a = a + j
            if j == 1:
                d = d + j
        a, b = b, a
        A[0] = a
        A[1] = b
        A[2] = d


def accumulate(inside):
    """Sums A into B[0] through a T.alloc_var declared before the loop, or
    (``inside``) in the loop body and read after it: an error at the read."""
    @T.prim_func
    def kernel(A: T.Tensor((6,), "int32"), B: T.Tensor((1,), "int32")):
        with T.Kernel(1, threads=1):
            if not inside:
                acc = T.alloc_var("int32", init=0)
            for j in T.serial(6):
                if inside:
                    acc = T.alloc_var("int32", init=0)
                acc = acc + A[j]
            B[0] = acc  # the read
    return kernel


def main():
    a6 = torch.arange(1, 7, dtype=torch.int32) * 3
    out = torch.zeros(1, dtype=torch.int32)
    tilelang.compile(accumulate(False), target="cpu")(a6, out)
    assert int(out[0]) == sum(int(v) for v in a6), out
    # Read after the loop that declared it: located at the read.
    line = next(i for i, text in enumerate(open(__file__), 1)
                if text.rstrip().endswith("# the read"))
    try:
        tilelang.compile(accumulate(True), target="cpu")
    except tilelang.TLCBuildError as e:
        where = f"loop_target_var.py:{line}:20: error: T.alloc_var 'acc' " \
            "is used after the region that declared it ended"
        # The message is TileLang's words; where it is, tlc's whole line.
        assert where in e.diagnostic, e.diagnostic
        assert str(e).startswith("T.alloc_var 'acc' is used after"), str(e)
    else:
        raise AssertionError("an expired T.alloc_var read was built")

    for kind in KINDS:
        for live in (False, True):
            kernel = tilelang.compile(make_kernel(kind, live), target="cpu")
            result = torch.full((5,), -1, dtype=torch.int32)
            kernel(result)
            expected = torch.tensor(python_reference(kind, live),
                                    dtype=torch.int32)
            torch.testing.assert_close(result, expected, rtol=0, atol=0,
                                       msg=f"{kind}, live={live}")

    result = torch.full((4,), -1, dtype=torch.int32)
    tilelang.compile(expired_then_assigned, target="cpu")(result)
    torch.testing.assert_close(result, torch.tensor([0, 1, 10, 11],
                                                    dtype=torch.int32))

    # Assignments to a variable still in scope keep storing into it.
    a, b, d = 1, 2, 0
    for j in range(3):
        a = a + j
        if j == 1:
            d = d + j
    a, b = b, a
    result = torch.full((3,), -1, dtype=torch.int32)
    tilelang.compile(live_updates, target="cpu")(result)
    torch.testing.assert_close(result, torch.tensor([a, b, d],
                                                    dtype=torch.int32))
    print("loop_target_var: OK")


if __name__ == "__main__":
    main()
