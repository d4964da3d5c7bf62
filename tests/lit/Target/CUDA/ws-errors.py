# RUN: tlc-build --check %s
# RUN: not tlc-build --emit=cuda --target=cuda:sm_90a %s 2>&1 | FileCheck %s
# RUN: not tlc-build --emit=cuda --target=cuda:sm_80 --kernel=mbarrier_sm80 %s 2>&1 | FileCheck %s --check-prefix=SM80
# What the CUDA target still refuses under conditions on the thread index,
# each with a diagnostic at the operation and a note at the condition. Every
# kernel is a valid program (--check is clean); only building refuses.
import tilelang
import tilelang.language as T


@tilelang.jit
def not_warp_aligned(A: T.Tensor((128,), T.float32), B: T.Tensor((128,), T.float32)):
    with T.Kernel(1, threads=128):
        tx = T.get_thread_binding()
        if tx < 100:
            # CHECK: ws-errors.py:[[@LINE+2]]:{{[0-9]+}}: error: this tile operation runs on threads [0, 100), which is not a whole number of warps
            # CHECK: ws-errors.py:[[@LINE-2]]:{{[0-9]+}}: note: the condition
            T.copy(A, B)


@tilelang.jit
def not_a_range(A: T.Tensor((128,), T.float32), B: T.Tensor((128,), T.float32)):
    with T.Kernel(1, threads=128):
        tx = T.get_thread_binding()
        if tx % 64 < 32:
            # CHECK: ws-errors.py:[[@LINE+2]]:{{[0-9]+}}: error: a tile operation under a condition on the thread index that does not select a range of threads
            # CHECK: ws-errors.py:[[@LINE-2]]:{{[0-9]+}}: note: the condition
            T.copy(A, B)


@tilelang.jit
def two_ranges(A: T.Tensor((64, 64), T.float32), B: T.Tensor((64, 64), T.float32)):
    with T.Kernel(1, threads=256):
        f = T.alloc_fragment((64, 64), T.float32)
        with T.ws(0):
            T.copy(A, f)
        with T.ws(1):
            # CHECK: ws-errors.py:[[@LINE+2]]:{{[0-9]+}}: error: this tile operation runs on threads [128, 256) and another that uses the same fragment on threads [0, 128)
            # CHECK: ws-errors.py:[[@LINE-3]]:{{[0-9]+}}: note: the other operation
            T.copy(f, B)


@tilelang.jit
def mbarrier_sm80(A: T.Tensor((128,), T.float32), B: T.Tensor((128,), T.float32)):
    # mbarriers build for sm_80 (mbarrier-sm80.py); transaction bytes need sm_90.
    with T.Kernel(1, threads=256):
        bar = T.alloc_barrier(arrive_count=128)
        with T.ws(0):
            T.copy(A, B)
            # SM80: ws-errors.py:[[@LINE+1]]:{{[0-9]+}}: error: T.mbarrier_arrive_expect_tx: raises an mbarrier's expected transaction bytes (expect_tx), which needs sm_90
            T.mbarrier_arrive_expect_tx(bar, 0)
        with T.ws(1):
            T.barrier_wait(bar, 0)
