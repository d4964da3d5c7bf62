# T.finalize_reducer's out-of-place form (dst=): column sums, maxima and
# minima of float32 row panels into fragments, on the CPU target against
# NumPy. The CUDA target refuses it, located, instead of miscompiling.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/reducer_check.py tlc-run %t/cpu %t/wcpu | FileCheck %s
# RUN: not tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s 2>&1 | FileCheck %s --check-prefix=CUDA
# CHECK: column_stats_dst: ok
# CHECK-NOT: WRONG
# CUDA: reducer-dst.py:[[@LINE+29]]:13: error: T.finalize_reducer: the out-of-place form (dst=) is not generated for the CUDA target yet; finalize in place and T.copy the reducer

import tilelang
import tilelang.language as T


@tilelang.jit
def column_stats_dst(M=256, N=256, block_M=64, block_N=128):

    @T.prim_func
    def main(X: T.Tensor((M, N), T.float32), Sum: T.Tensor((N,), T.float32),
             Max: T.Tensor((N,), T.float32), Min: T.Tensor((N,), T.float32)):
        with T.Kernel(N // block_N, threads=128) as bx:
            tile = T.alloc_fragment((block_M, block_N), T.float32)
            sums = T.alloc_reducer((block_N,), T.float32, op="sum")
            maxes = T.alloc_reducer((block_N,), T.float32, op="max")
            mins = T.alloc_reducer((block_N,), T.float32, op="min")
            s = T.alloc_fragment((block_N,), T.float32)
            mx = T.alloc_fragment((block_N,), T.float32)
            mn = T.alloc_fragment((block_N,), T.float32)
            T.reducer_init(sums)
            T.reducer_init(maxes)
            T.reducer_init(mins)
            for r in T.serial(M // block_M):
                T.copy(X[r * block_M, bx * block_N], tile)
                for i, j in T.Parallel(block_M, block_N):
                    T.reducer_update(sums[j], tile[i, j])
                    T.reducer_update(maxes[j], tile[i, j])
                    T.reducer_update(mins[j], tile[i, j])
            T.finalize_reducer(sums, s)
            T.finalize_reducer(maxes, mx)
            T.finalize_reducer(mins, mn)
            T.copy(s, Sum[bx * block_N])
            T.copy(mx, Max[bx * block_N])
            T.copy(mn, Min[bx * block_N])

    return main


column_stats_dst()
