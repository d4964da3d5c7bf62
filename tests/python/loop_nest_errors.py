"""Invalid loop nests reach Python as the exception TileLang raises, with
tlc's located message: a T.Parallel nested in another T.Parallel after
another statement or inside a serial loop, and a T.Pipelined inside a
T.Parallel, are ValueErrors raised when the kernel is compiled, as
TileLang's nested-loop check (a lowering pass) raises them: defining such
a prim_func succeeds, `tilelang.compile` raises (``error: ValueError: ...``
at the loop); a loop target read after its loop is a located build error
(it was a host compiler error about an undeclared C++ variable). The valid
nests of the same shape build and match NumPy. A factory that imports
`tilelang.language as T` itself (as TileLang's own tests do) defines its
prim_func too. CPU target."""

import numpy as np
import torch

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1], target="cpu")
def nest(length=256, block=16, form="continuous"):
    @T.prim_func
    def main(A: T.Tensor((length,), "float32"), B: T.Tensor((length,), "float32")):
        with T.Kernel(1, threads=length):
            if form == "continuous":
                for i in T.Parallel(length // block):
                    for j in T.Parallel(block):
                        B[i * block + j] = A[i * block + j] + 1.0
            elif form == "serial_inside":
                for i in T.Parallel(length // block):
                    for j in T.serial(block):
                        B[i * block + j] = A[i * block + j] * 2.0
            elif form == "after_statement":
                for i in T.Parallel(length // block):
                    B[i] = 0
                    for j in T.Parallel(block):
                        B[i * block + j] = A[i * block + j] + 1.0
            elif form == "serial_between":
                for i in T.Parallel(length // block // 2):
                    for j in T.serial(block):
                        for k in T.Parallel(2):
                            B[(i * block + j) * 2 + k] = A[(i * block + j) * 2 + k]
            else:
                for i in T.Parallel(length // block):
                    for k in T.Pipelined(block, num_stages=2):
                        B[i * block + k] = A[i * block + k]
    return main


@tilelang.jit(out_idx=[0], target="cpu")
def loop_target_after_loop(n=4):
    @T.prim_func
    def main(A: T.Tensor((n,), "int32")):
        with T.Kernel(1, threads=1):
            for d in T.serial(n):
                A[d] = d
            A[0] = d
    return main


def pipelined_in_parallel(n=64):
    import tilelang.language as T  # the prim_func's T is this local

    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=32):
            for _ in T.Parallel(1):
                for k in T.Pipelined(n // 16, num_stages=2):
                    for i in T.Parallel(16):
                        B[k * 16 + i] = A[k * 16 + i]
    return main


def expect(exc_type, texts, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc_type as e:
        assert isinstance(e, tilelang.TLCBuildError), type(e).__mro__
        for text in texts:
            assert text in str(e), (text, str(e))
        return e
    raise AssertionError(f"{fn.__name__}{args} {kwargs} raised no "
                         f"{exc_type.__name__}")


def main():
    here = "loop_nest_errors.py:"
    a = np.random.default_rng(3).standard_normal(256).astype(np.float32)
    out = nest(form="continuous")(torch.from_numpy(a))
    np.testing.assert_array_equal(out.numpy(), a + np.float32(1.0))
    out = nest(form="serial_inside")(torch.from_numpy(a))
    np.testing.assert_array_equal(out.numpy(), a * np.float32(2.0))

    nested = "a T.Parallel nested in another T.Parallel must be the whole body"
    e = expect(ValueError, [here + "36:", "error: ValueError: " + nested],
               nest, form="after_statement")
    assert not isinstance(e, TypeError)
    expect(ValueError, [here + "41:", nested], nest, form="serial_between")
    expect(ValueError, [here + "45:", "T.Pipelined cannot be used inside "
                        "T.Parallel"], nest, form="pipelined")

    # Defined without an error; compiling it raises.
    program = pipelined_in_parallel()
    expect(ValueError, [here + "68:", "T.Pipelined cannot be used inside "
                        "T.Parallel"], tilelang.compile, program, out_idx=[1],
           target="cpu")

    e = expect(RuntimeError, [here + "57:", "'d' is the target of a loop "
                              "that has ended"], loop_target_after_loop)
    assert not isinstance(e, ValueError), type(e).__mro__
    print("loop_nest_errors: OK")


main()
