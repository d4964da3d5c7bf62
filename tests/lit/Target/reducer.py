# Reducers (T.alloc_reducer): the epoch form (T.reducer_init,
# T.reducer_update in T.Parallel, out-of-place T.finalize_reducer) for
# sum, max and min of float32 columns over several row panels, bitand,
# bitor and bitxor of int32 columns with an explicit initial value, and
# the older form (T.clear, `r[0] += x` in a T.Parallel, in-place
# T.finalize_reducer) for row sums and a T.fill(-inf) row maximum. Each
# result is the initial value combined once with every contribution,
# checked against NumPy.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: %python %S/Inputs/reducer_check.py tlc-run %t/cpu %t/wcpu | FileCheck %s
# CHECK: column_stats: ok
# CHECK: column_bits: ok
# CHECK: row_stats: ok
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
def column_bits(M=64, N=32):

    @T.prim_func
    def main(X: T.Tensor((M, N), T.int32), And: T.Tensor((N,), T.int32),
             Or: T.Tensor((N,), T.int32), Xor: T.Tensor((N,), T.int32)):
        with T.Kernel(1, threads=64):
            a = T.alloc_reducer((N,), T.int32, op="bitand")
            o = T.alloc_reducer((N,), T.int32, op="bitor")
            x = T.alloc_reducer((N,), T.int32, op="bitxor")
            ra = T.alloc_fragment((N,), T.int32)
            ro = T.alloc_fragment((N,), T.int32)
            rx = T.alloc_fragment((N,), T.int32)
            T.reducer_init(a)
            T.reducer_init(o, 0x100000)
            T.reducer_init(x, 5)
            for i, j in T.Parallel(M, N):
                T.reducer_update(a[j], X[i, j])
                T.reducer_update(o[j], X[i, j])
                T.reducer_update(x[j], X[i, j])
            T.finalize_reducer(a, ra)
            T.finalize_reducer(o, ro)
            T.finalize_reducer(x, rx)
            T.copy(ra, And)
            T.copy(ro, Or)
            T.copy(rx, Xor)

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
