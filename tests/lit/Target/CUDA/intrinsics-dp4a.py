# RUN: tlc-build --check %s
# RUN: tlc-build --emit=cuda --target=cuda:sm_90a %s | FileCheck %s
# RUN: tlc-build --emit=cpp --target=cpu %s | FileCheck %s --check-prefix=CPP
# T.dp4a (four int8 products accumulated into an int32) from per-thread
# local buffers and straight from a global tensor, as CUDA's __dp4a on
# little-endian packed bytes and as the CPU target's widened sum.
# tests/sim/intrinsics.py runs it on the sim device and on the CPU target
# against NumPy.
import tilelang
import tilelang.language as T


@tilelang.jit
def dp4a_gemv(A, B, K=64, threads=64):
    M = T.const("M")
    A: T.Tensor((M, K), T.int8)
    B: T.Tensor((K,), T.int8)
    C = T.empty((2, M), T.int32)
    with T.Kernel(T.ceildiv(M, threads), threads=threads) as bx:
        tx = T.get_thread_binding()
        row = bx * threads + tx
        a_local = T.alloc_local((K,), T.int8)
        b_local = T.alloc_local((K,), T.int8)
        acc = T.alloc_local((2,), T.int32)
        for k in T.serial(K):
            a_local[k] = A[row, k]
            b_local[k] = B[k]
        acc[0] = 0
        acc[1] = 7
        for k in T.serial(K // 4):
            # CHECK: [[ACC:acc[a-z0-9_]*]][0] = __dp4a((int)({{.*}}a_local{{.*}} << 24{{.*}}), (int)({{.*}}b_local{{.*}}), (int)([[ACC]][0]));
            # CPP: // T.dp4a
            T.dp4a(a_local[k * 4], b_local[k * 4], acc[0])
            # A row of the global tensor, guarded where the last block is short.
            # CHECK: __dp4a(
            T.dp4a(A[row, k * 4], b_local[k * 4], acc[1])
        C[0, row] = acc[0]
        C[1, row] = acc[1]
    return C


# M = 100: the second block is short (rows 100..127 guarded).
kernel = dp4a_gemv.compile(M=100)
