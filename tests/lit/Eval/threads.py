# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --check --no-source-lines --target=hip:gfx90a %s 2>&1 | FileCheck %s --check-prefix=HIP
# Thread counts must be a multiple of the warp (wavefront) size and at most
# 1024.
import tilelang
import tilelang.language as T


@tilelang.jit
def launches(N=4096):
    A: T.Tensor((N,), T.float32)
    with T.Kernel(8, threads=128) as bx:
        T.fill(A[bx * 128:(bx + 1) * 128], 0)
    # expected-error@+2 {{thread count 100 is not a multiple of the warp size (32) of cuda:sm_90a}}
    # HIP: [[@LINE+1]]:10: error: thread count 100 is not a multiple of the wavefront size (64) of hip:gfx90a
    with T.Kernel(8, threads=100) as bx:
        T.fill(A[bx * 100:(bx + 1) * 100], 0)
    # expected-error@+1 {{thread count 2048 exceeds the maximum of 1024 threads per block}}
    with T.Kernel(8, threads=[64, 32]) as bx:
        T.fill(A[bx * 128:(bx + 1) * 128], 0)
    # HIP: [[@LINE+1]]:10: error: thread count 96 is not a multiple of the wavefront size (64) of hip:gfx90a
    with T.Kernel(8, threads=96) as bx:
        T.fill(A[bx * 96:(bx + 1) * 96], 0)
