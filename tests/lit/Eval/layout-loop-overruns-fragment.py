# A T.Parallel loop that runs past a fragment it indexes with its own
# variables (here 128 rows over a 32-element per-head table, as the
# attention-sink kernels write it): TileLang gives the fragment the loop's
# layout, so the loop that reads it beside the reduction's result agrees with
# the one that filled it. tlc restricts that layout to the fragment's shape
# instead of giving the fragment a default layout and then reporting a
# conflict. The accesses past the 32 elements are the program's errors
# (tile-check-shared-bounds; TileLang's current attention-sink examples
# allocate [block_M]); no layout error comes with them, and the hints stay.
# RUN: not tlc-build --check --no-source-lines %s 2>&1 | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
# RUN: not tlc-build --emit=hints --format=json %s | FileCheck %s
# ERR: layout-loop-overruns-fragment.py:[[@LINE+21]]:17: error: write outside 'sinks': the index of dimension 0 takes the values 0 to 127 here, but the dimension has 32 elements
# ERR: layout-loop-overruns-fragment.py:[[@LINE+24]]:37: error: read outside 'sinks'

import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def scores_with_sinks(heads=32, block_M=128, block_N=128, dim=128):
    @T.prim_func
    def main(Q: T.Tensor((block_M, dim), T.float16), K: T.Tensor((block_N, dim), T.float16),
             Sinks: T.Tensor([heads], T.float16), Out: T.Tensor((block_M,), T.float32)):
        with T.Kernel(1, threads=256) as bx:
            Q_shared = T.alloc_shared([block_M, dim], T.float16)
            K_shared = T.alloc_shared([block_N, dim], T.float16)
            acc_s = T.alloc_fragment([block_M, block_N], T.float32)
            logsum = T.alloc_fragment([block_M], T.float32)
            sinks = T.alloc_fragment([heads], T.float16)
            T.copy(Q, Q_shared)
            T.copy(K, K_shared)
            for i in T.Parallel(block_M):
                sinks[i] = Sinks[bx]
            T.gemm(Q_shared, K_shared, acc_s, transpose_B=True, clear_accum=True)
            T.reduce_sum(acc_s, logsum, dim=1)
            for i in T.Parallel(block_M):
                logsum[i] += T.exp2(sinks[i] * 1.44269504)
            T.copy(logsum, Out)

    return main


scores_with_sinks()

# CHECK: "name":"logsum","kind":"buffer","shape":[128],"dtype":"float32","scope":"local.fragment","layout":"wgmma.C row · 4×2 warps · 4 regs/thread · rep 8"
# CHECK: "name":"sinks","kind":"buffer","shape":[32],"dtype":"float16","scope":"local.fragment","layout":"wgmma.C row · 4×2 warps · 2 regs/thread · rep 8"
