# RUN: tlc-build --verify-diagnostics %s
# Primitives that tlc recognises but does not implement are diagnosed at
# their call, and the rest of the kernel is still analysed.
import tilelang
import tilelang.language as T


@tilelang.jit
def hopper(N=128):
    A: T.Tensor((N, N), T.float16)
    with T.Kernel(1, threads=256) as bx:
        S = T.alloc_shared((N, N), T.float16)
        bar = T.alloc_barrier(arrive_count=128)
        # expected-error@+1 {{'T.tma_copy' is not supported by tlc}}
        T.tma_copy(A, S, barrier=bar[0])
        # expected-error@+1 {{T.copy between regions of different shapes}}
        T.copy(A[0:64, :], S)
