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


# A shared tile with an extent of 0 that a parallel loop reads: the
# bank-conflict check built a linear layout of it anyway and freed an
# invalid pointer (found by tlc-fuzz-eval, tests/fuzz/corpus/eval/crash-664ef...).
@tilelang.jit
def k2(block_N=128, block_K=64):
    B: T.Tensor((128, 64), T.uint8)
    C: T.Tensor((128, 64), T.float16)
    with T.Kernel(1, threads=128) as bx:
        # expected-error@+1 {{buffer 's' has an extent of 0; every extent of a tile must be positive}}
        s = T.alloc_shared((block_N, block_K % 2), T.uint8)
        d = T.alloc_shared((block_N, block_K), T.float16)
        T.copy(B[0, 0], s)
        for i, j in T.Parallel(block_N, block_K):
            d[i, j] = T.cast(s[i, j // 2], T.float16)
        T.copy(d, C[0, 0])
