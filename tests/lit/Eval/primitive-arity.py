# RUN: tlc-build --verify-diagnostics %s
# Calls of T.* primitives are matched against their registered parameter
# lists: wrong arity and unknown keywords point at the offending argument.
import tilelang
import tilelang.language as T


@tilelang.jit
def kernel(N=128):
    A: T.Tensor((N, N), T.float16)
    with T.Kernel(1, threads=128) as bx:
        S = T.alloc_shared((N, N), T.float16)
        F = T.alloc_fragment((N, N), T.float32)
        # expected-error@+1 {{T.copy() takes exactly 2 positional arguments (3 given)}}
        T.copy(A, S, F)
        # expected-error@+1 {{T.copy() got an unexpected keyword argument 'dest'}}
        T.copy(A, dest=S)
        # expected-error@+1 {{T.gemm() missing required argument 'C'}}
        T.gemm(S, S)
        # expected-error@+1 {{T.fill() missing required argument 'value'}}
        T.fill(F)
        T.clear(F)
