# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# RUN: tlc-build --emit=tile %s | tlc-opt | FileCheck %s --check-prefix=ROUND
# RUN: not tlc-build --check %S/Inputs/strided-tensor-bad-strides.py 2>&1 \
# RUN:   | FileCheck %s --check-prefix=BAD
# The strides of a T.StridedTensor (and of T.Buffer(strides=...)) reach the
# Tile IR as the parameter's `tile.strides` (constant or symbolic, one per
# dimension) when they are not the dense row-major ones; tlc used to drop
# them. The targets address parameters with them
# (tests/lit/Target/CUDA/strided-params.py).
import tilelang
import tilelang.language as T

M = 64
N = 32


# CHECK-LABEL: tile.func @views(
# CHECK-SAME: %A: !tile.buffer<[64, 32], f32, global> {tile.strides = [1, 64]}
# CHECK-SAME: %P: !tile.buffer<[64, 32], f32, global> {tile.strides = [40, 1]}
# CHECK-SAME: %D: !tile.buffer<[64, 32], f32, global>,
# CHECK-SAME: %Q: !tile.buffer<[64, 32], f32, global> {tile.strides = [1, 64]}
# CHECK-SAME: %B: !tile.buffer<[64, 32], f32, global>)
# ROUND: tile.func @views(%arg0: !tile.buffer<[64, 32], f32, global> {tile.strides = [1, 64]}
@T.prim_func
def views(A: T.StridedTensor[(M, N), (1, M), T.float32],
          P: T.StridedTensor[(M, N), (N + 8, 1), T.float32],
          D: T.StridedTensor((M, N), (N, 1), T.float32),
          Q: T.Buffer((M, N), T.float32, strides=(1, M)),
          B: T.Tensor((M, N), T.float32)):
    with T.Kernel(M, threads=N) as bx:
        tx = T.get_thread_binding()
        B[bx, tx] = A[bx, tx] + P[bx, tx] + D[bx, tx] + Q[bx, tx]


# A T.dynamic row stride stays symbolic; a dynamic stride equal to the
# dense one needs none.
# CHECK-LABEL: tile.func @rows_kernel(
# CHECK-SAME: %X: !tile.buffer<[rows, 256], f16, global> {tile.strides = ["row_stride", 1]}
# CHECK-SAME: %Y: !tile.buffer<[rows, 256, 2], f16, global>,
# CHECK-SAME: %Z: !tile.buffer<[rows, 256], f16, global>)
@tilelang.jit
def rows_kernel(hidden):
    rows = T.dynamic("rows")
    row_stride = T.dynamic("row_stride")

    @T.prim_func
    def rows(X: T.StridedTensor[(rows, hidden), (row_stride, 1), T.float16],
             Y: T.StridedTensor[(rows, hidden, 2), (hidden * 2, 2, 1),
                                T.float16],
             Z: T.Tensor((rows, hidden), T.float16)):
        with T.Kernel(rows, threads=128) as bx:
            for i in T.Parallel(hidden):
                Z[bx, i] = X[bx, i] + Y[bx, i, 0]
    return rows


k = rows_kernel(256)

# BAD: strided-tensor-bad-strides.py:7:13: error: 1 strides for a shape of rank 2; give one stride per dimension
# BAD: strided-tensor-bad-strides.py:13:43: error: negative stride -32
# BAD: strided-tensor-bad-strides.py:19:41: error: strides must be integers or symbols, not 'float'
