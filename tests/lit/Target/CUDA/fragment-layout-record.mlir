// RUN: tlc-translate --tile-to-cuda %s | FileCheck %s
// RUN: tlc-translate --tile-to-hip %s | FileCheck %s
// RUN: tlc-translate --tile-to-cuda %S/Inputs/fragment-layout-record-unrecorded.mlir | FileCheck %s --check-prefix=OWN
// RUN: not tlc-translate --tile-to-cuda %S/Inputs/fragment-layout-record-malformed.mlir 2>&1 | FileCheck %S/Inputs/fragment-layout-record-malformed.mlir
// RUN: not tlc-translate --tile-to-hip %S/Inputs/fragment-layout-record-malformed.mlir 2>&1 | FileCheck %S/Inputs/fragment-layout-record-malformed.mlir

// The CUDA and HIP printers lay a fragment out as
// tile-assign-fragment-layouts recorded (tile.fragment_layout on the
// allocation, tile.fragment_layouts_assigned on the kernel), not as they
// would choose: here each thread holds half a row, 32 consecutive
// elements (thread 2 * i + j // 32, register j % 32), so the copy reads
// row tid / 2 from column (tid % 2) * 32 in 16-byte vectors.
// CHECK-LABEL: recorded_kernel(
// CHECK: float buf[32];  // half rows · 32 regs/thread
// CHECK: const int i0 = ((tid >> 1) & 63);
// CHECK: const int i1 = (tid & 1) * 32 + r;
// CHECK: copyVector<16>(&buf[r], &arg0[(i0) * 64 + i1]);
//
// Without a record (hand-written IR) they choose themselves: the default
// partition, 8 rows of 16 threads with 4 columns each.
// OWN-LABEL: unrecorded_kernel(
// OWN: float buf[32];  // parallel · 32 regs/thread
// OWN: const int i0 = ((tid >> 4) & 7) + ((r >> 2) & 7) * 8;
// OWN: const int i1 = (tid & 15) * 4 + (r & 3);

tile.func @recorded(%X: !tile.buffer<[64, 64], f32, global>, %Y: !tile.buffer<[64, 64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] attributes {tile.fragment_layouts_assigned} {
    %s = tile.alloc {tile.fragment_layout = #tile.fragment<[64, 64], thread = "2 * i + j // 32", index = ["j % 32"], origin = "half rows">} : !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %X to %s : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %s to %Y : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
  }
}
