# T.finalize_reducer's out-of-place form (dst=): column sums, maxima and
# minima of float32 row panels into fragments, and rank-2 reducers (float32
# minima, int32 sums over panels) into rank-2 fragments for blocks of 128,
# 64 and 32 threads (several warps or wavefronts, one wavefront, one warp).
# The replicas are combined (lane exchanges within warps or wavefronts,
# then the scratch area across them) and each fragment slot takes its
# element. On the CPU target, cuda:sm_90a and sm_80 and hip:gfx942 (the
# last three on the sim device), against NumPy; nvcc (where installed)
# compiles the CUDA build.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/reducer_check.py tlc-run %t/cpu %t/wcpu | FileCheck %s
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/reducer_check.py tlc-run %t/cuda %t/wcuda --device=sim | FileCheck %s %}
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/cuda80 %s > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/reducer_check.py tlc-run %t/cuda80 %t/wcuda80 --device=sim | FileCheck %s %}
# RUN: %if sim-compiler && hip-toolchain %{ tlc-build --target=hip:gfx942 -o %t/hip %s > /dev/null %}
# RUN: %if sim-compiler && hip-toolchain %{ %python %S/Inputs/reducer_check.py tlc-run %t/hip %t/whip --device=sim | FileCheck %s %}
# RUN: %if nvcc %{ tlc-build --target=cuda:sm_90a -o %t/nvcc %s > /dev/null %}
# CHECK: column_stats_dst: ok
# CHECK-NEXT: panel_stats (128 threads): ok
# CHECK-NEXT: panel_stats (64 threads): ok
# CHECK-NEXT: panel_stats (32 threads): ok
# CHECK-NOT: WRONG

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


@tilelang.jit
def panel_stats(threads, P=16, R=4, C=24):

    @T.prim_func
    def main(X: T.Tensor((P, R, C), T.float32),
             Xi: T.Tensor((P, R, C), T.int32),
             Min: T.Tensor((R, C), T.float32),
             ISum: T.Tensor((R, C), T.int32)):
        with T.Kernel(1, threads=threads):
            mn = T.alloc_reducer((R, C), T.float32, op="min")
            sm = T.alloc_reducer((R, C), T.int32, op="sum")
            mn_out = T.alloc_fragment((R, C), T.float32)
            sm_out = T.alloc_fragment((R, C), T.int32)
            T.reducer_init(mn)
            T.reducer_init(sm)
            for p, r, c in T.Parallel(P, R, C):
                T.reducer_update(mn[r, c], X[p, r, c])
                T.reducer_update(sm[r, c], Xi[p, r, c])
            T.finalize_reducer(mn, mn_out)
            T.finalize_reducer(sm, sm_out)
            T.copy(mn_out, Min)
            T.copy(sm_out, ISum)

    return main


column_stats_dst()
panel_stats(128)
panel_stats(64)
panel_stats(32)
