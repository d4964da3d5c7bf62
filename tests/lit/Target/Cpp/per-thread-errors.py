# RUN: tlc-build --check %s
# What the CPU target's per-thread lowering refuses, each with its reason:
# at build time what no input can make right, at run time what depends on
# the values (a barrier that only some threads reach, a warp shuffle whose
# mask names lanes that do not reach it, a loop bound that differs between
# threads around a barrier). `--check` reports none of them.
#
# RUN: not tlc-build --target=cpu -o %t/local --kernel=reduce_local %s 2>&1 | FileCheck %s --check-prefix=LOCAL
# LOCAL: error: the CPU target cannot run this tile operation on a T.alloc_local / T.alloc_var buffer in a kernel with per-thread code
# RUN: not tlc-build --target=cpu -o %t/exit --kernel=divergent_exit %s 2>&1 | FileCheck %s --check-prefix=EXIT
# EXIT: error: T.loop_break: leaves a loop with barriers or warp operations under a condition that may differ between threads
#
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/bar --kernel=partial_barrier %s
# RUN: not tlc-run %t/bar 2>&1 | FileCheck %s --check-prefix=BAR
# BAR: per-thread-errors.py:[[@LINE+21]]:13: error: T.sync_threads() is a barrier of the whole block, but thread 0 reaches it and thread 64 does not
# RUN: tlc-build --target=cpu -o %t/shfl --kernel=partial_shuffle %s
# RUN: not tlc-run %t/shfl 2>&1 | FileCheck %s --check-prefix=SHFL
# SHFL: error: T.shfl_xor: lane 16 of warp 0 is in the mask but does not reach it (lane 0 does)
# RUN: tlc-build --target=cpu -o %t/bound --kernel=divergent_bound %s
# RUN: not tlc-run %t/bound 2>&1 | FileCheck %s --check-prefix=BOUND
# BOUND: error: a bound of a loop with barriers or warp operations differs between thread 0 and thread 1 of the block
import tilelang
import tilelang.language as T


@tilelang.jit
def partial_barrier(X):
    N = T.const("N")
    X: T.Tensor((N,), T.float32)
    Y = T.empty((N,), T.float32)
    with T.Kernel(1, threads=128):
        tx = T.get_thread_binding()
        S = T.alloc_shared((128,), T.float32)
        S[tx] = X[tx]
        if tx < 64:
            T.sync_threads()
        Y[tx] = S[127 - tx]
    return Y


@tilelang.jit
def partial_shuffle(X):
    N = T.const("N")
    X: T.Tensor((N,), T.int32)
    Y = T.empty((N,), T.int32)
    with T.Kernel(1, threads=32):
        tx = T.get_thread_binding()
        v = T.alloc_var(T.int32)
        v = X[tx]
        if tx < 16:
            v += T.shfl_xor(v, 1)
        Y[tx] = v
    return Y


@tilelang.jit
def divergent_bound(X):
    N = T.const("N")
    X: T.Tensor((N,), T.int32)
    Y = T.empty((N,), T.int32)
    with T.Kernel(1, threads=64):
        tx = T.get_thread_binding()
        S = T.alloc_shared((64,), T.int32)
        S[tx] = 0
        for i in T.serial(tx % 3):
            T.sync_threads()
            S[tx] += i
        Y[tx] = S[tx]
    return Y


@tilelang.jit
def reduce_local(X):
    N = T.const("N")
    X: T.Tensor((N,), T.float32)
    Y = T.empty((N,), T.float32)
    with T.Kernel(1, threads=32):
        tx = T.get_thread_binding()
        r = T.alloc_local((4,), T.float32)
        s = T.alloc_shared((), T.float32)
        T.copy(X[0:4], r)
        T.reduce_sum(r, s)
        Y[tx] = s[()]
    return Y


@tilelang.jit
def divergent_exit(X):
    N = T.const("N")
    X: T.Tensor((N,), T.int32)
    Y = T.empty((N,), T.int32)
    with T.Kernel(1, threads=64):
        tx = T.get_thread_binding()
        S = T.alloc_shared((64,), T.int32)
        S[tx] = X[tx]
        for i in T.serial(8):
            T.sync_threads()
            if S[tx] > i:
                S[tx] = S[tx] - 1
                if tx == 3:
                    T.loop_break()
        Y[tx] = S[tx]
    return Y


partial_barrier.compile(N=128)
partial_shuffle.compile(N=32)
divergent_bound.compile(N=64)
reduce_local.compile(N=32)
divergent_exit.compile(N=64)
