# RUN: tlc-build --verify-diagnostics %s
# A tile with an extent of 0 (here from `block_N % block_K // 2` written for
# `(block_N, block_K // 2)`) is an error at its allocation; layout
# inference used to crash on it (found by tlc-fuzz-eval).
import tilelang
import tilelang.language as T


@tilelang.jit
def k(block_N=128, block_K=64):
    A: T.Tensor((128, 64), T.float32)
    with T.Kernel(1, threads=128) as bx:
        # expected-error@+1 {{buffer 'x' has an extent of 0; every extent of a tile must be positive}}
        x = T.alloc_fragment((0, 4), T.float32)
        T.clear(x)
        # expected-error@+1 {{buffer 's' has an extent of 0; every extent of a tile must be positive}}
        s = T.alloc_shared((block_N % block_K // 2), T.float32)
        T.clear(s)
