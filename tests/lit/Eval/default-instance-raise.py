# RUN: tlc-build --verify-diagnostics %s
# A factory no call site instantiates is analysed with its parameters as
# symbols; a check of them that raises (the branch taken is an assumption)
# is a warning, not an error of the program. With a call site that passes
# bad values, the same raise is an error.
import tilelang
import tilelang.language as T


@tilelang.jit
def checked(batch, slots):
    if batch <= 0 or slots <= 0:
        # expected-warning@+1 {{ValueError: batch and slots must be positive}}
        raise ValueError("batch and slots must be positive")

    @T.prim_func
    def main(A: T.Tensor((batch, slots), T.float32)):
        with T.Kernel(batch, threads=128) as bx:
            T.clear(A[bx, :])

    return main


@tilelang.jit
def called(n):
    if n % 64 != 0:
        # expected-error@+1 {{ValueError: n must be a multiple of 64}}
        raise ValueError("n must be a multiple of 64")

    @T.prim_func
    def main(A: T.Tensor((n,), T.float32)):
        with T.Kernel(n // 64, threads=64) as bx:
            T.clear(A[bx * 64:(bx + 1) * 64])

    return main


kernel = called(100)
