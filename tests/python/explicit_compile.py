# Strict compilation (TILELANG_REQUIRE_EXPLICIT_COMPILE, tilelang/jit/
# compile_phase.py) on the CPU target: without the switch, calls compile
# as before and nothing seals; with it, a factory or eager kernel runs only
# instances compiled explicitly (factory.compile, par_compile,
# tilelang.compile), a call that would compile raises, an implicit compile
# made before does not count, the first launch seals compilation (later
# compiles raise, launches go on), a launch waits for another thread's
# compilation, and a launch inside a compilation raises. Results are
# checked against NumPy.

import os
import threading

import numpy as np
import tilelang
import tilelang.language as T
import torch
from tilelang.autotuner import set_autotune_inputs
from tilelang.jit import compile_phase


@tilelang.jit(out_idx=[-1], target="cpu")
def offset_rows(N, offset: int = 3, block: int = 8):
    @T.prim_func
    def main(X: T.Tensor((N,), T.int32), Y: T.Tensor((N,), T.int32)):
        with T.Kernel(T.ceildiv(N, block), threads=32) as bx:
            for i in T.Parallel(block):
                if bx * block + i < N:
                    Y[bx * block + i] = X[bx * block + i] * 2 + offset
    return main


@tilelang.jit(target="cpu")
def copy2d(A, B, block: int = 8):
    M, N = T.const("M N")
    A: T.Tensor[[M, N], T.float32]
    B: T.Tensor[[M, N], T.float32]
    with T.Kernel(T.ceildiv(M, block), T.ceildiv(N, block), threads=64) as (pm, pn):
        for i, j in T.Parallel(block, block):
            if pm * block + i < M and pn * block + j < N:
                B[pm * block + i, pn * block + j] = A[pm * block + i, pn * block + j] + 1.0


# An eager kernel without a decorator, made a kernel by a call
# (tilelang.jit(shift_plain)) inside a function, as TileLang's tests do.
def shift_plain(A, B, block: int = 8):
    N = T.const("N")
    A: T.Tensor[[N], T.float32]
    B: T.Tensor[[N], T.float32]
    with T.Kernel(T.ceildiv(N, block), threads=32) as bx:
        for i in T.Parallel(block):
            if bx * block + i < N:
                B[bx * block + i] = A[bx * block + i] * 3.0 - 1.0


@tilelang.autotune(configs=[{"block": 8}, {"block": 16}], warmup=1, rep=2)
@tilelang.jit(target="cpu")
def affine_tuned(A, B, block: int = 4):
    N = T.const("N")
    A: T.Tensor[[N], T.float32]
    B: T.Tensor[[N], T.float32]
    with T.Kernel(T.ceildiv(N, block), threads=32) as bx:
        for i in T.Parallel(block):
            if bx * block + i < N:
                B[bx * block + i] = A[bx * block + i] * 2.0 + 0.5


@tilelang.autotune(configs=[{"block": 8}, {"block": 32}], warmup=1, rep=2)
@tilelang.jit(out_idx=[-1], target="cpu")
def offset_tuned(N, block: int = 4):
    @T.prim_func
    def main(X: T.Tensor((N,), T.int32), Y: T.Tensor((N,), T.int32)):
        with T.Kernel(T.ceildiv(N, block), threads=32) as bx:
            for i in T.Parallel(block):
                if bx * block + i < N:
                    Y[bx * block + i] = X[bx * block + i] * 2 + 3
    return main


@T.prim_func
def negate(A: T.Tensor((16,), T.float32), B: T.Tensor((16,), T.float32)):
    with T.Kernel(1, threads=16) as _:
        for i in T.Parallel(16):
            B[i] = -A[i]


def expect_raises(fn, *needles):
    try:
        fn()
    except RuntimeError as e:
        for needle in needles:
            assert needle in str(e), (needle, str(e))
        return str(e)
    raise AssertionError(f"no RuntimeError (wanted {needles})")


def check_offset(kernel, n, offset=3):
    x = torch.arange(n, dtype=torch.int32) * 5 - 7
    y = kernel(x)
    np.testing.assert_array_equal(y.numpy(), x.numpy() * 2 + offset)


def strict(on):
    os.environ.pop("TILELANG_REQUIRE_EXPLICIT_COMPILE", None)
    if on:
        os.environ["TILELANG_REQUIRE_EXPLICIT_COMPILE"] = on
    compile_phase._reset_compilation_phase_for_testing()


