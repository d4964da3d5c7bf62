// RUN: tlc-opt --tile-assign-fragment-layouts=target=cuda:sm_80 %s | FileCheck %s
// The record round-trips: printed, parsed and printed again unchanged.
// RUN: tlc-opt --tile-assign-fragment-layouts=target=cuda:sm_80 %s | tlc-opt | FileCheck %s
// RUN: tlc-opt --tile-assign-fragment-layouts=target=hip:gfx942 %s | FileCheck %s --check-prefix=HIP
// RUN: tlc-opt --tile-assign-fragment-layouts=target=cpu %s | FileCheck %s --check-prefix=NONE
// RUN: tlc-opt --tile-assign-fragment-layouts %s | FileCheck %s --check-prefix=NONE
// In the GPU pipeline, before the exchange planning that reads it:
// RUN: tlc-build --emit=lowered --target=cuda:sm_80 %S/Inputs/fragment_exchanges.py 2>/dev/null | FileCheck %s --check-prefix=PIPE

// NONE-NOT: tile.fragment_layout

// A fragment no gemm or annotation constrains gets the default partition
// of the block (8 rows of 16 threads, 4 consecutive columns each); the
// reduction's destination the source's rows (each row on the 16 threads
// that hold it: replicated 16 times); a small fragment only scalar code
// uses is every thread's own.
// CHECK-LABEL: tile.func @rows
// CHECK: tile.kernel {{.*}}tile.fragment_layouts_assigned
// CHECK: tile.alloc {tile.fragment_layout = #tile.fragment<[64, 64], thread = "16 * (i % 8) + j // 4", index = ["4 * (i // 8) + j % 4"], origin = "parallel">}
// CHECK: tile.alloc {tile.fragment_layout = #tile.fragment<[64], thread = "16 * (i % 8) + rep", index = ["i // 8"], replicate = 16, origin = "parallel row">}
// CHECK: tile.alloc {tile.fragment_layout = #tile.fragment<[1], thread = "rep", index = ["i"], replicate = 128, origin = "replicated">}

// MFMA's gemm layouts on HIP, mma.sync's on CUDA.
// CHECK-LABEL: tile.func @gemm
// CHECK: tile.alloc {tile.fragment_layout = #tile.fragment<[64, 64], {{.*}}origin = "mma.C"
// HIP-LABEL: tile.func @gemm
// HIP: tile.alloc {tile.fragment_layout = #tile.fragment<[64, 64], {{.*}}origin = "mfma32.C"

// A kernel that cannot be laid out (two thread ranges share a fragment)
// is left unrecorded; the printer reports why.
// CHECK-LABEL: tile.func @two_ranges
// CHECK-NOT: tile.fragment_layout
// CHECK: tile.if

// PIPE: tile.kernel {{.*}}tile.fragment_layouts_assigned
// PIPE-COUNT-6: tile.alloc {{.*}}tile.fragment_layout = #tile.fragment<

tile.func @rows(%X: !tile.buffer<[64, 64], f32, global>, %Y: !tile.buffer<[64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %s = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %m = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    %t = tile.alloc : !tile.buffer<[1], f32, local.fragment>
    %c0 = arith.constant 0 : index
    tile.copy %X to %s : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[64, 64], f32, local.fragment>
    tile.reduce max %s to %m dim = 1 clear : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64], f32, local.fragment>
    %v = tile.load %m[%c0] : !tile.buffer<[64], f32, local.fragment>
    tile.store %v, %t[%c0] : !tile.buffer<[1], f32, local.fragment>
    tile.copy %m to %Y : !tile.buffer<[64], f32, local.fragment> to !tile.buffer<[64], f32, global>
  }
}

tile.func @gemm(%C: !tile.buffer<[64, 64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %b = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.gemm %a, %b, %c : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %c to %C : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
  }
}

tile.func @two_ranges(%X: !tile.buffer<[64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [256] {
    %f = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    %tx = tile.thread_binding 0
    %c128 = arith.constant 128 : index
    %lo = arith.cmpi slt, %tx, %c128 : index
    tile.if %lo {
      tile.copy %X to %f : !tile.buffer<[64], f32, global> to !tile.buffer<[64], f32, local.fragment>
    } else {
      tile.copy %f to %X : !tile.buffer<[64], f32, local.fragment> to !tile.buffer<[64], f32, global>
    }
  }
}
