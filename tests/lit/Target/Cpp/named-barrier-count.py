# A named barrier of some of the block's threads, T.sync_threads(id, count),
# inside a branch on the thread index that exactly `count` threads take:
# the prefix-sum pattern of the public top-k selector (256 of 1,024
# threads scan a histogram between `T.sync_threads(3, 256)`). The CPU
# target took every T.sync_threads for a barrier of the whole block and
# stopped the run ("thread 0 reaches it and thread 256 does not"); it now
# ends the phase among the threads that reach it and checks that they are
# `count` (a count no thread set matches is an error: the GPU would wait
# forever). Checked against NumPy's cumsum, and on the sim device against
# the CPU target.
#
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-build --target=cpu --emit=cpp --kernel scan %s | FileCheck %s --check-prefix=CPP
# CPP: // T.sync_threads(3, 128): the threads that reach it have finished the phase before it
# CPP: tlc::cpu::namedBarrierThreads(st, "{{.*}}named-barrier-count.py:{{[0-9]+}}:{{[0-9]+}}", "T.sync_threads(3, 128)",
# RUN: tlc-run %t/cpu --kernel scan --seed 3 --save %t/scan > /dev/null
# RUN: %python %S/Inputs/named_barrier_count_check.py %t/scan | FileCheck %s
# CHECK: scan ok
# RUN: not tlc-run %t/cpu --kernel wrong_count 2>&1 | FileCheck %s --check-prefix=WRONG
# WRONG: named-barrier-count.py:[[# @LINE + 44]]:{{[0-9]+}}: error: T.sync_threads(2, 64) is a barrier of 64 threads, but 128 threads reach it
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none --kernel scan -o %t/cu %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cu --device sim --verify --reference %t/cpu --seed 5 | FileCheck %s --check-prefix=SIM %}
# SIM: verify Out: PASS

import tilelang
import tilelang.language as T

R = 128  # the scanning threads
B = 4    # blocks


@T.prim_func
def scan(A: T.Tensor((B, R), T.int32), Out: T.Tensor((B, R), T.int32)):
    with T.Kernel(B, threads=512) as bx:
        tx = T.get_thread_binding()
        hist = T.alloc_shared((R,), T.int32)
        val = T.alloc_var(T.int32)
        if tx < R:
            hist[tx] = A[bx, tx]
        T.sync_threads()
        # Hillis-Steele inclusive prefix sum among the first R threads.
        if tx < R:
            for i in T.serial(7):
                offset = 1 << i
                T.sync_threads(3, R)
                if tx >= offset:
                    val = hist[tx] + hist[tx - offset]
                else:
                    val = hist[tx]
                T.sync_threads(3, R)
                hist[tx] = val
        T.sync_threads()
        if tx < R:
            Out[bx, tx] = hist[tx]


@T.prim_func
def wrong_count(A: T.Tensor((R,), T.int32), Out: T.Tensor((R,), T.int32)):
    with T.Kernel(1, threads=256) as bx:
        tx = T.get_thread_binding()
        s = T.alloc_shared((R,), T.int32)
        if tx < R:
            s[tx] = A[tx]
            T.sync_threads(2, 64)
            Out[tx] = s[R - 1 - tx]
