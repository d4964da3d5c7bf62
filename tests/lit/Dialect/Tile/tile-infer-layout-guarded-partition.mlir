// RUN: tlc-opt %s --tile-infer-layout | FileCheck %s
// RUN: tlc-opt %s --tile-infer-layout | %python %S/Inputs/check_guarded_partition.py | FileCheck %s --check-prefix=ENUM

// A T.Parallel outside any thread range whose trip count the block's
// threads do not divide is partitioned over all of them, the last round
// guarded, as TileLang partitions it: 4096 iterations on 384 threads are
// 4-element chunks dealt round-robin (thread = (flat / 4) % 384), so
// threads 0..255 run 3 chunks and 256..383 two. The halving search that
// divides the trip count found no thread count but 1: every iteration ran
// on thread 0. A loop of fewer iterations than threads (64 on 384) takes
// 16 threads of 4-element chunks (it was on thread 0 too); a loop the
// threads divide keeps the partition it had (768 iterations: 384 threads
// of two elements).
// ENUM checks each layout by enumeration in Python: every element once,
// the threads that hold elements, the most registers of a thread.

// CHECK-LABEL: tile.func @guarded
// CHECK: tile.alloc {layout = #tile.fragment<[64, 64], thread = "{{.*}}", index = ["{{.*}}"], origin = "parallel">}
// ENUM: [64, 64] threads 384 regs 12 once True
// ENUM-NEXT: [64] threads 16 regs 4 once True
// ENUM-NEXT: [768] threads 384 regs 2 once True
module attributes {tile.target = "sm_80"} {
  tile.func @guarded(%A: !tile.buffer<[64, 64], f32, global>, %B: !tile.buffer<[64], f32, global>, %C: !tile.buffer<[768], f32, global>) {
    tile.kernel (%bx) grid [1] threads [384] {
      %a = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
      %b = tile.alloc : !tile.buffer<[64], f32, local.fragment>
      %c = tile.alloc : !tile.buffer<[768], f32, local.fragment>
      tile.parallel (%i, %j) in [64, 64] {
        %v = tile.load %A[%i, %j] : !tile.buffer<[64, 64], f32, global>
        tile.store %v, %a[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      }
      tile.parallel (%i) in [64] {
        %v = tile.load %B[%i] : !tile.buffer<[64], f32, global>
        tile.store %v, %b[%i] : !tile.buffer<[64], f32, local.fragment>
      }
      tile.parallel (%i) in [768] {
        %v = tile.load %C[%i] : !tile.buffer<[768], f32, global>
        tile.store %v, %c[%i] : !tile.buffer<[768], f32, local.fragment>
      }
      tile.copy %a to %A : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
      tile.copy %b to %B : !tile.buffer<[64], f32, local.fragment> to !tile.buffer<[64], f32, global>
      tile.copy %c to %C : !tile.buffer<[768], f32, local.fragment> to !tile.buffer<[768], f32, global>
    }
  }
}
