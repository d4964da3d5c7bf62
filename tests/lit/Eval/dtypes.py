# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --emit=tile %s > %t.mlir 2>/dev/null
# RUN: tlc-opt %t.mlir > /dev/null
# Unknown dtypes are reported at the spelling, in every place a dtype is
# accepted.
import tilelang
import tilelang.language as T


@tilelang.jit
def dtypes(N=128):
    # expected-error@+1 {{unknown dtype 'T.float17'}}
    A: T.Tensor((N,), T.float17)
    # expected-error@+1 {{unknown dtype 'fp16'}}
    B: T.Tensor((N,), "fp16")
    C: T.Tensor((N,), "float16")
    with T.Kernel(1, threads=128) as bx:
        # expected-error@+1 {{unknown dtype 'float128'}}
        S = T.alloc_shared((N,), "float128")
        F = T.alloc_fragment((N,), T.half)
        # expected-error@+1 {{unknown dtype 'int3'}}
        v = T.alloc_var("int3")
        T.copy(C, F)
