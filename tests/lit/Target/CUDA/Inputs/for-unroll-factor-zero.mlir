// For for-unroll-factor.mlir: unroll_factor = 0.
tile.func @zero(%P: !tile.buffer<[128], f32, global> loc("P")) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %f1 = arith.constant 1.0 : f32
  tile.kernel (%bx) grid [1] threads [128] {
    tile.for %j = %c0 to %c8 step %c1 attributes {unroll_factor = 0 : i64} {
      tile.atomic_add %P[%j], %f1 : !tile.buffer<[128], f32, global>, f32
    }
  }
}
