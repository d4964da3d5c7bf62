# RUN: tlc-build --emit=tile --mlir-print-debuginfo %s > %t.mlir
# RUN: tlc-translate --tile-to-cuda %t.mlir | FileCheck %s
# A T.Parallel over the first rows of a fragment (extents below the
# fragment's, the fragment indexed at exactly the loop variables) is
# partitioned by the fragment's layout: each element of the box is visited
# by the thread(s) holding it, the slots past the box are skipped.
#
# 64 x 64 f32 accumulator of mma.sync over 2 x 2 warps: a thread holds rows
# (tid >> 2) % 8 + 32 * ((tid >> 5) % 2) + 8 * k; `rows` is its row vector
# (4 registers, replicated over the lanes of a row).
# CHECK: // T.Parallel  parallel-partial-rows.py:[[#@LINE+45]]:
# CHECK-NEXT: {
# CHECK-NEXT: {
# CHECK-NEXT: #pragma unroll
# CHECK-NEXT: for (int [[R:r_[0-9]+]] = 0; [[R]] < 4; ++[[R]]) {
# CHECK-NEXT: const int [[I:i0_[0-9]+]] = ((tid >> 2) & 7) + ((tid >> 5) & 1) * 32 + [[R]] * 8;
# CHECK-NEXT: if ([[I]] < 5) {
# CHECK: const float [[X:x(_[0-9]+)?]] = rows[[[R]]];
# CHECK-NEXT: RowSum[{{.*}}] = [[X]];
# CHECK-NEXT: }
# CHECK-NEXT: }
# The 2-D box (5 of 64 rows, all 64 columns): only the row bound is tested;
# the row vector is read at the register holding the loop's row.
# CHECK: // T.Parallel  parallel-partial-rows.py:[[#@LINE+34]]:
# CHECK: for (int [[R:r_[0-9]+]] = 0; [[R]] < 32; ++[[R]]) {
# CHECK-NEXT: const int [[I:i0_[0-9]+]] = ((tid >> 2) & 7) + ((tid >> 5) & 1) * 32 + (([[R]] >> 1) & 1) * 8 + (([[R]] >> 4) & 1) * 16;
# CHECK-NEXT: const int [[J:i1_[0-9]+]] = (tid & 3) * 2 + ((tid >> 6) & 1) * 32 + ([[R]] & 1) + (([[R]] >> 2) & 3) * 8;
# CHECK-NEXT: if ([[I]] < 5) {
# CHECK-NEXT: const float {{.*}} = acc[[[R]]];
# CHECK-NEXT: const float {{.*}} = rows[(([[R]] >> 1) & 1) + (([[R]] >> 4) & 1) * 2];
# CHECK: C[({{.*}}) * 64 + [[J]]] =
import tilelang
import tilelang.language as T


@tilelang.jit
def partial_rows(M=256, N=64, K=64, valid=5, block_M=64, block_N=64, block_K=32):
    @T.prim_func
    def main(
        A: T.Tensor((M, K), T.float16),
        B: T.Tensor((K, N), T.float16),
        RowSum: T.Tensor((M,), T.float32),
        C: T.Tensor((M, N), T.float32),
    ):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as (bx):
            A_shared = T.alloc_shared((block_M, block_K), T.float16)
            B_shared = T.alloc_shared((block_K, block_N), T.float16)
            acc = T.alloc_fragment((block_M, block_N), T.float32)
            rows = T.alloc_fragment((block_M,), T.float32)
            T.clear(acc)
            for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=1):
                T.copy(A[bx * block_M, ko * block_K], A_shared)
                T.copy(B[ko * block_K, 0], B_shared)
                T.gemm(A_shared, B_shared, acc)
            T.reduce_sum(acc, rows, dim=1)
            for i in T.Parallel(valid):
                RowSum[bx * valid + i] = rows[i]
            for i, j in T.Parallel(valid, block_N):
                C[bx * valid + i, j] = acc[i, j] + rows[i]

    return main
