# RUN: tlc-build --check %s
# A view taken at a per-thread offset and used after an mbarrier wait, and
# a T.alloc_var read inside a T.Parallel, in a warp-specialised kernel of
# MInference's form (examples/minference's vertical-slash attention: the
# producer reads `k = block_offset[bi]` from shared memory, waits for a free
# stage, then TMA-copies `K[.., k : k + block_N, :]`; the consumers bound
# their T.Parallel by a T.alloc_var count). On the CPU target the view lives
# in a Lanes of Views across the wait and the copy takes the one its
# threads agree on; the T.Parallel reads the first active thread's copy of
# the var once every active thread's agree.
#
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu --kernel=gather_blocks %s > /dev/null
# RUN: tlc-run %t/cpu --seed 5 --fill 'Offsets=randint(0,241)' --fill 'Counts=randint(1,6)' --save %t/out > /dev/null
# RUN: %python %S/Inputs/per_thread_views_ref.py %t/out | FileCheck %s --check-prefix=REF
# REF: counts [{{[1-5 ]+}}] max_abs_err {{[0-9.e+-]+}} ok True
# The same CUDA on the sim device gives the CPU target's values bit for bit.
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none --kernel=gather_blocks -o %t/cuda %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cuda --device sim --verify --reference %t/cpu --seed 5 --fill 'Offsets=randint(0,241)' --fill 'Counts=randint(1,6)' | FileCheck %s --check-prefix=SIM %}
# SIM: verify Y: PASS  rel_err=0.000e+00 max_abs_err=0.000e+00
#
# What differs between threads where the block uses one value is a run-time
# error naming two threads:
# RUN: tlc-build --target=cpu -o %t/view --kernel=divergent_view %s > /dev/null
# RUN: not tlc-run %t/view 2>&1 | FileCheck %s --check-prefix=VIEW
# VIEW: per-thread-views.py:[[@LINE+53]]:13: error: an operand of T.copy differs between thread 128 and thread 129 of the block; the CPU target uses it once for the whole block
# RUN: tlc-build --target=cpu -o %t/var --kernel=divergent_var %s > /dev/null
# RUN: not tlc-run %t/var 2>&1 | FileCheck %s --check-prefix=VAR
# VAR: per-thread-views.py:[[@LINE+67]]:18: error: 'n' read by T.Parallel differs between thread 0 and thread 1 of the block; the CPU target reads it once for the whole block
import tilelang
import tilelang.language as T


@tilelang.jit
def gather_blocks(X, Offsets, Counts, S=256, G=6, MAXB=5, BN=16, D=32):
    X: T.Tensor((S, D), T.float32)
    Offsets: T.Tensor((G, MAXB), T.int32)
    Counts: T.Tensor((G,), T.int32)
    Y = T.empty((G, BN, D), T.float32)
    with T.Kernel(G, threads=256) as bx:
        tile = T.alloc_shared((2, BN, D), T.float32)
        offs = T.alloc_shared((MAXB,), T.int32)
        acc = T.alloc_fragment((BN, D), T.float32)
        count = T.alloc_var(dtype=T.int32)
        bars = T.alloc_barrier([128] * 4)
        count = Counts[bx]
        for i in T.Parallel(MAXB):
            offs[i] = Offsets[bx, i]
        tid = T.get_thread_binding()
        if tid >= 128:
            for b in T.serial(count):
                k = offs[b]
                T.mbarrier_wait_parity(mbarrier=bars[b % 2 + 2], parity=(((b & 3) >> 1) ^ 1))
                T.tma_copy(X[k:k + BN, :], tile[b % 2, :, :], barrier=bars[b % 2])
                T.mbarrier_arrive(mbarrier=bars[b % 2])
        else:
            T.clear(acc)
            for b in T.serial(count):
                T.mbarrier_wait_parity(mbarrier=bars[b % 2], parity=((b & 3) >> 1))
                for i, j in T.Parallel(BN, D):
                    acc[i, j] += tile[b % 2, i, j]
                T.mbarrier_arrive(mbarrier=bars[b % 2 + 2])
            for i, j in T.Parallel(BN, D):
                Y[bx, i, j] = T.if_then_else(i < count, acc[i, j], -1.0)
    return Y


@tilelang.jit
def divergent_view(X, S=64, BN=16, D=32):
    X: T.Tensor((S, D), T.float32)
    Y = T.empty((BN, D), T.float32)
    with T.Kernel(1, threads=256):
        tile = T.alloc_shared((BN, D), T.float32)
        bars = T.alloc_barrier([128, 128])
        tid = T.get_thread_binding()
        if tid >= 128:
            k = tid % 4
            T.mbarrier_wait_parity(mbarrier=bars[1], parity=1)
            T.tma_copy(X[k:k + BN, :], tile, barrier=bars[0])
            T.mbarrier_arrive(mbarrier=bars[0])
        else:
            T.mbarrier_wait_parity(mbarrier=bars[0], parity=0)
            T.copy(tile, Y)
    return Y


@tilelang.jit
def divergent_var(X, N=8):
    X: T.Tensor((N,), T.float32)
    Y = T.empty((N,), T.float32)
    with T.Kernel(1, threads=32):
        n = T.alloc_var(dtype=T.int32)
        tid = T.get_thread_binding()
        n = tid % 3
        T.sync_threads()
        for i in T.Parallel(N):
            Y[i] = T.if_then_else(i < n, X[i], 0.0)
    return Y
