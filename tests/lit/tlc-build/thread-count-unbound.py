# A T.Kernel's thread count computed from factory parameters: folded when
# they are bound (a call site or -D), so the GPU targets build it; a
# default instance whose count no call site binds is not built for a GPU
# target (a warning naming the parameter; an error when asked for with
# --kernel), while the CPU target builds it and takes the count at run
# time. A count from a T.dynamic size is an error for a GPU target that
# names it. corpus-tests issue_2963's _copy_kernel(dtype, n, threads) was an
# error ("needs a static thread count") that failed the whole build.
# RUN: rm -rf %t
# RUN: tlc-build --target=cuda:sm_90a --cuda-compiler=none -o %t/cuda %s 2>&1 | FileCheck %s
# RUN: ls %t/cuda | FileCheck %s --check-prefix=BUILT
# RUN: not tlc-build --target=cuda:sm_80 --emit=cuda --kernel=copy_rows %s 2>&1 | FileCheck %s --check-prefix=ASKED
# RUN: tlc-build --emit=cuda --kernel=copy_rows -D threads_per_row=32 -D n=256 %s | FileCheck %s --check-prefix=BOUND
# RUN: tlc-build --target=cpu -o %t/cpu %s 2>&1 | FileCheck %s --check-prefix=CPU
# RUN: not tlc-build --target=cuda:sm_90a --emit=cuda %S/Inputs/thread-count-dynamic.py 2>&1 | FileCheck %s --check-prefix=DYN
# RUN: tlc-build --target=cpu --emit=cpp %S/Inputs/thread-count-dynamic.py > /dev/null

# CHECK: thread-count-unbound.py:[[@LINE+19]]:9: warning: 'copy_rows' is not built: its thread count depends on the parameter threads_per_row, which no call site binds (bind them with -D name=value or call the factory)
# CHECK-NOT: error:
# CHECK: wrote {{.*}}/scaled.cu (no binary)
# BUILT-NOT: copy_rows
# BUILT: scaled.cu
# BUILT-NOT: copy_rows
# ASKED: error: 'copy_rows' is not built: its thread count depends on the parameter threads_per_row
# BOUND: __global__ void __launch_bounds__(128) copy_rows_kernel(
# DYN: thread-count-dynamic.py:11:10: error: the CUDA target needs a static thread count: this one is computed from n, known only when the kernel runs
# CPU-NOT: warning
# CPU-DAG: wrote {{.*}}/copy_rows.so
# CPU-DAG: wrote {{.*}}/scaled.so

import tilelang
import tilelang.language as T


def copy_rows(n, threads_per_row):
    @T.prim_func
    def kernel(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=threads_per_row * 4) as bx:
            for i in T.Parallel(n):
                B[i] = A[i]

    return kernel


@tilelang.jit
def scaled(n, warps):
    A: T.Tensor((n,), "float32")
    B = T.empty((n,), "float32")
    with T.Kernel(1, threads=warps * 32) as bx:
        for i in T.Parallel(n):
            B[i] = A[i] * 2.0
    return B


scaled(256, 4)
