// RUN: tlc-translate --tile-to-cuda %s | FileCheck %s
// RUN: tlc-translate --tile-to-hip %s | FileCheck %s

// tile.for's unroll_factor (T.unroll(n, unroll_factor=k), T.serial(...,
// unroll_factor=k)) is TileLang's pragma_unroll_factor: the CUDA target
// printed a bare `#pragma unroll` (T.unroll) or nothing (T.serial) and
// dropped the factor; it prints `#pragma unroll k` with the loop now.

// CHECK-LABEL: void __launch_bounds__(128) unrolled_kernel(
// CHECK: #pragma unroll 4
// CHECK-NEXT: for (int [[I:i[_0-9]*]] = 0; [[I]] < 16; [[I]] += 1) {
// CHECK: #pragma unroll 2
// CHECK-NEXT: for (int [[J:i[_0-9]*]] = 0; [[J]] < 8; [[J]] += 1) {
// A factor of 1 keeps the loop rolled.
// CHECK: #pragma unroll 1
// CHECK-NEXT: for (int [[K:i[_0-9]*]] = 0; [[K]] < 8; [[K]] += 1) {
// Without a factor: T.unroll unrolls fully, T.serial says nothing.
// CHECK: #pragma unroll{{$}}
// CHECK-NEXT: for (int [[L:i[_0-9]*]] = 0; [[L]] < 4; [[L]] += 1) {
// CHECK-NOT: #pragma
// CHECK: for (int [[M:i[_0-9]*]] = 0; [[M]] < 4; [[M]] += 1) {
tile.func @unrolled(%P: !tile.buffer<[128], f32, global> loc("P")) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %f1 = arith.constant 1.0 : f32
  tile.kernel (%bx) grid [1] threads [128] {
    tile.for %i = %c0 to %c16 step %c1 unroll attributes {unroll_factor = 4 : i64} {
      tile.atomic_add %P[%i], %f1 : !tile.buffer<[128], f32, global>, f32
    }
    tile.for %j = %c0 to %c8 step %c1 attributes {unroll_factor = 2 : i64} {
      tile.atomic_add %P[%j], %f1 : !tile.buffer<[128], f32, global>, f32
    }
    tile.for %k = %c0 to %c8 step %c1 attributes {unroll_factor = 1 : i64} {
      tile.atomic_add %P[%k], %f1 : !tile.buffer<[128], f32, global>, f32
    }
    tile.for %l = %c0 to %c4 step %c1 unroll {
      tile.atomic_add %P[%l], %f1 : !tile.buffer<[128], f32, global>, f32
    }
    tile.for %m = %c0 to %c4 step %c1 {
      tile.atomic_add %P[%m], %f1 : !tile.buffer<[128], f32, global>, f32
    }
  }
}

// A factor below 1 is no pragma nvcc takes: an error at the loop.
// RUN: not tlc-translate --tile-to-cuda %S/Inputs/for-unroll-factor-zero.mlir 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: for-unroll-factor-zero.mlir:8:5: error: unroll_factor must be a positive integer, got 0
