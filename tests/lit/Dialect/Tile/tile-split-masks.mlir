// RUN: tlc-opt --tile-split-masks=force=true %s | FileCheck %s
// RUN: tlc-opt --tile-split-masks %s | FileCheck %s --check-prefix=OFF

// Attention's causal mask: row bx * 64 + i against column k * 32 + j is
// true everywhere when the block's first row is at least the key block's
// last column (bx * 64 >= k * 32 + 31): then the fragment is filled with
// the true value and the loop runs only in the else branch.
// CHECK-LABEL: tile.func @causal
// CHECK:      tile.pipelined
// CHECK:        %[[ROW:.*]] = arith.muli %bx, %c64
// CHECK:        %[[COL:.*]] = arith.muli %k, %c32
// CHECK:        %[[LAST:.*]] = arith.addi %[[COL]], %c31
// CHECK:        %[[ALL:.*]] = arith.cmpi sge, %[[ROW]], %[[LAST]] : index
// CHECK:        tile.if %[[ALL]] {
// CHECK-NEXT:     tile.fill %[[S:.*]], %cst : !tile.buffer<[64, 32], f32, local.fragment>
// CHECK-NEXT:   } else {
// CHECK-NEXT:     tile.parallel (%i, %j) in [64, 32] {
// CHECK:            arith.select
// CHECK:          }
// CHECK-NEXT:   } {tile.split_mask}
// CHECK-NEXT:   tile.gemm
// Without the pass config or the option nothing changes.
// OFF-NOT: tile.if
tile.func @causal(%A: !tile.buffer<[256, 32], f16, global>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  tile.kernel (%bx) grid [4] threads [128] {
    %Q = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %K = tile.alloc : !tile.buffer<[32, 32], f16, shared.dyn>
    %S = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.pipelined %k = %c0 to %c4 stages 2 {
      tile.parallel (%i, %j) in [64, 32] {
        %c64 = arith.constant 64 : index
        %row0 = arith.muli %bx, %c64 : index
        %row = arith.addi %row0, %i : index
        %c32 = arith.constant 32 : index
        %col0 = arith.muli %k, %c32 : index
        %col = arith.addi %col0, %j : index
        %in = arith.cmpi sge, %row, %col : index
        %inf = arith.constant 0x7F800000 : f32
        %ninf = arith.negf %inf : f32
        %zero = arith.constant 0.000000e+00 : f32
        %v = arith.select %in, %zero, %ninf : f32
        tile.store %v, %S[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      }
      tile.gemm %Q, %K, %S {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f32, local.fragment>
    }
  }
}

// The end of the sequence (k * 32 + j < n, n a run-time value) and a
// second bound joined by `and`: both must hold at the greatest column
// (k * 32 + 31); `slt` compares the left side's greatest value with the
// right side's least.
// CHECK-LABEL: tile.func @sequence_end
// CHECK:        %[[C:.*]] = arith.muli %k, %c32
// CHECK:        %[[LAST:.*]] = arith.addi %[[C]], %c31
// CHECK:        %[[IN:.*]] = arith.cmpi slt, %[[LAST]], %arg0 : index
// CHECK:        %[[LAST2:.*]] = arith.addi %[[C]], %c31
// CHECK:        %[[IN2:.*]] = arith.cmpi sle, %[[LAST2]], %c200 : index
// CHECK:        %[[ALL:.*]] = arith.andi %[[IN]], %[[IN2]] : i1
// CHECK:        tile.if %[[ALL]] {
// CHECK-NEXT:     tile.fill
tile.func @sequence_end(%n: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  tile.kernel (%bx) grid [4] threads [128] {
    %S = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.pipelined %k = %c0 to %c4 stages 2 {
      tile.parallel (%i, %j) in [64, 32] {
        %c32 = arith.constant 32 : index
        %c200 = arith.constant 200 : index
        %col0 = arith.muli %k, %c32 : index
        %col = arith.addi %col0, %j : index
        %in = arith.cmpi slt, %col, %n : index
        %in2 = arith.cmpi sle, %col, %c200 : index
        %both = arith.andi %in, %in2 : i1
        %zero = arith.constant 0.000000e+00 : f32
        %ninf = arith.constant 0xFF800000 : f32
        %v = arith.select %both, %zero, %ninf : f32
        tile.store %v, %S[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      }
    }
  }
}

// Left alone: a mask through `%` (no bounds), one whose true value
// varies over the loop, one that reads memory, one that stores at other
// indices than the loop's, and a mask outside a pipelined loop. Nothing
// built for the failed attempts stays behind.
// CHECK-LABEL: tile.func @left_alone
// CHECK-NOT:  tile.if
// CHECK:      tile.pipelined
// CHECK-NOT:  tile.if
// CHECK:      tile.parallel
// CHECK-NOT:  tile.if
// CHECK-LABEL: tile.func @next
tile.func @left_alone(%G: !tile.buffer<[64], f32, global>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  tile.kernel (%bx) grid [4] threads [128] {
    %S = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    %T = tile.alloc : !tile.buffer<[32, 32], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 32] {
      %in = arith.cmpi sge, %i, %j : index
      %zero = arith.constant 0.000000e+00 : f32
      %one = arith.constant 1.000000e+00 : f32
      %v = arith.select %in, %zero, %one : f32
      tile.store %v, %S[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
    }
    tile.pipelined %k = %c0 to %c4 stages 2 {
      tile.parallel (%i, %j) in [64, 32] {
        %c8 = arith.constant 8 : index
        %r = arith.remsi %j, %c8 : index
        %in = arith.cmpi sge, %k, %r : index
        %zero = arith.constant 0.000000e+00 : f32
        %one = arith.constant 1.000000e+00 : f32
        %v = arith.select %in, %zero, %one : f32
        tile.store %v, %S[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      }
      tile.parallel (%i, %j) in [64, 32] {
        %in = arith.cmpi sge, %k, %c0 : index
        %x = arith.index_cast %j : index to i32
        %f = arith.sitofp %x : i32 to f32
        %one = arith.constant 1.000000e+00 : f32
        %v = arith.select %in, %f, %one : f32
        tile.store %v, %S[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      }
      tile.parallel (%i, %j) in [64, 32] {
        %in = arith.cmpi sge, %k, %j : index
        %g = tile.load %G[%i] : !tile.buffer<[64], f32, global>
        %zero = arith.constant 0.000000e+00 : f32
        %v = arith.select %in, %zero, %g : f32
        tile.store %v, %S[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      }
      tile.parallel (%i, %j) in [32, 32] {
        %in = arith.cmpi sge, %k, %j : index
        %zero = arith.constant 0.000000e+00 : f32
        %one = arith.constant 1.000000e+00 : f32
        %v = arith.select %in, %zero, %one : f32
        tile.store %v, %T[%j, %i] : !tile.buffer<[32, 32], f32, local.fragment>
      }
    }
  }
}
tile.func @next() {
  tile.kernel (%bx) grid [1] threads [32] {
  }
}
