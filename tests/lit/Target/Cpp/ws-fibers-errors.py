# RUN: not tlc-build --target=cpu --emit=cpp %s 2>&1 | FileCheck %s
# What the CPU target refuses in a kernel whose thread-index branches wait
# on mbarriers (and so run as fibers): a `break` from inside such a branch
# out of a loop around it (a fiber cannot leave its caller's loop).
import tilelang
import tilelang.language as T


@tilelang.jit
def leave_fiber(X, N=64):
    X: T.Tensor((N,), T.float32)
    Y = T.empty((N,), T.float32)
    with T.Kernel(1, threads=64) as bx:
        bar = T.alloc_barrier(arrive_count=32)
        tx = T.get_thread_binding()
        for r in T.serial(2):
            if tx < 32:
                T.barrier_arrive(bar)
            else:
                T.barrier_wait(bar, r % 2)
                Y[tx] = X[tx]
                if r == 0:
                    # CHECK: ws-fibers-errors.py:[[@LINE+1]]:{{[0-9]+}}: error: T.loop_break: leaves a loop around a branch with mbarrier waits, which the CPU target runs as a fiber
                    T.loop_break()
    return Y
