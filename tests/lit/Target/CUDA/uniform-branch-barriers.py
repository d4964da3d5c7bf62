# RUN: tlc-build --check %s
# RUN: tlc-build --emit=tile --mlir-print-debuginfo %s > %t.mlir
# RUN: tlc-translate --tile-to-cuda %t.mlir | FileCheck %s
# A branch on a block-uniform condition (a block-sparse mask read at the
# block indices) is taken by every thread together, so the copies into
# shared memory and the gemm that reads them inside it need a barrier of
# their own; the loop's barrier at the top of the iteration is not enough.
# A branch on the thread index holds no barrier (it would hang), not even
# in a loop inside it.
import tilelang
import tilelang.language as T


@tilelang.jit
def masked(M=256, N=256, K=256, bm=64, bn=64, bk=32):
    A: T.Tensor((M, K), T.float16)
    B: T.Tensor((K, N), T.float16)
    Mask: T.Tensor((M // bm, N // bn, K // bk), T.bool)
    C: T.Tensor((M, N), T.float32)
    with T.Kernel(N // bn, M // bm, threads=128) as (bx, by):
        As = T.alloc_shared((bm, bk), T.float16)
        Bs = T.alloc_shared((bk, bn), T.float16)
        Cl = T.alloc_fragment((bm, bn), T.float32)
        T.clear(Cl)
        # CHECK-LABEL: void {{.*}}masked_kernel(
        # CHECK: for (int k = 0; k < 8; ++k) {
        # CHECK-NEXT: __syncthreads();  // the previous iteration's reads are done
        for k in T.Pipelined(K // bk, num_stages=1):
            # CHECK: if (
            if Mask[by, bx, k]:
                # CHECK: // T.copy
                T.copy(A[by * bm, k * bk], As)
                # CHECK: // T.copy
                T.copy(B[k * bk, bx * bn], Bs)
                # CHECK: __syncthreads();  // shared-memory dependence
                # CHECK-NEXT: // T.gemm
                T.gemm(As, Bs, Cl)
        T.copy(Cl, C[by * bm, bx * bn])


@tilelang.jit
def per_thread(N=128):
    X: T.Tensor((N,), T.float32)
    Y: T.Tensor((N,), T.float32)
    with T.Kernel(1, threads=128) as bx:
        S = T.alloc_shared((N,), T.float32)
        tx = T.get_thread_binding()
        # CHECK-LABEL: void {{.*}}per_thread_kernel(
        # CHECK: if (
        # CHECK-NOT: __syncthreads
        # CHECK: Y[
        if tx < 32:
            for i in range(4):
                S[tx * 4 + i] = X[tx * 4 + i]
                Y[tx * 4 + i] = S[tx * 4 + i] * 2.0
