// RUN: tlc-opt --tile-insert-barriers %s | FileCheck %s

// A tile written to shared memory and read back: one barrier between the
// write and the read, none before the first write or between two reads.
// CHECK-LABEL: tile.func @write_then_read
// CHECK:      tile.copy %{{.*}} to %[[S:.*]] : !tile.buffer<[64, 64], f16, global> to
// CHECK-NEXT: tile.barrier "shared-memory dependence"
// CHECK-NEXT: tile.copy %[[S]] to
// CHECK-NEXT: tile.copy %[[S]] to
// CHECK-NOT:  tile.barrier
// CHECK:      }
tile.func @write_then_read(%A: !tile.buffer<[64, 64], f16, global>, %B: !tile.buffer<[64, 64], f16, global>, %C: !tile.buffer<[64, 64], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[64, 64], f16, shared.dyn>
    tile.copy %A to %S : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
    tile.copy %S to %B : !tile.buffer<[64, 64], f16, shared.dyn> to !tile.buffer<[64, 64], f16, global>
    tile.copy %S to %C : !tile.buffer<[64, 64], f16, shared.dyn> to !tile.buffer<[64, 64], f16, global>
  }
}

// Reuse of bytes (tile-plan-shared-memory gave %T the bytes of %S after
// %S's last use): writing %T waits for the readers of %S. A buffer in
// other bytes (%U at 8192) needs no barrier before its first write.
// CHECK-LABEL: tile.func @reuse_of_bytes
// CHECK:      tile.copy %{{.*}} to %[[S:.*]] : !tile.buffer<[64, 64], f16, global> to
// CHECK-NEXT: tile.barrier "shared-memory dependence"
// CHECK-NEXT: tile.copy %[[S]] to %{{.*}} : !tile.buffer<[64, 64], f16, shared.dyn> to
// CHECK-NEXT: tile.copy %{{.*}} to %[[U:.*]] : !tile.buffer<[64, 64], f16, global> to
// CHECK-NEXT: tile.barrier "shared-memory dependence"
// CHECK-NEXT: tile.copy %{{.*}} to %[[T:.*]] : !tile.buffer<[64, 64], f16, global> to
tile.func @reuse_of_bytes(%A: !tile.buffer<[64, 64], f16, global>, %B: !tile.buffer<[64, 64], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[64, 64], f16, shared.dyn>
    %U = tile.alloc {tile.offset = 8192 : i64} : !tile.buffer<[64, 64], f16, shared.dyn>
    %T = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[64, 64], f16, shared.dyn>
    tile.copy %A to %S : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
    tile.copy %S to %B : !tile.buffer<[64, 64], f16, shared.dyn> to !tile.buffer<[64, 64], f16, global>
    tile.copy %A to %U : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
    tile.copy %A to %T : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
  }
}

