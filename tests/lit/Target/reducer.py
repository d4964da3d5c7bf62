# Reducers (T.alloc_reducer): the epoch form (T.reducer_init,
# T.reducer_update in T.Parallel, T.finalize_reducer in place) for
# sum, max and min of float32 columns over several row panels, bitand,
# bitor and bitxor of int32 columns with an explicit initial value, and
# the older form (T.clear, `r[0] += x` in a T.Parallel, in-place
# T.finalize_reducer) for row sums and a T.fill(-inf) row maximum. Each
# result is the initial value combined once with every contribution,
# checked against NumPy, on the CPU target (one accumulator per block) and
# cuda:sm_90a / sm_80 and hip:gfx942 on the sim device (a replica per
# thread, combined across the block: lane exchanges within warps of 32 or
# wavefronts of 64, then the scratch area across them).
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
# CHECK: column_bits: ok
# CHECK-NEXT: column_stats: ok
# CHECK-NEXT: row_stats: ok
# CHECK-NOT: WRONG

import tilelang
import tilelang.language as T


@tilelang.jit
def column_stats(M=256, N=256, block_M=64, block_N=128):

    @T.prim_func
    def main(X: T.Tensor((M, N), T.float32), Sum: T.Tensor((N,), T.float32),
             Max: T.Tensor((N,), T.float32), Min: T.Tensor((N,), T.float32)):
        with T.Kernel(N // block_N, threads=128) as bx:
            tile = T.alloc_fragment((block_M, block_N), T.float32)
            sums = T.alloc_reducer((block_N,), T.float32, op="sum")
            maxes = T.alloc_reducer((block_N,), T.float32, op="max")
            mins = T.alloc_reducer((block_N,), T.float32, op="min")
            T.reducer_init(sums)
            T.reducer_init(maxes)
            T.reducer_init(mins)
            for r in T.serial(M // block_M):
                T.copy(X[r * block_M, bx * block_N], tile)
                for i, j in T.Parallel(block_M, block_N):
                    T.reducer_update(sums[j], tile[i, j])
                    T.reducer_update(maxes[j], tile[i, j])
                    T.reducer_update(mins[j], tile[i, j])
            T.finalize_reducer(sums)
            T.finalize_reducer(maxes)
            T.finalize_reducer(mins)
            for j in T.Parallel(block_N):
                Sum[bx * block_N + j] = sums[j]
                Max[bx * block_N + j] = maxes[j]
                Min[bx * block_N + j] = mins[j]

    return main


@tilelang.jit
def column_bits(M=64, N=32):

    @T.prim_func
    def main(X: T.Tensor((M, N), T.int32), And: T.Tensor((N,), T.int32),
             Or: T.Tensor((N,), T.int32), Xor: T.Tensor((N,), T.int32)):
        with T.Kernel(1, threads=64):
            a = T.alloc_reducer((N,), T.int32, op="bitand")
            o = T.alloc_reducer((N,), T.int32, op="bitor")
            x = T.alloc_reducer((N,), T.int32, op="bitxor")
            T.reducer_init(a)
            T.reducer_init(o, 0x100000)
            T.reducer_init(x, 5)
            for i, j in T.Parallel(M, N):
                T.reducer_update(a[j], X[i, j])
                T.reducer_update(o[j], X[i, j])
                T.reducer_update(x[j], X[i, j])
            T.finalize_reducer(a)
            T.finalize_reducer(o)
            T.finalize_reducer(x)
            for j in T.Parallel(N):
                And[j] = a[j]
                Or[j] = o[j]
                Xor[j] = x[j]

    return main


@tilelang.jit
def row_stats(M=8, N=128):

    @T.prim_func
    def main(A: T.Tensor((M, N), T.float32), S: T.Tensor((M,), T.float32),
             Mx: T.Tensor((M,), T.float32)):
        with T.Kernel(M, threads=64) as bx:
            a = T.alloc_fragment((N,), T.float32)
            r = T.alloc_reducer((1,), T.float32, op="sum", replication="all")
            m = T.alloc_reducer((1,), T.float32, op="max", replication="all")
            T.copy(A[bx, 0], a)
            T.clear(r)
            T.fill(m, -T.infinity(T.float32))
            for i in T.Parallel(N):
                r[0] += a[i]
                m[0] = T.max(m[0], a[i])
            T.finalize_reducer(r)
            T.finalize_reducer(m)
            S[bx] = r[0]
            Mx[bx] = m[0]

    return main


column_stats()
column_bits()
row_stats()
