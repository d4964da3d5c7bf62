// RUN: tlc-opt --tile-reverse-blocks=force=true %s | FileCheck %s
// RUN: tlc-opt --tile-reverse-blocks %s | FileCheck %s --check-prefix=OFF

// Causal attention's loop: min(8, (bx * 64 + 63) floordiv 32 + 1) key
// blocks grows with bx, so bx becomes (4 - 1) - bx for every use.
// CHECK-LABEL: tile.func @causal
// CHECK:      tile.kernel (%bx) grid [4]
// CHECK-NEXT:   %[[LAST:.*]] = arith.constant 3 : index
// CHECK-NEXT:   %[[BX:.*]] = arith.subi %[[LAST]], %bx {tile.heavy_blocks_first} : index
// CHECK-NEXT:   arith.muli %[[BX]], %c64
// CHECK-NOT:    %bx
// CHECK:        tile.pipelined
// CHECK:          arith.muli %[[BX]], %c64
// OFF-NOT: tile.heavy_blocks_first
tile.func @causal(%A: !tile.buffer<[256, 32], f32, global>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  tile.kernel (%bx) grid [4] threads [128] {
    %row = arith.muli %bx, %c64 : index
    %end = arith.addi %row, %c63 : index
    %blocks = arith.floordivsi %end, %c32 : index
    %n1 = arith.addi %blocks, %c1 : index
    %n = arith.minsi %c8, %n1 : index
    %S = tile.alloc : !tile.buffer<[64, 32], f32, shared.dyn>
    tile.pipelined %k = %c0 to %n stages 2 {
      %r = arith.muli %bx, %c64 : index
      %t = tile.region %A[%r, %c0] : !tile.buffer<[256, 32], f32, global> to !tile.buffer<[64, 32], f32, global>
      tile.copy %t to %S : !tile.buffer<[64, 32], f32, global> to !tile.buffer<[64, 32], f32, shared.dyn>
    }
  }
}

// Left alone: a trip count that shrinks as bx grows (8 - bx), one that
// does not depend on bx, a kernel with an atomic (its blocks could
// observe their order) and one whose grid is a run-time value.
// CHECK-LABEL: tile.func @left_alone
// CHECK-NOT:  tile.heavy_blocks_first
// CHECK-LABEL: tile.func @next
tile.func @left_alone(%A: !tile.buffer<[256, 32], f32, global>, %n: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  tile.kernel (%bx) grid [4] threads [128] {
    %m = arith.subi %c8, %bx : index
    tile.pipelined %k = %c0 to %m stages 2 {
    }
  }
  tile.kernel (%bx) grid [4] threads [128] {
    tile.pipelined %k = %c0 to %n stages 2 {
    }
  }
  tile.kernel (%bx) grid [%n] threads [128] {
    tile.pipelined %k = %c0 to %bx stages 2 {
    }
  }
  tile.kernel (%bx) grid [4] threads [128] {
    tile.pipelined %k = %c0 to %bx stages 2 {
      tile.atomic_add %A[%k, %c0], %one : !tile.buffer<[256, 32], f32, global>, f32
    }
  }
}
tile.func @next() {
  tile.kernel (%bx) grid [1] threads [32] {
  }
}
