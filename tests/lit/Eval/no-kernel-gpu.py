# A prim_func with no T.Kernel launches nothing on a GPU, so a GPU build of
# the file passes over it with a warning (the other kernels still build);
# naming it with --kernel is an error. The CPU target runs such host code.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a --no-source-lines %s 2>&1 >%t.cu | FileCheck %s --check-prefix=GPU --implicit-check-not=error:
# RUN: FileCheck %s --check-prefix=SRC < %t.cu
# RUN: not tlc-build --emit=cuda --target=cuda:sm_90a --kernel=host_only --no-source-lines %s 2>&1 | FileCheck %s --check-prefix=NAMED
# RUN: tlc-build --emit=cpp --target=cpu %s | FileCheck %s --check-prefix=CPU

import tilelang.language as T


@T.prim_func
def host_only(A: T.Tensor[(1,), T.int32], B: T.Tensor[(1,), T.int32]):
    x = A[0]
    x -= 1
    B[0] = x


@T.prim_func
def device(A: T.Tensor[(128,), T.int32], B: T.Tensor[(128,), T.int32]):
    with T.Kernel(1, threads=128):
        for i in T.Parallel(128):
            B[i] = A[i] - 1


# GPU: no-kernel-gpu.py:14:5: warning: 'host_only' is not built: it has no T.Kernel, so it launches nothing on the GPU
# SRC: __global__
# SRC-SAME: device_kernel
# NAMED: error: 'host_only' is not built: it has no T.Kernel
# CPU: host_only
