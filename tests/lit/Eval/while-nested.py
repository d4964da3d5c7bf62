# A `while` inside a `while` body (a scalar loop computing a bias inside a
# loop over tiles): each loop's test stays in its own condition region.
# RUN: tlc-build --check %s 2>&1 | count 0
# RUN: tlc-build --emit=tile %s | FileCheck %s
# CHECK: tile.while {
# CHECK: arith.cmpi slt, %{{.*}}, %c7_i32
# CHECK-NEXT: tile.condition
# CHECK-NEXT: } do {
# CHECK: tile.while {
# CHECK: arith.cmpi slt, %{{.*}}, %c3_i32
# CHECK-NEXT: tile.condition
# CHECK-NEXT: } do {
import tilelang
import tilelang.language as T


@T.prim_func
def biased(A: T.Tensor((64,), T.float32), C: T.Tensor((64,), T.float32)):
    with T.Kernel(8, threads=32) as bx:
        i = T.alloc_var(T.int32)
        i = 0
        while i < 7:
            bias = T.alloc_var(T.float32)
            bias = 0.0
            s = T.alloc_var(T.int32)
            s = 0
            while s < 3:
                bias = bias + 1.0
                s = s + 1
            C[bx * 8 + i] = A[bx * 8 + i] + bias
            i = i + 1
