# RUN: tlc-build --verify-diagnostics %s
# Bounded analysis: layout inference enumerates at most 4,194,304 fragment
# elements per kernel (its loops, copies and reductions summed). A kernel
# past that is an error at the kernel at once, not seconds of enumeration
# (found by tlc-fuzz-eval: tests/fuzz/corpus/eval/slow-unit-925a...); one
# large loop within it (TileLang's issue 2883 test, T.Parallel(64, 8192))
# is still inferred (1,572,864 elements: two copies and the loop).
import tilelang
import tilelang.language as T


@tilelang.jit
def over_budget(M=1024, block_M=64, block_N=65536):
    A: T.Tensor((M, block_N), T.float32)
    B: T.Tensor((M, block_N), T.float32)
    # expected-error@+1 {{layouts of this kernel cannot be inferred: its loops, copies and reductions over fragments span 20,971,520 elements, over the 4,194,304 layout inference enumerates per kernel}}
    with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
        acc = T.alloc_fragment((block_M, block_N), T.float32)
        m = T.alloc_fragment((block_M,), T.float32)
        # expected-note@+1 {{the largest spans 4,194,304 elements}}
        T.copy(A[bx * block_M, 0], acc)
        for i, j in T.Parallel(block_M, block_N):
            acc[i, j] = acc[i, j] * 2.0
        T.reduce_max(acc, m, dim=1)
        for i, j in T.Parallel(block_M, block_N):
            acc[i, j] = acc[i, j] - m[i]
        T.copy(acc, B[bx * block_M, 0])


@tilelang.jit
def within_budget(M=64, N=8192):
    A: T.Tensor((M, N), T.float32)
    with T.Kernel(1, threads=128) as bx:
        F = T.alloc_fragment((M, N), T.float32)
        T.copy(A, F)
        for i, j in T.Parallel(M, N):
            F[i, j] = F[i, j] + 1.0
        T.copy(F, A)


over_budget()
within_budget()
