// RUN: not tlc-translate --tile-to-cpp %s 2>&1 | FileCheck %s

// Operations and types the CPU target cannot execute are diagnosed at the
// op, never miscompiled.

// An mbarrier wait names its barrier (a T.alloc_barrier element or a
// number of T.create_list_of_mbarrier's list).
// CHECK: invalid.mlir:[[@LINE+5]]:{{[0-9]+}}: error: T.mbarrier_wait_parity: needs an mbarrier
tile.func @per_thread_mbarrier(%p: index) {
  tile.kernel (%bx) grid [1] threads [128] {
    %tx = tile.thread_binding 0
    %0 = arith.addi %tx, %p : index
    tile.intrinsic "T.mbarrier_wait_parity"(%0) {params = ["parity"]} : (index) -> ()
  }
}


// CHECK: invalid.mlir:[[@LINE+1]]:{{[0-9]+}}: error: the CPU target needs every extent of [?, 4] (dimension 0 is unknown)
tile.func @unknown_extent(%a: !tile.buffer<[?, 4], f32, global>) {
}


// CHECK: invalid.mlir:[[@LINE+3]]:{{[0-9]+}}: error: the CPU target does not support values of type f6E2M3FN
tile.func @fp4() {
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[4], f6E2M3FN, shared.dyn>
  }
}
