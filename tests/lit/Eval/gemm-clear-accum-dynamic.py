# RUN: tlc-build --check %s
# RUN: tlc-build --emit=tile %s | FileCheck %s
# clear_accum given as a run-time condition (the first K step) clears C
# under that condition before the gemm accumulates; it was dropped (a
# flag that is not a constant read as False), so C kept the previous
# tile's sums.
import tilelang
import tilelang.language as T


@tilelang.jit
def first_step_clears(M=64, N=64, K=128, bk=32):
    A: T.Tensor((M, K), T.float16)
    B: T.Tensor((K, N), T.float16)
    C: T.Tensor((M, N), T.float32)
    with T.Kernel(1, threads=128) as bx:
        As = T.alloc_shared((M, bk), T.float16)
        Bs = T.alloc_shared((bk, N), T.float16)
        Cl = T.alloc_fragment((M, N), T.float32)
        for k in T.Pipelined(K // bk, num_stages=1):
            T.copy(A[0, k * bk], As)
            T.copy(B[k * bk, 0], Bs)
            T.gemm(As, Bs, Cl, clear_accum=k == 0)
        T.copy(Cl, C)

# CHECK-LABEL: tile.func @first_step_clears
# CHECK: tile.pipelined
# CHECK: [[C:%[0-9]+]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
# CHECK-NEXT: tile.if [[C]] {
# CHECK-NEXT: tile.clear [[F:%[a-z_0-9]+]] :
# CHECK-NEXT: }
# CHECK-NEXT: tile.gemm %{{.*}}, %{{.*}}, [[F]] :
# CHECK-NOT: clear_accum
