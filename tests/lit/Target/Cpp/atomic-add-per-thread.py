# An element T.atomic_add outside T.Parallel is a statement of every thread
# of the block, as on the GPU: TileLang guards no scalar statement to one
# thread (its own test adds `nthreads * A` with T.atomic_addx4(B[o], A[o])
# at the top of a T.Kernel(1, threads=nthreads)). The CPU target ran it once
# per block, so a counter grew by the number of blocks where CUDA and HIP
# grew it by the number of threads. Now the block's threads run it one by
# one (per-thread code); in a T.Parallel each element still adds once. The
# CPU target is checked against NumPy, the CUDA code on the sim device
# against the CPU target.
# RUN: rm -rf %t && mkdir -p %t
# RUN: tlc-build --check %s
# RUN: tlc-build --target=cpu --emit=cpp --no-source-lines %s | FileCheck %s --check-prefix=CPP
# CPP: const int64_t [[N:threads[_0-9]*]] = threads_x * threads_y * threads_z;
# CPP: for (int64_t tlc_t = 0; tlc_t < [[N]]; ++tlc_t) {
# CPP: tlc::cpu::atomicAddGuarded(Count, {0},
# RUN: tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --seed 3 --save %t/out > /dev/null
# RUN: %python %S/Inputs/atomic_add_per_thread_check.py %t/out | FileCheck %s
# CHECK: counters OK
# CHECK: tickets OK
# RUN: %if sim-compiler %{ tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/sm90 %s > /dev/null %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --seed 3 --reference %t/cpu --verify | FileCheck %s --check-prefix=SIM %}
# RUN: %if sim-compiler %{ tlc-run %t/sm90 --device sim --seed 3 --save %t/sim > /dev/null %}
# RUN: %if sim-compiler %{ %python %S/Inputs/atomic_add_per_thread_check.py %t/sim | FileCheck %s %}
# SIM: verify Count: PASS
# SIM: verify Ticket: PASS
# SIM: verify PrevSum: PASS
# SIM-NOT: FAIL
import tilelang
import tilelang.language as T


@tilelang.jit
def counters(X, Count, blocks=3, threads=64):
    X: T.Tensor((blocks * 8,), T.int32)
    Count: T.Tensor((5,), T.int32)
    with T.Kernel(blocks, threads=threads) as bx:
        S = T.alloc_shared((8,), T.int32)
        T.copy(X[bx * 8:(bx + 1) * 8], S)
        # Every thread: + blocks * threads.
        T.atomic_add(Count[0], 1)
        # + threads * (0 + 1 + ... + blocks - 1).
        T.atomic_add(Count[1], bx)
        for _ in T.serial(2):
            T.atomic_add(Count[2], 1)
        # Once per element of the T.Parallel: + blocks * 8.
        for i in T.Parallel(8):
            T.atomic_add(Count[3], 1)
        # After a tile operation, reading shared memory: + threads * X[8 bx].
        T.atomic_add(Count[4], S[0])


@tilelang.jit
def tickets(Ticket, PrevSum, blocks=3, threads=64):
    Ticket: T.Tensor((1,), T.int32)
    PrevSum: T.Tensor((1,), T.int32)
    with T.Kernel(blocks, threads=threads) as bx:
        # Each thread draws its own ticket t0 + k (k = 0 .. blocks * threads
        # - 1, in any order), and their sum does not depend on the order.
        old = T.atomic_add(Ticket[0], 1, return_prev=True)
        T.atomic_add(PrevSum[0], old)


counters(T.Tensor((24,), T.int32), T.Tensor((5,), T.int32))
tickets(T.Tensor((1,), T.int32), T.Tensor((1,), T.int32))
