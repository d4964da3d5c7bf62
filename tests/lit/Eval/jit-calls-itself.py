# RUN: tlc-build --verify-diagnostics %s
# An eager @jit kernel whose body calls a @jit kernel (here itself) goes on
# building its own function after the call's trace: the trace state kept the
# insertion point but not the function, so the next tensor annotation added
# a parameter to a null function and crashed (found by tlc-fuzz-eval,
# tests/fuzz/corpus/eval/crash-11344...).
import tilelang
import tilelang.language as T


@tilelang.jit
def scale(X, block_M: int = 32):
    M = T.const("M")
    Y = scale(X)
    X: T.Tensor((M,), T.float32)
    Z = T.empty((M,), T.float32)
    # The inner trace's M is used by the outer kernel: the IR verifier run
    # after evaluation reports it (TileLang itself recurses forever here).
    # expected-error@+1 {{invalid Tile IR: 'arith.ceildivsi' op using value defined outside the region}}
    with T.Kernel(T.ceildiv(M, block_M), threads=block_M) as bx:
        for i in T.Parallel(block_M):
            Z[bx * block_M + i] = X[bx * block_M + i] * 2.0
    return Z
