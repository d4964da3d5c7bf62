// Input of thread-range-plan.mlir: thread-range barrier plans the CUDA and
// HIP printers refuse, one function each (the error is on the tile.if;
// the other functions still print). The last function is a plan they
// follow.
module attributes {tile.ranges_planned} {
tile.func @no_attr() {
  tile.kernel (%bx) grid [1] threads [256] {
    %tx = tile.thread_binding 0
    %c128 = arith.constant 128 : index
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {  // CHECK: thread-range-plan-malformed.mlir:[[@LINE]]:5: error: malformed thread-range barrier plan: no named barrier for the branch on threads [0, 128) (tile-plan-thread-ranges)
      tile.sync_threads
    }
  }
}
tile.func @zero_id() {
  tile.kernel (%bx) grid [1] threads [256] {
    %tx = tile.thread_binding 0
    %c128 = arith.constant 128 : index
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {  // CHECK: thread-range-plan-malformed.mlir:[[@LINE]]:5: error: malformed thread-range barrier plan: no named barrier for the branch on threads [0, 128) (tile-plan-thread-ranges)
      tile.sync_threads
    } {tile.range_barriers = array<i64: 0, 0>}
  }
}
tile.func @one_id() {
  tile.kernel (%bx) grid [1] threads [256] {
    %tx = tile.thread_binding 0
    %c128 = arith.constant 128 : index
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {  // CHECK: thread-range-plan-malformed.mlir:[[@LINE]]:5: error: malformed thread-range barrier plan: tile.range_barriers must be two ids (branch, else) (tile-plan-thread-ranges)
      tile.sync_threads
    } {tile.range_barriers = array<i64: 15>}
  }
}
tile.func @not_range() {
  tile.kernel (%bx) grid [1] threads [256] {
    %tx = tile.thread_binding 0
    %c128 = arith.constant 128 : index
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {  // CHECK: thread-range-plan-malformed.mlir:[[@LINE]]:5: error: malformed thread-range barrier plan: a named barrier for the else branch, which is no thread range (tile-plan-thread-ranges)
      tile.sync_threads
    } {tile.range_barriers = array<i64: 15, 14>}
  }
}
tile.func @id16() {
  tile.kernel (%bx) grid [1] threads [256] {
    %tx = tile.thread_binding 0
    %c128 = arith.constant 128 : index
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {  // CHECK: thread-range-plan-malformed.mlir:[[@LINE]]:5: error: malformed thread-range barrier plan: named barrier 16 is not one of 1..15 (tile-plan-thread-ranges)
      tile.sync_threads
    } {tile.range_barriers = array<i64: 16, 0>}
  }
}
tile.func @negative() {
  tile.kernel (%bx) grid [1] threads [256] {
    %tx = tile.thread_binding 0
    %c128 = arith.constant 128 : index
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {  // CHECK: thread-range-plan-malformed.mlir:[[@LINE]]:5: error: malformed thread-range barrier plan: named barrier -1 is not one of 1..15 (tile-plan-thread-ranges)
      tile.sync_threads
    } {tile.range_barriers = array<i64: -1, 0>}
  }
}
tile.func @program_id() {
  tile.kernel (%bx) grid [1] threads [256] {
    %tx = tile.thread_binding 0
    %c128 = arith.constant 128 : index
    tile.sync_threads {barrier_id = 3 : i64, arrive_count = 256 : i64}
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {  // CHECK: thread-range-plan-malformed.mlir:[[@LINE]]:5: error: malformed thread-range barrier plan: named barrier 3 is one the program uses itself (tile-plan-thread-ranges)
      tile.sync_threads
    } {tile.range_barriers = array<i64: 3, 0>}
  }
}
tile.func @shared_id() {
  tile.kernel (%bx) grid [1] threads [384] {
    %tx = tile.thread_binding 0
    %c128 = arith.constant 128 : index
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {  // CHECK: thread-range-plan-malformed.mlir:[[@LINE]]:5: error: malformed thread-range barrier plan: named barrier 15 serves threads [0, 128) and [128, 384) (tile-plan-thread-ranges)
      tile.sync_threads
    } else {
      tile.sync_threads
    } {tile.range_barriers = array<i64: 15, 15>}
  }
}
tile.func @two_ids() {
  tile.kernel (%bx) grid [1] threads [256] {
    %tx = tile.thread_binding 0
    %c128 = arith.constant 128 : index
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {
      tile.sync_threads
    } {tile.range_barriers = array<i64: 15, 0>}
    tile.if %lo {  // CHECK: thread-range-plan-malformed.mlir:[[@LINE]]:5: error: malformed thread-range barrier plan: threads [0, 128) have named barriers 15 and 14 (tile-plan-thread-ranges)
      tile.sync_threads
    } {tile.range_barriers = array<i64: 14, 0>}
  }
}
// CHECK-NOT: mlir:{{[0-9]+}}:{{[0-9]+}}: error
// CHECK: followed_kernel(
// CHECK: tlc::cuda::namedBarrierSync(2, 128);
tile.func @followed() {
  tile.kernel (%bx) grid [1] threads [256] {
    %tx = tile.thread_binding 0
    %c128 = arith.constant 128 : index
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {
      tile.sync_threads
    } {tile.range_barriers = array<i64: 2, 0>}
  }
}
}
