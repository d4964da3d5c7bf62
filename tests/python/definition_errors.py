"""Errors TileLang raises as Python exceptions reach the script as those
types, where TileLang raises them (CPU target):

* at ``@T.prim_func`` (TileLang traces the function where it is defined):
  an mbarrier arrival count outside [1, 2^20 - 1] is a ValueError
  (test_tilelang_language_alloc.py), a T.alloc_var or loop target read
  after its region a RuntimeError "... outside its defining region"
  (test_tilelang_language_loop_target_binding.py), a ``match`` statement a
  NotImplementedError naming its line (test_tilelang_language_eager_match.py),
  an unknown copy cache policy a ValueError
  (test_tilelang_language_copy_cache_policy.py), a call of a T.* name
  TileLang does not have an AttributeError; they used to pass the
  definition silently ("DID NOT RAISE").
* at ``tilelang.compile``: a copy reading past its source region is a
  ValueError in TileLang's words (test_tilelang_language_copy_extent_mismatch.py).

The type comes from the diagnostic's category in tlc-build's JSON
diagnostics, not from its text: an error without one stays a plain
TLCBuildError, and a valid definition still builds and runs.
"""

import re

import torch

import tilelang
import tilelang.language as T


def raises(exc_type, pattern, fn, *args):
    try:
        fn(*args)
    except exc_type as e:
        assert isinstance(e, tilelang.TLCBuildError), type(e).__mro__
        assert re.search(pattern, str(e)), (pattern, str(e))
        return e
    raise AssertionError(f"{fn.__name__}{args} raised no "
                         f"{exc_type.__name__}")


def barrier_kernel(arrive_count, allocator=T.alloc_barrier):
    @T.prim_func
    def main(A: T.Tensor((8,), T.int32)):
        with T.Kernel(1, threads=8):
            bar = allocator(arrive_count)  # noqa: F841
            for i in T.serial(8):
                A[i] = i
    return main


def expired_var():
    @T.prim_func
    def main(A: T.Tensor((2,), T.int32)):
        with T.Kernel(1, threads=1):
            for j in T.serial(2):
                value = T.alloc_var(T.int32, init=j)
            A[0] = value
    return main


def expired_loop_target():
    @T.prim_func
    def main(A: T.Tensor((2,), T.int32)):
        with T.Kernel(1, threads=1):
            for d in T.serial(2):
                A[0] = d
            A[1] = d
    return main


def with_match():
    @T.prim_func
    def main(A: T.Tensor((2,), T.int32)):
        with T.Kernel(1, threads=1):
            match A[0]:
                case _:
                    A[1] = 0
    return main


def unknown_t_call():
    @T.prim_func
    def main(A: T.Tensor((2,), T.float32)):
        with T.Kernel(1, threads=1):
            A[1] = T.ldg(A[0])
    return main


def cache_policy(policy):
    @T.prim_func
    def main(A: T.Tensor((8,), T.float32), B: T.Tensor((8,), T.float32)):
        with T.Kernel(1, threads=8):
            T.copy(A, B, load_cache_policy=policy)
    return main


def over_read():
    @T.prim_func
    def main(A: T.Tensor((64,), T.float32), B: T.Tensor((64,), T.float32)):
        with T.Kernel(1, threads=32):
            S = T.alloc_shared((64,), T.float32)
            T.copy(A[0:32], S)
            T.copy(S, B)
    return main


def gemm_1d():
    @T.prim_func
    def main(A: T.Tensor((8,), T.float32)):
        with T.Kernel(1, threads=1):
            T.gemm(A, A, A)
    return main


try:
    import pytest
except ImportError:
    pytest = None


def raises_block():
    with pytest.raises(NotImplementedError, match=r"\(line \d+\)"):
        @T.prim_func
        def bad(A: T.Tensor((2,), T.int32)):
            with T.Kernel(1, threads=1):
                match A[0]:
                    case _:
                        A[1] = 0

    @T.prim_func
    def good(A: T.Tensor((2,), T.int32)):
        with T.Kernel(1, threads=1):
            A[1] = 7
    return good


def with_fixture(monkeypatch):
    """A test function's fixture argument the kernel does not read
    (test_tilelang_issue_1810.py): not a binding tlc needs."""
    monkeypatch.value = 1

    @T.prim_func
    def main(A: T.Tensor((2,), T.int32)):
        with T.Kernel(1, threads=1):
            A[0] = 5
    return main


def main():
    for bad in (0, -5, [8, 0]):
        raises(ValueError, "arrive_count must be at least 1",
               barrier_kernel, bad)
    for allocator in (T.alloc_barrier, T.alloc_cluster_barrier):
        raises(ValueError, "arrive_count must be at most 1048575",
               barrier_kernel, 1 << 20, allocator)
        raises(ValueError, "arrive_count must be at most 1048575",
               barrier_kernel, [8, 1 << 20], allocator)
    raises(RuntimeError, "outside its defining region", expired_var)
    raises(RuntimeError, "outside its defining region", expired_loop_target)
    e = raises(NotImplementedError, r"`match` is not supported", with_match)
    assert re.search(r"\(line \d+\)", str(e)), str(e)
    raises(ValueError, "load_cache_policy", cache_policy, "wt")
    # A call of a T.* name TileLang does not have: its AttributeError.
    raises(AttributeError, r"module 'tilelang.language' has no attribute "
           r"'ldg'; did you mean 'T.ld'\?", unknown_t_call)

    # A valid count defines, builds and runs; so does a known cache policy.
    out = torch.zeros(8, dtype=torch.int32)
    tilelang.compile(barrier_kernel((1 << 20) - 1), target="cpu")(out)
    assert out.tolist() == list(range(8)), out
    a = torch.arange(8, dtype=torch.float32)
    b = torch.zeros(8)
    tilelang.compile(cache_policy("cg"), target="cpu")(a, b)
    assert torch.equal(a, b), b

    # At compile: TileLang's words and type for a copy past its source.
    pattern = (r"\[TileLang Semantic Check\] T\.copy would read outside the "
               r"src region .* non-unit dimension 0 has extent 64, but the "
               r"src region has extent 32\.")
    func = over_read()
    raises(ValueError, pattern, tilelang.compile, func, None, None, "cpu")
    # tlc's own error (no category): a plain TLCBuildError at compile.
    func = gemm_1d()
    try:
        tilelang.compile(func, target="cpu")
    except tilelang.TLCBuildError as e:
        assert not isinstance(e, (ValueError, NotImplementedError)), \
            type(e).__mro__
        assert "T.gemm operand A must be 2-D" in str(e), str(e)
    else:
        raise AssertionError("a 1-D T.gemm built")
    # A prim_func defined inside `with pytest.raises(...)` (tlc skips such
    # blocks in its own checks) raises there; a valid prim_func defined
    # after it in the same function does not get its error.
    if pytest is None:
        print("definition_errors: no pytest; the pytest.raises form not run")
    else:
        assert raises_block() is not None

    out = torch.zeros(2, dtype=torch.int32)
    tilelang.compile(with_fixture(type("Fixture", (), {})()), target="cpu")(out)
    assert out.tolist() == [5, 0], out

    # tvm.error's types are exception classes (pytest.raises takes them).
    from tilelang import tvm
    assert issubclass(tvm.error.InternalError, tvm.error.TVMError)
    assert issubclass(tvm.error.TVMError, RuntimeError)
    print("definition_errors: OK")


if __name__ == "__main__":
    main()
