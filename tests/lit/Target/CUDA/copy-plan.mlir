// RUN: tlc-translate --tile-to-cuda %s | FileCheck %s
// RUN: not tlc-translate --tile-to-cuda %S/Inputs/copy-plan-malformed.mlir 2>&1 | FileCheck %S/Inputs/copy-plan-malformed.mlir

// The printer carries out the copy plan tile-plan-copies records
// (tile.instr, tile.vec) instead of choosing itself; without a plan (this
// hand-written IR has no tile.gpu_target, so the pass plans nothing) it
// takes the same choice (CopyPlan.h's chooseCopy): 16-byte vectors here.
// CHECK-LABEL: planned_kernel(
// CHECK: // T.copy  c.py:10:5
// CHECK-NOT: copyVector
// CHECK: for (int e = 0; e < 2; ++e) {
// CHECK: // T.copy  c.py:11:5
// CHECK: tlc::cuda::cpAsync<16>(
// CHECK: // T.copy  c.py:12:5
// CHECK-NEXT: {
// CHECK-NEXT: #pragma unroll
// CHECK-NEXT: for (int c_2 = 0; c_2 < 2; ++c_2) {
// CHECK: tlc::cuda::copyVector<16>(
tile.func @planned(%A: !tile.buffer<[256, 512], f16, global> loc("A")) {
  tile.kernel (%bx) grid [4] threads [128] {
    %c0 = arith.constant 0 : index
    %S = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("S")
    %At = tile.region %A[%c0, %c0] : !tile.buffer<[256, 512], f16, global> to !tile.buffer<[64, 32], f16, global>
    tile.copy %At to %S {tile.instr = "element", tile.vec = 2 : i64} : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("c.py":10:5)
    tile.copy %At to %S {tile.instr = "cp.async", tile.vec = 8 : i64} : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("c.py":11:5)
    tile.copy %At to %S : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn> loc("c.py":12:5)
  }
}
