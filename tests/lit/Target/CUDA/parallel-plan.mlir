// RUN: tlc-translate --tile-to-cuda %s | FileCheck %s
// RUN: tlc-translate --tile-to-hip %s | FileCheck %s
// RUN: not tlc-translate --tile-to-cuda %S/Inputs/parallel-plan-malformed.mlir 2>&1 | FileCheck %S/Inputs/parallel-plan-malformed.mlir

// The printer partitions a T.Parallel as tile-plan-parallel-loops recorded
// (tile.partition, tile.loop_dims, the access marked
// tile.partitions_loop) instead of choosing itself; without a plan (this
// hand-written IR has no tile.gpu_target, so the pass plans nothing) it
// takes the same choice (ParallelPlan.h's chooseParallelPlan): the
// fragment accessed at exactly the loop variables, t. The planned loop
// runs over the slots of s instead: its first coordinate is s's dimension
// 0, the loop's variable j.
// CHECK-LABEL: planned_kernel(
// CHECK: // T.Parallel  p.py:10:5
// CHECK: for (int [[R:r_[0-9]+]] = 0; [[R]] < 16; ++[[R]]) {
// CHECK-NEXT: const int [[J:i0]] = (tid & 7) * 4 + ([[R]] & 3);
// CHECK-NEXT: const int [[I:i1]] = ((tid >> 3) & 15) + (([[R]] >> 2) & 3) * 16;
// CHECK-NEXT: const float [[X:x]] = s[[[R]]];
// CHECK: O[([[I]]) * 32 + [[J]]] = [[X]];
// CHECK: // T.Parallel  p.py:12:5
// CHECK: for (int [[R2:r_[0-9]+]] = 0; [[R2]] < 16; ++[[R2]]) {
// CHECK-NEXT: const int [[I2:i0_1]] = ((tid >> 3) & 15) + (([[R2]] >> 2) & 3) * 16;
// CHECK-NEXT: const int [[J2:i1_1]] = (tid & 7) * 4 + ([[R2]] & 3);
// CHECK: O[([[I2]]) * 32 + [[J2]]] =
tile.func @planned(%O: !tile.buffer<[64, 32], f32, global> loc("O")) {
  tile.kernel (%bx) grid [1] threads [128] {
    %s = tile.alloc : !tile.buffer<[32, 64], f32, local.fragment> loc("s")
    %t = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment> loc("t")
    tile.clear %s : !tile.buffer<[32, 64], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 32] attributes {tile.loop_dims = array<i64: 1, 0>, tile.partition = "fragment"} {
      %x = tile.load %s[%j, %i] {tile.partitions_loop} : !tile.buffer<[32, 64], f32, local.fragment>
      %y = arith.negf %x : f32
      tile.store %y, %t[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      tile.store %x, %O[%i, %j] : !tile.buffer<[64, 32], f32, global>
    } loc("p.py":10:5)
    tile.parallel (%i, %j) in [64, 32] {
      %x = tile.load %s[%j, %i] : !tile.buffer<[32, 64], f32, local.fragment>
      %y = arith.negf %x : f32
      tile.store %y, %t[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      tile.store %x, %O[%i, %j] : !tile.buffer<[64, 32], f32, global>
    } loc("p.py":12:5)
  }
}

// A loop no fragment partitions runs the recorded rounds (tile.loop_regs)
// with the recorded guard: 3 here, where the printer's own choice for 100
// iterations over 128 threads is 1.
// CHECK-LABEL: rounds_kernel(
// CHECK: // T.Parallel  p.py:20:5
// CHECK: for (int [[R:r[_0-9]*]] = 0; [[R]] < 3; ++[[R]]) {
// CHECK-NEXT: const int [[F:f[_0-9]*]] = [[R]] * 128 + tid;
// CHECK-NEXT: if ([[F]] < 100) {
// CHECK: // T.Parallel  p.py:21:5
// CHECK: for (int [[R2:r_[0-9]+]] = 0; [[R2]] < 1; ++[[R2]]) {
// CHECK-NEXT: const int [[F2:f_[0-9]+]] = [[R2]] * 128 + tid;
// CHECK-NEXT: if ([[F2]] < 100) {
tile.func @rounds(%O: !tile.buffer<[10, 10], f32, global> loc("O")) {
  tile.kernel (%bx) grid [1] threads [128] {
    %cst = arith.constant 0.0 : f32
    tile.parallel (%i, %j) in [10, 10] attributes {tile.loop_guard, tile.loop_regs = 3 : i64, tile.partition = "threads"} {
      tile.store %cst, %O[%i, %j] : !tile.buffer<[10, 10], f32, global>
    } loc("p.py":20:5)
    tile.parallel (%i, %j) in [10, 10] {
      tile.store %cst, %O[%i, %j] : !tile.buffer<[10, 10], f32, global>
    } loc("p.py":21:5)
  }
}
