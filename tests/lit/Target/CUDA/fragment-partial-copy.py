# A T.copy of part of a fragment (`acc_o[:valid, :]`, `logsum[:valid]`, as
# split-KV decoding kernels store the valid heads of a padded block): every
# thread visits its registers and skips those outside the part; memory is
# indexed relative to the part. Windows that start inside a vector go
# element by element. The CPU target against NumPy at ragged sizes; the
# CUDA target against the CPU target on sim (tests/sim/run_sim.py
# --breadth).
#
# RUN: rm -rf %t && tlc-build --target=cpu -o %t/art %s
# RUN: tlc-run %t/art --save %t/out
# RUN: %python %S/Inputs/fragment_partial_copy_check.py %t/out | FileCheck %s
# RUN: tlc-build --target=cuda:sm_90a --emit=cuda %s | FileCheck %s --check-prefix=CUDA
# CHECK: True True
# CHECK-NEXT: True True
#
# CUDA-LABEL: valid_rows_kernel(
# CUDA: // T.copy  fragment-partial-copy.py:[[# @LINE + 30]]:{{[0-9]+}}
# CUDA: if ([[ROW:i0_[0-9]+]] >= 10) continue;  // outside the copied part
# CUDA: tlc::cuda::copyVector<8>
# CUDA: // T.copy  fragment-partial-copy.py:[[# @LINE + 29]]:{{[0-9]+}}
# CUDA: if ([[R:i0_[0-9]+]] >= 10) continue;  // outside the copied part
# CUDA-LABEL: offset_window_kernel(
# CUDA: if ([[ROW2:i0_[0-9]+]] < 2 || [[ROW2]] >= 12 || ([[COL:i1_[0-9]+]] + [[E:e_[0-9]+]]) < 3 || ([[COL]] + [[E]]) >= 59) continue;  // outside the copied part
# CUDA: b_shared{{.*}}([[ROW2]] - 2){{.*}}(([[COL]] - 3) + [[E]])
# CUDA: if ([[R2:i0_[0-9]+]] < 2 || [[R2]] >= 12) continue;  // outside the copied part
# CUDA: R[{{.*}}([[R2]] - 2)

import tilelang
import tilelang.language as T


@tilelang.jit
def valid_rows(M, N, block_M=16, valid=10, threads=128):
    dtype = "float32"

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), "float16"),
             S: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, valid), threads=threads) as bx:
            a = T.alloc_fragment((block_M, N), dtype)
            s = T.alloc_fragment((block_M,), dtype)
            b_shared = T.alloc_shared((valid, N), "float16")
            T.copy(A[bx * valid, 0], a)
            for i, j in T.Parallel(block_M, N):
                a[i, j] = a[i, j] * 2 + i
            T.reduce_sum(a, s, dim=1)
            T.copy(a[:valid, :], b_shared)
            T.copy(b_shared, B[bx * valid, 0])
            T.copy(s[:valid], S[bx * valid:(bx + 1) * valid])

    return main


@tilelang.jit
def offset_window(M, N, block_M=16, threads=128):
    dtype = "float32"

    @T.prim_func
    def main(A2: T.Tensor((M, N), dtype), C: T.Tensor((M, 56), dtype),
             R: T.Tensor((M,), dtype)):
        with T.Kernel(T.ceildiv(M, 10), threads=threads) as bx:
            a = T.alloc_fragment((block_M, N), dtype)
            s = T.alloc_fragment((block_M,), dtype)
            b_shared = T.alloc_shared((10, 56), dtype)
            T.copy(A2[bx * 10, 0], a)
            for i, j in T.Parallel(block_M, N):
                a[i, j] = a[i, j] * 3
            T.reduce_sum(a, s, dim=1)
            T.copy(a[2:12, 3:59], b_shared)
            T.copy(b_shared, C[bx * 10, 0])
            for i in T.Parallel(block_M):
                s[i] = s[i] / 3
            T.copy(s[2:12], R[bx * 10:(bx + 1) * 10])

    return main


valid_rows(73, 64)
offset_window(73, 64)
