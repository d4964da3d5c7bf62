// RUN: tlc-opt --tile-plan-scratch-areas=budget=6000 %s | FileCheck %s
// RUN: tlc-opt --tile-plan-scratch-areas %s | FileCheck %s --check-prefix=NOBUDGET

// The needs are on the ops here (the CUDA/HIP target measures them when
// tlc-build lowers); the pass places them. Under the budget: the scratch
// after the planned buffers (1000 bytes) at the next 128-byte boundary,
// the exchange area after it, each sized by its largest use; no use ends
// with a barrier.
// CHECK-LABEL: tile.func @after_the_buffers
// CHECK: tile.kernel {{.*}} attributes {tile.area_bytes = 1792 : i64, tile.areas_planned, tile.exchange_offset = 1536 : i64, tile.scratch_offset = 1024 : i64, tile.shared_bytes = 1000 : i64}
// CHECK-NOT: tile.area_barrier
// CHECK: tile.copy %{{.*}} to %{{.*}} {tile.exchange_bytes = 256 : i64}
// NOBUDGET-LABEL: tile.func @after_the_buffers
// NOBUDGET-NOT: tile.areas_planned
tile.func @after_the_buffers(%X: !tile.buffer<[250], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] attributes {tile.shared_bytes = 1000 : i64} {
    %s = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[250], f32, shared>
    %f = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    tile.copy %X to %s {tile.scratch_bytes = 512 : i64} : !tile.buffer<[250], f32, global> to !tile.buffer<[250], f32, shared>
    tile.clear %f {tile.scratch_bytes = 384 : i64} : !tile.buffer<[64], f32, local.fragment>
    tile.copy %s to %X {tile.exchange_bytes = 256 : i64} : !tile.buffer<[250], f32, shared> to !tile.buffer<[250], f32, global>
  }
}

// Past the budget (4096 bytes of buffers + 2048 of exchange > 6000): the
// exchange goes over %a, dead where it is used (%a is written whole before
// it is read again), and that use ends with a barrier (%a's next write
// must wait for the area's last readers). %b is live there.
// CHECK-LABEL: tile.func @over_a_dead_buffer
// CHECK: tile.kernel {{.*}} attributes {tile.area_bytes = 4096 : i64, tile.areas_planned, tile.exchange_offset = 0 : i64, tile.shared_bytes = 4096 : i64}
// CHECK: tile.clear %{{.*}} {tile.area_barrier, tile.exchange_bytes = 2048 : i64}
tile.func @over_a_dead_buffer(%X: !tile.buffer<[512], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] attributes {tile.shared_bytes = 4096 : i64} {
    %a = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[512], f32, shared>
    %b = tile.alloc {tile.offset = 2048 : i64} : !tile.buffer<[512], f32, shared>
    %f = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    tile.copy %X to %a : !tile.buffer<[512], f32, global> to !tile.buffer<[512], f32, shared>
    tile.copy %X to %b : !tile.buffer<[512], f32, global> to !tile.buffer<[512], f32, shared>
    tile.copy %a to %X : !tile.buffer<[512], f32, shared> to !tile.buffer<[512], f32, global>
    tile.clear %f {tile.exchange_bytes = 2048 : i64} : !tile.buffer<[64], f32, local.fragment>
    tile.copy %X to %a : !tile.buffer<[512], f32, global> to !tile.buffer<[512], f32, shared>
    tile.copy %b to %X : !tile.buffer<[512], f32, shared> to !tile.buffer<[512], f32, global>
  }
}

// A published exchange (scalar code reads it after its last barrier)
// shares no buffer's bytes: it stays after them, past the budget (the
// printer reports the kernel's size).
// CHECK-LABEL: tile.func @published
// CHECK: tile.kernel {{.*}} attributes {tile.area_bytes = 6144 : i64, tile.areas_planned, tile.exchange_offset = 4096 : i64, tile.shared_bytes = 4096 : i64}
// CHECK-NOT: tile.area_barrier
// CHECK-LABEL: tile.func @warp_specialised
tile.func @published(%X: !tile.buffer<[512], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] attributes {tile.shared_bytes = 4096 : i64} {
    %a = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[512], f32, shared>
    %b = tile.alloc {tile.offset = 2048 : i64} : !tile.buffer<[512], f32, shared>
    %f = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    tile.copy %X to %a : !tile.buffer<[512], f32, global> to !tile.buffer<[512], f32, shared>
    tile.copy %X to %b : !tile.buffer<[512], f32, global> to !tile.buffer<[512], f32, shared>
    tile.copy %a to %X : !tile.buffer<[512], f32, shared> to !tile.buffer<[512], f32, global>
    tile.clear %f {tile.exchange_bytes = 2048 : i64, tile.exchange_publishes} : !tile.buffer<[64], f32, local.fragment>
    tile.copy %X to %a : !tile.buffer<[512], f32, global> to !tile.buffer<[512], f32, shared>
    tile.copy %b to %X : !tile.buffer<[512], f32, shared> to !tile.buffer<[512], f32, global>
  }
}

// A warp-specialised kernel's threads do not run in program order: its
// areas stay after the buffers.
// CHECK: tile.kernel {{.*}} attributes {tile.area_bytes = 6144 : i64, tile.areas_planned, tile.exchange_offset = 4096 : i64, tile.shared_bytes = 4096 : i64, tile.ws_producer_threads = 128 : i64}
// CHECK-NOT: tile.area_barrier
tile.func @warp_specialised(%X: !tile.buffer<[512], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] attributes {tile.shared_bytes = 4096 : i64, tile.ws_producer_threads = 128 : i64} {
    %a = tile.alloc {tile.offset = 0 : i64} : !tile.buffer<[512], f32, shared>
    %b = tile.alloc {tile.offset = 2048 : i64} : !tile.buffer<[512], f32, shared>
    %f = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    tile.copy %X to %a : !tile.buffer<[512], f32, global> to !tile.buffer<[512], f32, shared>
    tile.copy %X to %b : !tile.buffer<[512], f32, global> to !tile.buffer<[512], f32, shared>
    tile.copy %a to %X : !tile.buffer<[512], f32, shared> to !tile.buffer<[512], f32, global>
    tile.clear %f {tile.exchange_bytes = 2048 : i64} : !tile.buffer<[64], f32, local.fragment>
    tile.copy %X to %a : !tile.buffer<[512], f32, global> to !tile.buffer<[512], f32, shared>
    tile.copy %b to %X : !tile.buffer<[512], f32, shared> to !tile.buffer<[512], f32, global>
  }
}
