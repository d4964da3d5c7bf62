"""What a factory's Python code raises reaches the caller as that
exception: TileLang runs the factory in Python, so scripts catch
``ValueError`` / ``NotImplementedError`` / ``TypeError`` from a bad call
(``pytest.raises(ValueError, match=...)``). tlc evaluates the factory; the
package raises a TLCBuildError that is also the raised type, with the
message. A valid call of the same factory still builds and matches float64
torch; a build error that is not a Python exception stays a plain
TLCBuildError. CPU target."""

import torch

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1], target="cpu")
def scaled_copy(N, block=16, mode="double", dtype="float32"):
    if block <= 0 or N % block != 0:
        raise ValueError(f"block must divide N, got N={N}, block={block}")
    if mode not in ("double", "negate"):
        raise NotImplementedError(f"mode {mode} is not implemented")
    if not isinstance(N, int):
        raise TypeError("N must be an int")
    factor = 2.0 if mode == "double" else -1.0

    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(N // block, threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[bx * block + i] * factor
    return main


@tilelang.jit(out_idx=[1], target="cpu")
def bad_copy(N):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(1, threads=1):
            T.gemm(A, A, B)  # operands of the wrong rank: tlc's own error
    return main


def expect(exc_type, text, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc_type as e:
        assert isinstance(e, tilelang.TLCBuildError), type(e).__mro__
        assert text in str(e), str(e)
        return e
    raise AssertionError(f"{fn.__name__}{args} raised no {exc_type.__name__}")


def main():
    torch.manual_seed(0)
    x = torch.randn(64)
    torch.testing.assert_close(scaled_copy(64)(x).double(), x.double() * 2,
                               rtol=0, atol=0)
    torch.testing.assert_close(scaled_copy(64, 32, "negate")(x).double(),
                               -x.double(), rtol=0, atol=0)

    e = expect(ValueError, "block must divide N, got N=60, block=16",
               scaled_copy, 60)
    assert not isinstance(e, NotImplementedError)
    expect(ValueError, "block=0", scaled_copy, 64, 0)
    expect(NotImplementedError, "mode square is not implemented",
           scaled_copy, 64, 16, "square")
    expect(TypeError, "N must be an int", scaled_copy, 64.0, 16)

    # tlc's own diagnostic (not a Python exception of the program): a plain
    # TLCBuildError, none of the builtin types.
    try:
        bad_copy(64)
    except tilelang.TLCBuildError as e:
        assert not isinstance(e, (ValueError, TypeError)), type(e).__mro__
    else:
        raise AssertionError("a 1-D T.gemm built")
    print("factory_exceptions: OK")


if __name__ == "__main__":
    main()
