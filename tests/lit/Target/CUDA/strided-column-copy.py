# RUN: tlc-build --check %s
# RUN: tlc-build --emit=tile --mlir-print-debuginfo %s > %t.mlir
# RUN: tlc-translate --tile-to-cuda %t.mlir | FileCheck %s
# A copy of a column `G[b, s0:s1, h]` (the innermost dimension of G is a
# unit dimension of the copy) is strided in global memory: no 16-byte
# vectors along it (they read G[b, s, h:h+4] instead; a chunked cumsum
# measured on the H200 left 196,608 outputs unwritten that way). Rows of
# the same tensor still go in vectors.
import tilelang
import tilelang.language as T


@tilelang.jit
def column(B=2, S=256, H=32, bs=64):
    G: T.Tensor((B, S, H), T.float32)
    O: T.Tensor((B, S, H), T.float32)
    with T.Kernel(S // bs, B * H, threads=128) as (bx, bbh):
        b, h = bbh // H, bbh % H
        Gs = T.alloc_shared((1, bs), T.float32)
        # CHECK-LABEL: void {{.*}}column_kernel(
        # CHECK: // T.copy
        # CHECK-NOT: copyVector
        # CHECK: = G[{{.*}} * 32 + {{[a-z0-9_]+}}];
        # CHECK-NOT: copyVector
        # CHECK: // T.cumsum
        T.copy(G[b, bx * bs:(bx + 1) * bs, h], Gs)
        T.cumsum(Gs, dim=1)
        # CHECK-NOT: copyVector
        # CHECK: O[{{.*}} * 32 + {{[a-z0-9_]+}}] = Gs[
        T.copy(Gs, O[b, bx * bs:(bx + 1) * bs, h])


@tilelang.jit
def row(S=256, H=64):
    G: T.Tensor((S, H), T.float32)
    O: T.Tensor((S, H), T.float32)
    with T.Kernel(S, threads=128) as bx:
        Gs = T.alloc_shared((H,), T.float32)
        # CHECK-LABEL: void {{.*}}row_kernel(
        # CHECK: copyVector<16>
        T.copy(G[bx, :], Gs)
        T.copy(Gs, O[bx, :])
