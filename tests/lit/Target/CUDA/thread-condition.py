# RUN: tlc-build --check %s
# RUN: tlc-build --emit=tile --mlir-print-debuginfo %s > %t.mlir
# RUN: not tlc-translate --tile-to-cuda %t.mlir 2>&1 | FileCheck %s
# A tile operation under a condition on the thread index is partitioned
# over the threads of the condition's range (ws-*.py beside this). A
# fragment is laid out for the threads of one range, so a gemm of the first
# warp group into a fragment that the whole block then stores is refused,
# naming both operations, instead of generating code in which the other
# threads store registers they never computed (measured on the H200 before
# ranges were partitioned: half of C was wrong).
import tilelang
import tilelang.language as T


@tilelang.jit
def half(M=256, N=256, K=256, bm=128, bn=128, bk=32):
    A: T.Tensor((M, K), T.float16)
    B: T.Tensor((K, N), T.float16)
    C: T.Tensor((M, N), T.float32)
    with T.Kernel(N // bn, M // bm, threads=256) as (bx, by):
        As = T.alloc_shared((bm, bk), T.float16)
        Bs = T.alloc_shared((bk, bn), T.float16)
        Cl = T.alloc_fragment((bm, bn), T.float32)
        acc = T.alloc_local((4,), T.float32)
        tx = T.get_thread_binding()
        T.clear(Cl)
        for k in T.Pipelined(K // bk, num_stages=2):
            T.copy(A[by * bm, k * bk], As)
            T.copy(B[k * bk, bx * bn], Bs)
            if tx < 128:
                T.gemm(As, Bs, Cl)
                T.clear(acc)
        # CHECK: thread-condition.py:[[@LINE+3]]:{{[0-9]+}}: error: this tile operation runs on threads [0, 256) and another that uses the same fragment on threads [0, 128)
        # CHECK: thread-condition.py:[[@LINE-3]]:{{[0-9]+}}: note: the other operation
        # CHECK-NOT: error
        T.copy(Cl, C[by * bm, bx * bn])
