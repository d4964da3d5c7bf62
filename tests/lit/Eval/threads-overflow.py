# RUN: tlc-build --verify-diagnostics %s
# A thread count past every target's block limit is an error at the kernel,
# and layout inference plans nothing for it: with `threads=(1 << 62)` the
# default fragment's planner computed `threads * vector` (wrapping to 0) and
# divided by it (found by tlc-fuzz-eval, tests/fuzz/corpus/eval/crash-7332a...).
import tilelang
import tilelang.language as T


@tilelang.jit
def k(block_M=128, block_N=128):
    C: T.Tensor((128, 128), T.float32)
    # expected-error@+1 {{thread count 4611686018427387904 exceeds the maximum of 1024 threads per block}}
    with T.Kernel(1, threads=(1 << 62)) as bx:
        C_local = T.alloc_fragment((block_M, block_N), T.float32)
        T.clear(C_local)
        for i, j in T.Parallel(block_M, block_N):
            C_local[i, j] = C_local[i, j] + 1.0
        T.copy(C_local, C[0, 0])
