# T.serial(..., unroll_factor=n), as TileLang's CUDA dialect takes it
# (upstream test_tilelang_language_unroll.py expects `#pragma unroll 1`):
# the tile.for's unroll_factor, as T.unroll's. The target-neutral module
# does not declare the keyword (TypeError, as T.unroll's), and the factor
# is a non-negative integer constant.
# RUN: tlc-build --emit=tile %s 2>&1 | FileCheck %s
# RUN: tlc-build --verify-diagnostics %S/Inputs/serial-unroll-factor-errors.py
# CHECK-LABEL: tile.func @main
# CHECK: tile.for {{.*}}unroll_factor = 1
# CHECK: tile.for {{.*}}unroll_factor = 4
# CHECK-NOT: warning
# CHECK-NOT: error
import tilelang.language as T


@T.prim_func
def main(A: T.Tensor((16,), T.float32), B: T.Tensor((16,), T.float32)):
    with T.Kernel(1, threads=128):
        for i in T.serial(0, 16, unroll_factor=1):
            A[i] = T.Cast(T.float32, i)
        for i in T.Serial(16, unroll_factor=4):
            B[i] = A[i] * 2.0
