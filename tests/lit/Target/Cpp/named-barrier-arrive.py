# T.named_barrier_arrive(id, count) (PTX bar.arrive): the threads that reach
# it count towards named barrier `id` and go on without waiting; the
# threads waiting on it with T.sync_threads(id, count) (bar.sync) go on once
# `count` threads arrived. TileLang issue 2188's producer / consumer
# handshake between two warps, and a ring of rounds through one shared
# slot ordered only by two named barriers. The CPU target refused the
# arrival ("cannot emit T.named_barrier_arrive"); a kernel with one now
# runs its branches on the thread index as fibers (as for mbarrier waits),
# each arrival adding the threads that reach it. Checked against NumPy; a
# consumer that waits for more threads than ever arrive is reported as a
# deadlock, not run past.
# RUN: tlc-build --check %s
# RUN: tlc-build --target=cpu --emit=cpp --kernel=handshake %s | FileCheck %s --check-prefix=CPP
# CPP: tlc::cpu::NamedBarriers [[NB:[a-z_0-9]+]];
# CPP: tlc::cpu::Fibers::current().spawn(
# CPP: tlc::cpu::namedBarrierArrive(st, "{{.*}}named-barrier-arrive.py:[[# @LINE + 25]]:{{[0-9]+}}", [[NB]], int(10), int64_t(64),
# CPP: tlc::cpu::namedBarrierSync(st, {{.*}}, [[NB]], 11, 64,
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/cpu %s > /dev/null
# RUN: tlc-run %t/cpu --kernel handshake --seed 3 --save %t/h > /dev/null
# RUN: tlc-run %t/cpu --kernel ring --seed 4 --save %t/r > /dev/null
# RUN: %python %S/Inputs/named_barrier_arrive_check.py %t/h %t/r | FileCheck %s
# CHECK: handshake OK
# CHECK: ring OK
# RUN: not tlc-run %t/cpu --kernel short_count 2>&1 | FileCheck %s --check-prefix=DEADLOCK
# DEADLOCK: named-barrier-arrive.py:[[# @LINE + 64]]:17: error: deadlock: a named barrier (T.sync_threads with an id) waits for an arrival that none of the block's threads can make any more
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[1])
def handshake():

    @T.prim_func
    def main(inp: T.Tensor((1,), T.int32), out: T.Tensor((1,), T.int32)):
        with T.Kernel(1, threads=64):
            tx = T.get_thread_binding()
            slot = T.alloc_shared((1,), T.int32)
            if tx < 32:
                if tx == 0:
                    slot[0] = inp[0] + 1
                T.named_barrier_arrive(10, 64)
                T.sync_threads(11, 64)
            else:
                T.sync_threads(10, 64)
                if tx == 32:
                    out[0] = slot[0]
                T.named_barrier_arrive(11, 64)

    return main


@tilelang.jit(out_idx=[1])
def ring(rounds=8):

    @T.prim_func
    def main(A: T.Tensor((rounds,), T.float32), B: T.Tensor((rounds,), T.float32)):
        with T.Kernel(1, threads=64):
            tx = T.get_thread_binding()
            slot = T.alloc_shared((1,), T.float32)
            if tx < 32:
                for r in T.serial(rounds):
                    if tx == 0:
                        slot[0] = A[r] * 2.0
                    # full: the slot holds round r
                    T.named_barrier_arrive(1, 64)
                    # empty: the consumer has read it
                    T.sync_threads(2, 64)
            else:
                for r in T.serial(rounds):
                    T.sync_threads(1, 64)
                    if tx == 32:
                        B[r] = slot[0] + r
                    T.named_barrier_arrive(2, 64)

    return main


@tilelang.jit(out_idx=[1])
def short_count():

    @T.prim_func
    def main(inp: T.Tensor((1,), T.int32), out: T.Tensor((1,), T.int32)):
        with T.Kernel(1, threads=64):
            tx = T.get_thread_binding()
            if tx < 32:
                T.named_barrier_arrive(5, 96)
            else:
                # 64 threads ever reach barrier 5: a GPU would hang here.
                T.sync_threads(5, 96)
                out[0] = inp[0]

    return main


handshake()
ring()
short_count()
