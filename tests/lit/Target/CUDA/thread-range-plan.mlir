// RUN: tlc-translate --tile-to-cuda %s | FileCheck %s
// RUN: tlc-translate --tile-to-hip %s | FileCheck %s
// RUN: tlc-translate --tile-to-cuda %S/Inputs/thread-range-plan-unplanned.mlir | FileCheck %s --check-prefix=OWN
// RUN: tlc-translate --tile-to-hip %S/Inputs/thread-range-plan-unplanned.mlir | FileCheck %s --check-prefix=OWN
// RUN: not tlc-translate --tile-to-cuda %S/Inputs/thread-range-plan-malformed.mlir 2>&1 | FileCheck %S/Inputs/thread-range-plan-malformed.mlir
// RUN: not tlc-translate --tile-to-hip %S/Inputs/thread-range-plan-malformed.mlir 2>&1 | FileCheck %S/Inputs/thread-range-plan-malformed.mlir

// The CUDA and HIP printers synchronise a thread range on the named
// barrier tile-plan-thread-ranges recorded (tile.range_barriers on the
// tile.if, tile.ranges_planned on the module), not one they choose: here
// 9 for threads [0, 128) and 4 for [128, 384).
// CHECK-LABEL: planned_kernel(
// CHECK: // threads [0, 128) (128): tile operations are partitioned over them
// CHECK: tlc::cuda::namedBarrierSync(9, 128);
// CHECK: // threads [128, 384) (256): tile operations are partitioned over them
// CHECK: tlc::cuda::namedBarrierSync(4, 256);
// CHECK-NOT: namedBarrierSync
// CHECK-NOT: __syncthreads
//
// Without a plan (hand-written IR) they take the pass's choice
// (ThreadRangePlan.h's chooseRangeBarriers): 15, then 14.
// OWN-LABEL: own_kernel(
// OWN: // threads [0, 128) (128): tile operations are partitioned over them
// OWN: tlc::cuda::namedBarrierSync(15, 128);
// OWN: // threads [128, 384) (256): tile operations are partitioned over them
// OWN: tlc::cuda::namedBarrierSync(14, 256);

module attributes {tile.ranges_planned} {
tile.func @planned() {
  tile.kernel (%bx) grid [1] threads [384] {
    %tx = tile.thread_binding 0
    %c128 = arith.constant 128 : index
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {
      tile.sync_threads
    } else {
      tile.sync_threads
    } {tile.range_barriers = array<i64: 9, 4>}
  }
}
}
