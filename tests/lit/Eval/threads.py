# RUN: tlc-build --verify-diagnostics %s
# RUN: not tlc-build --check --no-source-lines --target=hip:gfx90a %s 2>&1 | FileCheck %s --check-prefix=HIP
# Thread counts must be positive and at most 1024; any count is valid
# otherwise, as in TileLang (the last warp of a block may be partial).
import tilelang
import tilelang.language as T


@tilelang.jit
def launches(N=4096):
    A: T.Tensor((N,), T.float32)
    with T.Kernel(8, threads=128) as bx:
        T.fill(A[bx * 128:(bx + 1) * 128], 0)
    with T.Kernel(8, threads=100) as bx:
        T.fill(A[bx * 100:(bx + 1) * 100], 0)
    # expected-error@+2 {{thread count 2048 exceeds the maximum of 1024 threads per block}}
    # HIP: [[@LINE+1]]:10: error: thread count 2048 exceeds the maximum of 1024 threads per block
    with T.Kernel(8, threads=[64, 32]) as bx:
        T.fill(A[bx * 128:(bx + 1) * 128], 0)
    # HIP-NOT: thread count 96
    with T.Kernel(8, threads=96) as bx:
        T.fill(A[bx * 96:(bx + 1) * 96], 0)