// A serial loop that writes and reads shared memory: each iteration starts
// with a barrier (the previous one's gemm still reads %A_s), and the gemm
// waits for the copy. The T.Parallel's accesses are its threads' own: no
// barrier inside it. In a kernel with wgmma gemms the dependence barrier
// fences the async proxy first; the loop-carried one needs no fence (the
// wgmma reads completed before its wait).
// CHECK-LABEL: tile.func @serial_loop
// CHECK:      tile.for
// CHECK-NEXT:   tile.barrier "the previous iteration's reads are done"
// CHECK-NEXT:   tile.region
// CHECK-NEXT:   tile.copy
// CHECK-NEXT:   tile.barrier fence_proxy_async "shared-memory dependence"
// CHECK-NEXT:   tile.gemm
// CHECK:      tile.parallel
// CHECK-NOT:  tile.barrier
// CHECK:      }
tile.func @serial_loop(%A: !tile.buffer<[64, 256], f16, global>, %O: !tile.buffer<[64, 64], f32, global>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel (%bx) grid [1] threads [128] {
    %A_s = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[64, 64], f16, shared.dyn>
    %B_s = tile.alloc {tile.offset = 8192 : i64} : !tile.buffer<[64, 64], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.for %k = %c0 to %c4 step %c1 {
      %At = tile.region %A[%c0, %k] : !tile.buffer<[64, 256], f16, global> to !tile.buffer<[64, 64], f16, global>
      tile.copy %At to %A_s : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc {tile.instr = "wgmma"} : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.parallel (%i, %j) in [64, 64] {
      %v = tile.load %acc[%i, %j] : !tile.buffer<[64, 64], f32, local.fragment>
      tile.store %v, %O[%i, %j] : !tile.buffer<[64, 64], f32, global>
    }
  }
}

// A multi-buffered pipeline orders its stages itself: its producer copies
// (tile.prefetch) take no part, so the gemm gets no barrier and neither
// does the loop. The epilogue's write of %C_s, in the bytes of the
// stages, waits for the gemm's reads.
// CHECK-LABEL: tile.func @multi_buffered
// CHECK:      tile.pipelined
// CHECK-NOT:  tile.barrier
// CHECK:      tile.gemm {{.*$}}
// CHECK-NEXT: }
// CHECK-NEXT: tile.barrier "shared-memory dependence"
// CHECK-NEXT: tile.copy %{{.*}} to %{{.*}} : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, shared.dyn>
// CHECK-NEXT: tile.region
// CHECK-NEXT: tile.barrier "shared-memory dependence"
// CHECK-NEXT: tile.copy
tile.func @multi_buffered(%A: !tile.buffer<[256, 256], f16, global>, %B: !tile.buffer<[256, 256], f16, global>, %C: !tile.buffer<[256, 256], f32, global>) {
  tile.kernel (%bx, %by) grid [4, 4] threads [128] {
    %A_s = tile.alloc {tile.offset = 0 : i64, tile.stages = 3 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
    %B_s = tile.alloc {tile.offset = 12288 : i64, tile.stages = 3 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
    %C_s = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[64, 64], f32, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    tile.pipelined %k = %c0 to %c8 stages 3 attributes {tile.stages = 3 : i64} {
      %At = tile.region %A[%c0, %k] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %At to %A_s {tile.prefetch = 0 : i64} : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      %Bt = tile.region %B[%c0, %k] : !tile.buffer<[256, 256], f16, global> to !tile.buffer<[64, 32], f16, global>
      tile.copy %Bt to %B_s {tile.prefetch = 1 : i64} : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.gemm %A_s, %B_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.copy %acc to %C_s : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, shared.dyn>
    %Ct = tile.region %C[%c0, %c0] : !tile.buffer<[256, 256], f32, global> to !tile.buffer<[64, 64], f32, global>
    tile.copy %C_s to %Ct : !tile.buffer<[64, 64], f32, shared.dyn> to !tile.buffer<[64, 64], f32, global>
  }
}

// Branches on the thread index: a branch selecting whole warps (tx < 64)
// is run by its threads together, so its dependence gets a barrier (among
// those threads) and, directly in a loop, so does each iteration's start
// (after the loop's own barrier among the whole block, as before);
// a branch on a condition that is no range (tx % 2 == 0) holds none, its
// accesses count with the whole block's before it.
// CHECK-LABEL: tile.func @thread_ranges
// CHECK:      tile.for
// CHECK-NEXT:   tile.barrier "the previous iteration's reads are done"
// CHECK-NEXT:   arith.cmpi
// CHECK-NEXT:   tile.if
// CHECK-NEXT:     tile.barrier "the previous iteration's accesses are done"
// CHECK-NEXT:     tile.copy
// CHECK-NEXT:     tile.barrier "shared-memory dependence"
// CHECK-NEXT:     tile.copy
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK:      tile.barrier "shared-memory dependence"
// CHECK-NEXT: tile.if
// CHECK-NOT:  tile.barrier
// CHECK:      tile.func
tile.func @thread_ranges(%A: !tile.buffer<[64], f32, global>, %B: !tile.buffer<[64], f32, global>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  tile.kernel (%bx) grid [1] threads [128] {
    %tx = tile.thread_binding 0
    %S = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[64], f32, shared.dyn>
    tile.for %k = %c0 to %c4 step %c1 {
      %lo = arith.cmpi ult, %tx, %c64 : index
      tile.if %lo {
        tile.copy %A to %S : !tile.buffer<[64], f32, global> to !tile.buffer<[64], f32, shared.dyn>
        tile.copy %S to %B : !tile.buffer<[64], f32, shared.dyn> to !tile.buffer<[64], f32, global>
      }
    }
    %r = arith.remui %tx, %c2 : index
    %even = arith.cmpi eq, %r, %c0 : index
    tile.if %even {
      %v = tile.load %A[%tx] : !tile.buffer<[64], f32, global>
      tile.store %v, %S[%c0] : !tile.buffer<[64], f32, shared.dyn>
      %w = tile.load %S[%c0] : !tile.buffer<[64], f32, shared.dyn>
      tile.store %w, %B[%tx] : !tile.buffer<[64], f32, global>
    }
  }
}
tile.func @end() {
}

// A block-wide barrier already in the code (the program's T.sync_threads,
// or T.tvm_thread_allreduce's exchange) orders the write before it: no
// barrier is added next to it (the write after the read still gets one). A
// named barrier (barrier_id) is among some threads only and does not
// count: after it the read still gets one.
// CHECK-LABEL: tile.func @existing_sync
// CHECK:      tile.copy %{{.*}} to %[[S:.*]] : !tile.buffer<[64, 64], f16, global> to
// CHECK-NEXT: tile.sync_threads
// CHECK-NEXT: tile.copy %[[S]] to
// CHECK-NEXT: tile.barrier "shared-memory dependence"
// CHECK-NEXT: tile.copy %{{.*}} to %[[S]] : !tile.buffer<[64, 64], f16, global> to
// CHECK-NEXT: tile.sync_threads {arrive_count = 128 : i64, barrier_id = 1 : i64}
// CHECK-NEXT: tile.barrier "shared-memory dependence"
// CHECK-NEXT: tile.copy %[[S]] to
// CHECK-NOT:  tile.barrier
// CHECK:      }
tile.func @existing_sync(%A: !tile.buffer<[64, 64], f16, global>, %B: !tile.buffer<[64, 64], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[64, 64], f16, shared.dyn>
    tile.copy %A to %S : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
    tile.sync_threads
    tile.copy %S to %B : !tile.buffer<[64, 64], f16, shared.dyn> to !tile.buffer<[64, 64], f16, global>
    tile.copy %A to %S : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
    tile.sync_threads {barrier_id = 1 : i64, arrive_count = 128 : i64}
    tile.copy %S to %B : !tile.buffer<[64, 64], f16, shared.dyn> to !tile.buffer<[64, 64], f16, global>
  }
}

// 1-D bulk copies (tile-plan-tma's tile.bulk_store / tile.bulk_load) print
// their own barriers: the async-proxy fence and a barrier before the copy
// engine touches the tile, one after it when a statement follows. None is
// placed beside them: not before the store that reads what the copy wrote,
// not before the load that overwrites what the store read, not before the
// element loop that reads what the load wrote. The same copies without the
// attributes get all three.
// CHECK-LABEL: tile.func @bulk_copies
// CHECK:      tile.copy %{{.*}} to %[[S:.*]] : !tile.buffer<[256], f32, global> to
// CHECK-NEXT: tile.copy %[[S]] to %{{.*}} {tile.bulk_store}
// CHECK-NEXT: tile.copy %{{.*}} to %[[S]] {tile.bulk_load = 1024 : i64}
// CHECK-NEXT: tile.parallel
// CHECK-NOT:  tile.barrier
// CHECK:      tile.func @plain_copies
// CHECK:      tile.copy %{{.*}} to %[[S:.*]] : !tile.buffer<[256], f32, global> to
// CHECK-NEXT: tile.barrier "shared-memory dependence"
// CHECK-NEXT: tile.copy %[[S]] to
// CHECK-NEXT: tile.barrier "shared-memory dependence"
// CHECK-NEXT: tile.copy %{{.*}} to %[[S]]
// CHECK-NEXT: tile.barrier "shared-memory dependence"
// CHECK-NEXT: tile.parallel
tile.func @bulk_copies(%A: !tile.buffer<[256], f32, global>, %B: !tile.buffer<[256], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[256], f32, shared.dyn>
    tile.copy %A to %S : !tile.buffer<[256], f32, global> to !tile.buffer<[256], f32, shared.dyn>
    tile.copy %S to %B {tile.bulk_store} : !tile.buffer<[256], f32, shared.dyn> to !tile.buffer<[256], f32, global>
    tile.copy %A to %S {tile.bulk_load = 1024 : i64} : !tile.buffer<[256], f32, global> to !tile.buffer<[256], f32, shared.dyn>
    tile.parallel (%i) in [256] {
      %v = tile.load %S[%i] : !tile.buffer<[256], f32, shared.dyn>
      tile.store %v, %B[%i] : !tile.buffer<[256], f32, global>
    }
  }
}
tile.func @plain_copies(%A: !tile.buffer<[256], f32, global>, %B: !tile.buffer<[256], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[256], f32, shared.dyn>
    tile.copy %A to %S : !tile.buffer<[256], f32, global> to !tile.buffer<[256], f32, shared.dyn>
    tile.copy %S to %B : !tile.buffer<[256], f32, shared.dyn> to !tile.buffer<[256], f32, global>
    tile.copy %A to %S : !tile.buffer<[256], f32, global> to !tile.buffer<[256], f32, shared.dyn>
    tile.parallel (%i) in [256] {
      %v = tile.load %S[%i] : !tile.buffer<[256], f32, shared.dyn>
      tile.store %v, %B[%i] : !tile.buffer<[256], f32, global>
    }
  }
}
