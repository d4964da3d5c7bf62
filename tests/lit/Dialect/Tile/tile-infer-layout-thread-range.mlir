// RUN: tlc-opt %s --tile-infer-layout | FileCheck %s

// A T.Parallel or fragment copy under a thread-range condition is
// partitioned over the threads of its range, as TileLang partitions a loop
// over the thread bounds of its region: 128 threads in the `tx < 128`
// branch, 256 threads from thread 128 in its else branch (numbered in the
// block, like a gemm accumulator in a range). Over the whole block of 384
// threads, a 4096-iteration loop would divide among no thread count but 1
// (the layouts were all on thread 0).

// CHECK-LABEL: tile.func @ranges
// CHECK: %[[B:.*]] = tile.alloc {layout = #tile.fragment<[64, 64], thread = "16 * (i % 16) + j // 4 + 128", index = ["4 * (i // 16) + j % 4"], origin = "parallel">}
// CHECK: %[[S:.*]] = tile.alloc {layout = #tile.fragment<[64], thread = "16 * (i % 16) + rep + 128", index = ["i // 16"], replicate = 16, origin = "parallel row">}
// CHECK: tile.if
// CHECK: tile.parallel (%{{.*}}, %{{.*}}) in [64, 64] attributes {loop_layout = #tile.fragment<[64, 64], thread = "16 * (i % 8) + j // 4", index = ["4 * (i // 8) + j % 4"], origin = "parallel">}
// CHECK: } else {
// CHECK: tile.parallel (%{{.*}}) in [64] attributes {loop_layout = #tile.fragment<[64], thread = "16 * (i % 16) + rep + 128", index = ["i // 16"], replicate = 16, origin = "parallel row">}
module attributes {tile.target = "sm_80"} {
  tile.func @ranges(%A: !tile.buffer<[64, 64], f32, global>, %B: !tile.buffer<[64, 64], f32, global>, %S: !tile.buffer<[64], f32, global>) {
    tile.kernel (%bx) grid [1] threads [384] {
      %shared = tile.alloc : !tile.buffer<[64, 64], f32, shared.dyn>
      %b = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
      %s = tile.alloc : !tile.buffer<[64], f32, local.fragment>
      %acc = tile.alloc : !tile.buffer<[64], f32, local.fragment>
      %tx = tile.thread_binding 0
      %c128 = arith.constant 128 : index
      %lo = arith.cmpi slt, %tx, %c128 : index
      tile.if %lo {
        tile.copy %A to %shared : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[64, 64], f32, shared.dyn>
        tile.parallel (%i, %k) in [64, 64] {
          %v = tile.load %shared[%i, %k] : !tile.buffer<[64, 64], f32, shared.dyn>
          %two = arith.constant 2.000000e+00 : f32
          %w = arith.mulf %v, %two : f32
          tile.store %w, %shared[%i, %k] : !tile.buffer<[64, 64], f32, shared.dyn>
        }
      } else {
        tile.clear %acc : !tile.buffer<[64], f32, local.fragment>
        tile.copy %B to %b : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[64, 64], f32, local.fragment>
        tile.reduce sum %b to %s dim = 1 clear : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64], f32, local.fragment>
        tile.parallel (%i) in [64] {
          %x = tile.load %acc[%i] : !tile.buffer<[64], f32, local.fragment>
          %y = tile.load %s[%i] : !tile.buffer<[64], f32, local.fragment>
          %z = arith.addf %x, %y : f32
          tile.store %z, %acc[%i] : !tile.buffer<[64], f32, local.fragment>
        }
        tile.copy %acc to %S : !tile.buffer<[64], f32, local.fragment> to !tile.buffer<[64], f32, global>
      }
    }
  }
}