def default_mode():
    strict(None)
    assert not tilelang.env.is_explicit_compile_required()
    tilelang.seal_compilation()  # nothing to seal without the switch
    k = offset_rows(20)
    check_offset(k, 20)
    assert not compile_phase.is_compilation_sealed()
    check_offset(offset_rows(37), 37)  # a new instance after a launch
    print("default mode: compiles on call, never sealed")


def switch_values():
    for value in ("1", "true", "TRUE", "yes", "on", " On "):
        strict(value)
        assert tilelang.env.is_explicit_compile_required(), value
    for value in ("0", "", "off", "no"):
        strict(value)
        assert not tilelang.env.is_explicit_compile_required(), value
    strict(None)
    tilelang.env.TILELANG_REQUIRE_EXPLICIT_COMPILE = "1"  # assigned in Python
    assert tilelang.env.is_explicit_compile_required()
    del tilelang.env.TILELANG_REQUIRE_EXPLICIT_COMPILE
    assert not tilelang.env.is_explicit_compile_required()
    print("switch values: ok")


def lazy_strict():
    strict(None)
    implicit = offset_rows(24)  # compiled by a call: not explicit
    strict("1")
    expect_raises(lambda: offset_rows(24), "No explicitly compiled specialization",
                  "factory.compile(...)", "N=24")
    expect_raises(lambda: offset_rows(25), "No explicitly compiled specialization")
    compiled = offset_rows.compile(24)
    assert offset_rows(24) is compiled
    assert offset_rows(N=24, offset=3) is compiled  # the same bindings
    # An explicit compile loads the kernel before its first launch.
    assert compiled._launchers, "strict compile did not prepare the kernel"
    expect_raises(lambda: offset_rows(24, offset=4), "No explicitly compiled")
    del implicit
    a, b = offset_rows.par_compile([(40,), {"N": 41, "offset": 5}])
    assert offset_rows(40) is a and offset_rows(41, offset=5) is b
    assert not compile_phase.is_compilation_sealed()
    check_offset(compiled, 24)  # the first launch seals
    assert compile_phase.is_compilation_sealed()
    check_offset(a, 40)
    check_offset(offset_rows(41, offset=5), 41, offset=5)
    expect_raises(lambda: offset_rows.compile(50), "compilation is sealed",
                  "start a new Python process")
    # Compiled before: returned, nothing is compiled.
    assert offset_rows.compile(24) is compiled
    expect_raises(lambda: offset_rows.par_compile([(51,)]), "compilation is sealed")
    expect_raises(lambda: tilelang.compile(negate), "compilation is sealed")
    print("lazy factory, strict: explicit instances only, sealed at the first launch")


def eager_strict():
    strict("1")
    a8 = torch.randn(8, 8)
    compiled = copy2d.compile(M=8, N=8)
    b = torch.zeros(8, 8)
    copy2d(a8, b)  # tensors of the compiled shapes
    np.testing.assert_allclose(b.numpy(), a8.numpy() + 1.0, rtol=0, atol=0)
    assert compile_phase.is_compilation_sealed()
    expect_raises(lambda: copy2d(torch.randn(16, 8), torch.zeros(16, 8)),
                  "No explicitly compiled specialization", "M=16")
    expect_raises(lambda: copy2d.compile(M=16, N=8), "compilation is sealed")
    b2 = torch.zeros(8, 8)
    compiled(a8, b2)
    np.testing.assert_array_equal(b2.numpy(), b.numpy())
    # Placeholder tensors name the shapes too.
    strict("1")
    copy2d.compile(T.Tensor((6, 10), T.float32), T.Tensor((6, 10), T.float32))
    a = torch.randn(6, 10)
    b = torch.zeros(6, 10)
    copy2d(a, b)
    np.testing.assert_allclose(b.numpy(), a.numpy() + 1.0, rtol=0, atol=0)
    print("eager kernel, strict: compiled shapes only")


def called_jit():
    strict(None)
    shift = tilelang.jit(shift_plain)
    a = torch.randn(21)
    b = torch.zeros(21)
    shift(a, b)
    np.testing.assert_allclose(b.numpy(), a.numpy() * np.float32(3.0) - np.float32(1.0),
                               rtol=1e-6, atol=1e-6)
    strict("1")
    compiled = tilelang.jit(shift_plain).compile(N=16)
    # Loaded while compiling: the adapter's executable is there before a call.
    assert compiled.adapter.executable is not None
    a = torch.randn(16)
    b = torch.zeros(16)
    compiled(a, b)
    np.testing.assert_allclose(b.numpy(), a.numpy() * np.float32(3.0) - np.float32(1.0),
                               rtol=1e-6, atol=1e-6)
    strict(None)
    lazy = offset_rows.compile(13)
    assert lazy.adapter.executable is None  # not loaded before its first call
    check_offset(lazy, 13)
    assert lazy.adapter.executable is not None
    print("tilelang.jit(fn) by a call: built; executable loaded by strict compile")


