# A prim_func that launches its threads in raw TIR (T.launch_thread outside
# a T.Kernel) is a GPU launch, not host code: a GPU build reports that it
# cannot build it (an error, unlike a function with no launch at all:
# no-kernel-gpu.py); --check accepts the program.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: not tlc-build --emit=cuda --target=cuda:sm_90a --no-source-lines %s 2>&1 | FileCheck %s
# RUN: not tlc-build --emit=hip --target=hip:gfx942 --no-source-lines %s 2>&1 | FileCheck %s

import tilelang.language as T


@T.prim_func
def negate(A: T.Tensor((1024,), T.float32), B: T.Tensor((1024,), T.float32)):
    bx = T.launch_thread("blockIdx.x", 8)
    tx = T.launch_thread("threadIdx.x", 128)
    B[bx * 128 + tx] = -A[bx * 128 + tx]


# CHECK: raw-launch-gpu.py:13:5: error: 'negate' launches its threads in raw TIR (T.launch_thread / T.thread_binding outside a T.Kernel), which this target does not build yet
