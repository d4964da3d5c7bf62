# Per-thread code that exchanges values through shared memory without a
# T.sync_threads: TileLang places the barriers itself (the GPU lowering's
# tile-insert-barriers: a read of what another thread wrote since the last
# barrier gets one before it, and a loop writing and reading shared memory
# one at the start of every iteration). The CPU target runs the threads
# one after the other per phase; it emitted the kernel as written, so a
# thread read the rows its successors had not yet stored (a silent wrong
# answer; found on the public Hadamard transform example). It now emits
# the same barriers: the kernels match NumPy on the CPU target and agree
# with the CUDA code on the sim device.
#
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-build --target=cpu --emit=cpp --kernel rotate %s | FileCheck %s --check-prefix=CPP
# CPP: tlc::cpu::storeChecked(st, "{{.*}}shared-memory-barriers.py:[[# @LINE + 27]]:{{[0-9]+}}", shared
# CPP: // barrier (shared-memory dependence): the threads running it have finished the phase before it
# CPP: tlc::cpu::loadChecked(st, "{{.*}}shared-memory-barriers.py:[[# @LINE + 27]]:{{[0-9]+}}", shared
# RUN: tlc-run %t/cpu --kernel rotate --seed 3 --save %t/rotate > /dev/null
# RUN: tlc-run %t/cpu --kernel rounds --seed 4 --save %t/rounds > /dev/null
# RUN: %python %S/Inputs/shared_memory_barriers_check.py %t | FileCheck %s
# CHECK: rotate ok
# CHECK: rounds ok
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_80 --cuda-compiler=none -o %t/cu %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/cu --device sim --verify --reference %t/cpu --seed 5 | FileCheck %s --check-prefix=SIM %}
# SIM: verify B: PASS
# SIM: verify B: PASS

import tilelang
import tilelang.language as T

N = 64
E = 4


@T.prim_func
def rotate(A: T.Tensor((N * E,), T.float32), B: T.Tensor((N * E,), T.float32)):
    # Thread t stores its E values as row t, then reads row (t + 1) % N.
    with T.Kernel(1, threads=N):
        shared = T.alloc_shared((N, E), T.float32)
        tx = T.get_thread_binding(0)
        for j in T.serial(E):
            shared[tx, j] = A[tx * E + j] * 2.0
        for j in T.serial(E):
            B[tx * E + j] = shared[(tx + 1) % N, j]


@T.prim_func
def rounds(A: T.Tensor((N * E,), T.float32), B: T.Tensor((N * E,), T.float32)):
    # Three rounds of: store the running values as row t, read row t ^ 1
    # and add it; the next round overwrites the rows the last one read.
    with T.Kernel(1, threads=N):
        shared = T.alloc_shared((N, E), T.float32)
        local = T.alloc_local((E,), T.float32)
        tx = T.get_thread_binding(0)
        for j in T.serial(E):
            local[j] = A[tx * E + j]
        for r in T.serial(3):
            for j in T.serial(E):
                shared[tx, j] = local[j]
            for j in T.serial(E):
                local[j] = local[j] + shared[tx ^ (1 << r), j]
        for j in T.serial(E):
            B[tx * E + j] = local[j]
