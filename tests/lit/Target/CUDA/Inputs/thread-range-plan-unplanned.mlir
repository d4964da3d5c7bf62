// Input of thread-range-plan.mlir: thread ranges without a plan.
tile.func @own() {
  tile.kernel (%bx) grid [1] threads [384] {
    %tx = tile.thread_binding 0
    %c128 = arith.constant 128 : index
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {
      tile.sync_threads
    } else {
      tile.sync_threads
    }
  }
}
