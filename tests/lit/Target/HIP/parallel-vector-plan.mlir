// RUN: tlc-translate --tile-to-hip %s | FileCheck %s
// RUN: not tlc-translate --tile-to-cuda %s 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: tlc-translate --tile-to-hip %S/Inputs/parallel-vector-plan-unplanned.mlir | FileCheck %s --check-prefix=OWN
// RUN: tlc-translate --tile-to-cuda %S/Inputs/parallel-vector-plan-unplanned.mlir | FileCheck %s --check-prefix=OWNCUDA
// RUN: not tlc-translate --tile-to-hip %S/Inputs/parallel-vector-plan-malformed.mlir 2>&1 | FileCheck %S/Inputs/parallel-vector-plan-malformed.mlir
// RUN: not tlc-translate --tile-to-cuda %S/Inputs/parallel-vector-plan-malformed.mlir 2>&1 | FileCheck %S/Inputs/parallel-vector-plan-malformed.mlir --check-prefix=CUDA

// The HIP printer stores a T.Parallel's LDS stores as tile-plan-parallel-
// vectors recorded (tile.vec on the store, tile.vectors_planned on the
// module) instead of choosing itself. The fragment t of 32 x 128 f32 over
// 128 threads holds runs of 4 consecutive columns in consecutive
// registers (i1 = (tid & 31) * 4 + (r & 3)).
//
// Without a plan (hand-written IR, no tile.gpu_target) it takes the same
// choice (VectorPlan.h's chooseParallelVectors): runs of 4, one 16-byte
// vector each.
// OWN-LABEL: own_kernel(
// OWN: for (int [[RV:rv[_0-9]*]] = 0; [[RV]] < 32; [[RV]] += 4) {
// OWN-NEXT: alignas(16) float [[V:v[_0-9]*]][4];
// OWN: for (int [[R:r_[0-9]+]] = [[RV]]; [[R]] < [[RV]] + 4; ++[[R]]) {
// OWN: [[V]][[[R]] - [[RV]]] = x;
// OWN: tlc::hip::copyVector<16>(&S[(i0_{{[0-9]+}}) * 128 + i1_{{[0-9]+}}], [[V]]);
// CUDA chooses no vectors (element stores).
// OWNCUDA-LABEL: own_kernel(
// OWNCUDA-NOT: copyVector
// OWNCUDA: S[(i0{{[_0-9]*}}) * 128 + i1{{[_0-9]*}}] = x;
// OWNCUDA-NOT: copyVector

module attributes {tile.vectors_planned} {

// A plan of 2-element vectors: runs of 2 registers, 8-byte vectors, each
// at its run's first register's coordinates.
// CHECK-LABEL: two_kernel(
// CHECK: for (int [[RV:rv[_0-9]*]] = 0; [[RV]] < 32; [[RV]] += 2) {
// CHECK-NEXT: alignas(8) float [[V:v[_0-9]*]][2];
// CHECK: for (int [[R:r_[0-9]+]] = [[RV]]; [[R]] < [[RV]] + 2; ++[[R]]) {
// CHECK: [[V]][[[R]] - [[RV]]] = x;
// CHECK: const int [[I1:i1_[0-9]+]] = (tid & 31) * 4 + ([[RV]] & 3);
// CHECK-NEXT: tlc::hip::copyVector<8>(&S[(i0_{{[0-9]+}}) * 128 + [[I1]]], [[V]]);
tile.func @two() {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn> loc("S")
    %t = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment> loc("t")
    tile.clear %t : !tile.buffer<[32, 128], f32, local.fragment>
    tile.parallel (%i, %j) in [32, 128] {
      %x = tile.load %t[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
      tile.store %x, %S[%i, %j] {tile.vec = 2 : i64, tile.vec_aligned} : !tile.buffer<[32, 128], f32, shared.dyn>
    } loc("p.py":20:5)
  }
}

// A planned store without tile.vec: element stores, where the
// printer's own choice would have been vectors of 4.
// CHECK-LABEL: none_kernel(
// CHECK-NOT: copyVector
// CHECK: S[(i0{{[_0-9]*}}) * 128 + i1{{[_0-9]*}}] = x;
// CHECK-NOT: copyVector
tile.func @none() {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn> loc("S")
    %t = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment> loc("t")
    tile.clear %t : !tile.buffer<[32, 128], f32, local.fragment>
    tile.parallel (%i, %j) in [32, 128] {
      %x = tile.load %t[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
      tile.store %x, %S[%i, %j] : !tile.buffer<[32, 128], f32, shared.dyn>
    } loc("p.py":30:5)
  }
}

}

// CUDA refuses the plan of the first kernel and prints the second.
// CUDA: parallel-vector-plan.mlir:[[@LINE-26]]:7: error: T.Parallel vector plan: vector accesses of a T.Parallel are the HIP target's LDS stores (tile-plan-parallel-vectors)
// CUDA-LABEL: none_kernel(
