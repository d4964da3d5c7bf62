# RUN: tlc-build --verify-diagnostics %s
# An eager @jit kernel whose body calls a @jit kernel (here itself) goes on
# building its own function after the call's trace: the trace state kept the
# insertion point but not the function, so the next tensor annotation added
# a parameter to a null function and crashed (found by tlc-fuzz-eval,
# tests/fuzz/corpus/eval/crash-11344...). The recursion itself is now
# reported at the call.
import tilelang
import tilelang.language as T


@tilelang.jit
def scale(X, block_M: int = 32):
    M = T.const("M")
    # TileLang traces the call again, forever: a RecursionError at the call
    # (a warning: no call site instantiates the kernel).
    # expected-warning@+2 {{RecursionError: 'scale' calls itself while its body is being traced; TileLang traces the call again, without end}}
    # expected-note@-5 {{raised while analysing a kernel without a call site}}
    Y = scale(X)
    X: T.Tensor((M,), T.float32)
    Z = T.empty((M,), T.float32)
    with T.Kernel(T.ceildiv(M, block_M), threads=block_M) as bx:
        for i in T.Parallel(block_M):
            Z[bx * block_M + i] = X[bx * block_M + i] * 2.0
    return Z


# A call of another eager kernel from a trace: both build, no diagnostic.
@tilelang.jit
def twice(X):
    M = T.const("M")
    X: T.Tensor((M,), T.float32)
    Z = T.empty((M,), T.float32)
    with T.Kernel(T.ceildiv(M, 32), threads=32) as bx:
        for i in T.Parallel(32):
            Z[bx * 32 + i] = X[bx * 32 + i] * 2.0
    return Z


@tilelang.jit
def four_times(X):
    M = T.const("M")
    Y = twice(X)
    X: T.Tensor((M,), T.float32)
    Z = T.empty((M,), T.float32)
    with T.Kernel(T.ceildiv(M, 32), threads=32) as bx:
        for i in T.Parallel(32):
            Z[bx * 32 + i] = X[bx * 32 + i] * 4.0
    return Z
