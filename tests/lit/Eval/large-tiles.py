# RUN: tlc-build --verify-diagnostics %s
# Bounded analysis: a loop or a fragment far larger than any tile a block
# holds is answered at once (layout inference does not enumerate it); a
# fragment that large is an error that says how many registers it needs.
import tilelang
import tilelang.language as T


@tilelang.jit
def huge_loop(N=10**12):
    A: T.Tensor((N,), T.float32)
    with T.Kernel(1, threads=128) as bx:
        for i in T.Parallel(N):
            A[i] = 0.0


@tilelang.jit
def huge_fragment(M=10000, N=10000):
    A: T.Tensor((M, N), T.float32)
    with T.Kernel(1, threads=128) as bx:
        # expected-error@+1 {{fragment 'F' of 100000000 elements needs 781250 registers per thread over 128 threads; the limit is 255}}
        F = T.alloc_fragment((M, N), T.float32)
        T.copy(A, F)
        for i, j in T.Parallel(M, N):
            F[i, j] = F[i, j] * 2.0
        T.copy(F, A)