def prim_func_strict():
    strict("1")
    k = tilelang.compile(negate, out_idx=[1])
    assert k._launchers, "strict tilelang.compile did not prepare the kernel"
    a = torch.randn(16)
    np.testing.assert_array_equal(k(a).numpy(), -a.numpy())
    tilelang.seal_compilation()
    assert compile_phase.is_compilation_sealed()
    strict("1")
    tilelang.seal_compilation()  # sealing before any launch
    expect_raises(lambda: tilelang.compile(negate, out_idx=[1]),
                  "compilation is sealed")
    print("tilelang.compile, strict: prepared; seal_compilation seals")


def check_affine(a, b):
    np.testing.assert_allclose(b.numpy(), a.numpy() * np.float32(2.0) + np.float32(0.5),
                               rtol=1e-6, atol=1e-6)


def autotuned():
    strict(None)
    # compile() of an autotuned eager kernel tunes (the decorator's default
    # block=4 is no configuration) and does not run the kernel.
    k = affine_tuned.compile(N=40)
    assert k.config in ({"block": 8}, {"block": 16}), k.config
    a, b = torch.randn(40), torch.zeros(40)
    k(a, b)
    check_affine(a, b)
    with set_autotune_inputs([torch.randn(33), torch.zeros(33)]):
        k = affine_tuned.compile(N=33)
    assert k.config in ({"block": 8}, {"block": 16})
    a, b = torch.randn(27), torch.zeros(27)
    k = affine_tuned(a, b, __return_kernel=True)  # tuned, not run
    assert not b.any() and k.config in ({"block": 8}, {"block": 16})
    k(a, b)
    check_affine(a, b)

    strict("1")
    a, b = torch.randn(24), torch.zeros(24)
    expect_raises(lambda: affine_tuned(a, b), "No explicitly compiled specialization",
                  "factory.compile(...)")
    expect_raises(lambda: offset_tuned(24), "No explicitly compiled specialization")
    lazy = offset_tuned.compile(24)  # every candidate compiled, then timed
    assert lazy.config in ({"block": 8}, {"block": 32})
    tilelang.seal_compilation()  # (the tuner's timing seals too, unless cached)
    assert offset_tuned(24) is lazy
    check_offset(lazy, 24)
    strict("1")
    eager = affine_tuned.compile(T.Tensor((24,), T.float32), T.Tensor((24,), T.float32))
    affine_tuned(a, b)  # the tuned instance
    check_affine(a, b)
    assert eager.config in ({"block": 8}, {"block": 16})
    expect_raises(lambda: affine_tuned(torch.randn(25), torch.zeros(25)),
                  "No explicitly compiled specialization")
    expect_raises(lambda: affine_tuned.compile(N=25), "compilation is sealed")
    print("autotune: compile() tunes; strict mode runs tuned compiles only")


def threads():
    strict("1")
    kernel = offset_rows.compile(12)
    started, release, done = threading.Event(), threading.Event(), threading.Event()
    errors = []

    def compiling():
        with compile_phase.compilation_scope():
            started.set()
            release.wait(10)

    def launching():
        try:
            check_offset(kernel, 12)
        except Exception as e:  # reported below
            errors.append(e)
        finally:
            done.set()
    t1 = threading.Thread(target=compiling)
    t1.start()
    assert started.wait(10)
    t2 = threading.Thread(target=launching)
    t2.start()
    assert not done.wait(0.3), "the launch did not wait for the compilation"
    assert not compile_phase.is_compilation_sealed()
    release.set()
    t1.join(10)
    t2.join(10)
    assert errors == [] and done.is_set(), errors
    assert compile_phase.is_compilation_sealed()

    strict("1")
    kernel = offset_rows.compile(12)
    with compile_phase.compilation_scope():
        expect_raises(lambda: kernel(torch.zeros(12, dtype=torch.int32)),
                      "thread that is still compiling")
    assert not compile_phase.is_compilation_sealed()
    check_offset(kernel, 12)
    print("threads: a launch waits for compilations; none from inside one")


def main():
    default_mode()
    switch_values()
    lazy_strict()
    eager_strict()
    called_jit()
    autotuned()
    prim_func_strict()
    threads()
    strict(None)


if __name__ == "__main__":
    main()
