// RUN: tlc-translate --tile-to-cuda %s | FileCheck %s
// RUN: not tlc-translate --tile-to-cuda %S/Inputs/shared-storage-plan-malformed.mlir 2>&1 >/dev/null | FileCheck %S/Inputs/shared-storage-plan-malformed.mlir

// The CUDA printer addresses shared tiles as tile-plan-shared-storage
// recorded (examples/gemm.py lowered for sm_80), not as it would choose:
// in @linear_a the A tile has no tile.storage, so its cp.async stores and
// ldmatrix reads are row-major (correct, with bank conflicts), B stays
// swizzled; @recorded is the pipeline's own plan.
// CHECK-LABEL: linear_a_kernel(
// CHECK-NOT: swizzledIndex<4>
// CHECK: cpAsync<16>(&buf[(i0) * 32 + i1]
// CHECK: swizzledIndex<16>(i0_1, i1_1)
// CHECK-NOT: swizzledIndex<4>
// CHECK-LABEL: recorded_kernel(
// CHECK: cpAsync<16>(&buf[tlc::cuda::swizzledIndex<4>(i0, i1)]
// CHECK: swizzledIndex<16>(i0_1, i1_1)
//
// Without tile.storage_planned on the module (IR that did not go through
// the pass) the printer chooses itself, as the pass would:
// RUN: sed -e 's/, tile.storage_planned//' -e 's/, tile.storage = {[^}]*}//' %s | tlc-translate --tile-to-cuda | FileCheck %s --check-prefix=OWN
// OWN-LABEL: linear_a_kernel(
// OWN: cpAsync<16>(&buf[tlc::cuda::swizzledIndex<4>(i0, i1)]

module attributes {tile.gpu_lowered, tile.gpu_target = "cuda:sm_80", tile.pipeline_waits_planned, tile.ranges_planned, tile.storage_planned, tile.vectors_planned} {
  tile.func @linear_a(%A: !tile.buffer<[4096, 4096], f16, global>, %B: !tile.buffer<[4096, 4096], f16, global>, %C: !tile.buffer<[4096, 4096], f16, global>) {
    tile.kernel (%bx, %by) grid [32, 32] threads [128] attributes {tile.area_bytes = 49152 : i64, tile.areas_planned, tile.exchanges_planned, tile.shared_bytes = 49152 : i64} {
      %shared = tile.alloc {layout = #tile.layout<[128, 32], map = ["32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8"], kind = "swizzle 64B", bits = 16>, tile.offset = 0 : i64, tile.stages = 3 : i64} : !tile.buffer<[128, 32], f16, shared.dyn>
      %shared_0 = tile.alloc {layout = #tile.layout<[32, 128], map = ["2048 * (j // 64) + 64 * i + 8 * ((j // 8) % 8 ^ i % 8) + j % 8"], kind = "swizzle 128B", bits = 16>, tile.offset = 24576 : i64, tile.stages = 3 : i64, tile.storage = {chunks = 16 : i64, kind = "row_swizzle"}} : !tile.buffer<[32, 128], f16, shared.dyn>
      %frag = tile.alloc {layout = #tile.fragment<[128, 128], thread = "64 * (j // 64) + 32 * (i // 64) + 4 * (i % 8) + (j // 2) % 4", index = ["32 * ((i // 16) % 4) + 4 * ((j // 8) % 8) + 2 * ((i // 8) % 2) + j % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>} : !tile.buffer<[128, 128], f32, local.fragment>
      tile.use_swizzle 10 row
      tile.clear %frag : !tile.buffer<[128, 128], f32, local.fragment>
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      tile.pipelined %ko = %c0 to %c128 stages 3 attributes {tile.async_wait = 1 : i64, tile.stages = 3 : i64} {
        %c128_3 = arith.constant 128 : index
        %3 = arith.muli %by, %c128_3 : index
        %c32 = arith.constant 32 : index
        %4 = arith.muli %ko, %c32 : index
        %5 = tile.region %A[%3, %4] : !tile.buffer<[4096, 4096], f16, global> to !tile.buffer<[128, 32], f16, global>
        tile.copy %5 to %shared {tile.bounds = [{dims = ["in", "in"]}, {}], tile.instr = "cp.async", tile.prefetch = 0 : i64, tile.vec = 8 : i64, tile.zero_fill} : !tile.buffer<[128, 32], f16, global> to !tile.buffer<[128, 32], f16, shared.dyn>
        %c32_4 = arith.constant 32 : index
        %6 = arith.muli %ko, %c32_4 : index
        %c128_5 = arith.constant 128 : index
        %7 = arith.muli %bx, %c128_5 : index
        %8 = tile.region %B[%6, %7] : !tile.buffer<[4096, 4096], f16, global> to !tile.buffer<[32, 128], f16, global>
        tile.copy %8 to %shared_0 {tile.bounds = [{dims = ["in", "in"]}, {}], tile.instr = "cp.async", tile.prefetch = 1 : i64, tile.vec = 8 : i64, tile.zero_fill} : !tile.buffer<[32, 128], f16, global> to !tile.buffer<[32, 128], f16, shared.dyn>
        tile.gemm %shared, %shared_0, %frag : !tile.buffer<[128, 32], f16, shared.dyn>, !tile.buffer<[32, 128], f16, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>
      }
      %c128_1 = arith.constant 128 : index
      %0 = arith.muli %by, %c128_1 : index
      %c128_2 = arith.constant 128 : index
      %1 = arith.muli %bx, %c128_2 : index
      %2 = tile.region %C[%0, %1] : !tile.buffer<[4096, 4096], f16, global> to !tile.buffer<[128, 128], f16, global>
      tile.copy %frag to %2 {tile.bounds = [{}, {dims = ["in", "in"]}]} : !tile.buffer<[128, 128], f32, local.fragment> to !tile.buffer<[128, 128], f16, global>
    }
  }
  tile.func @recorded(%A: !tile.buffer<[4096, 4096], f16, global>, %B: !tile.buffer<[4096, 4096], f16, global>, %C: !tile.buffer<[4096, 4096], f16, global>) {
    tile.kernel (%bx, %by) grid [32, 32] threads [128] attributes {tile.area_bytes = 49152 : i64, tile.areas_planned, tile.exchanges_planned, tile.shared_bytes = 49152 : i64} {
      %shared = tile.alloc {layout = #tile.layout<[128, 32], map = ["32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8"], kind = "swizzle 64B", bits = 16>, tile.offset = 0 : i64, tile.stages = 3 : i64, tile.storage = {chunks = 4 : i64, kind = "row_swizzle"}} : !tile.buffer<[128, 32], f16, shared.dyn>
      %shared_0 = tile.alloc {layout = #tile.layout<[32, 128], map = ["2048 * (j // 64) + 64 * i + 8 * ((j // 8) % 8 ^ i % 8) + j % 8"], kind = "swizzle 128B", bits = 16>, tile.offset = 24576 : i64, tile.stages = 3 : i64, tile.storage = {chunks = 16 : i64, kind = "row_swizzle"}} : !tile.buffer<[32, 128], f16, shared.dyn>
      %frag = tile.alloc {layout = #tile.fragment<[128, 128], thread = "64 * (j // 64) + 32 * (i // 64) + 4 * (i % 8) + (j // 2) % 4", index = ["32 * ((i // 16) % 4) + 4 * ((j // 8) % 8) + 2 * ((i // 8) % 2) + j % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>} : !tile.buffer<[128, 128], f32, local.fragment>
      tile.use_swizzle 10 row
      tile.clear %frag : !tile.buffer<[128, 128], f32, local.fragment>
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      tile.pipelined %ko = %c0 to %c128 stages 3 attributes {tile.async_wait = 1 : i64, tile.stages = 3 : i64} {
        %c128_3 = arith.constant 128 : index
        %3 = arith.muli %by, %c128_3 : index
        %c32 = arith.constant 32 : index
        %4 = arith.muli %ko, %c32 : index
        %5 = tile.region %A[%3, %4] : !tile.buffer<[4096, 4096], f16, global> to !tile.buffer<[128, 32], f16, global>
        tile.copy %5 to %shared {tile.bounds = [{dims = ["in", "in"]}, {}], tile.instr = "cp.async", tile.prefetch = 0 : i64, tile.vec = 8 : i64, tile.zero_fill} : !tile.buffer<[128, 32], f16, global> to !tile.buffer<[128, 32], f16, shared.dyn>
        %c32_4 = arith.constant 32 : index
        %6 = arith.muli %ko, %c32_4 : index
        %c128_5 = arith.constant 128 : index
        %7 = arith.muli %bx, %c128_5 : index
        %8 = tile.region %B[%6, %7] : !tile.buffer<[4096, 4096], f16, global> to !tile.buffer<[32, 128], f16, global>
        tile.copy %8 to %shared_0 {tile.bounds = [{dims = ["in", "in"]}, {}], tile.instr = "cp.async", tile.prefetch = 1 : i64, tile.vec = 8 : i64, tile.zero_fill} : !tile.buffer<[32, 128], f16, global> to !tile.buffer<[32, 128], f16, shared.dyn>
        tile.gemm %shared, %shared_0, %frag : !tile.buffer<[128, 32], f16, shared.dyn>, !tile.buffer<[32, 128], f16, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>
      }
      %c128_1 = arith.constant 128 : index
      %0 = arith.muli %by, %c128_1 : index
      %c128_2 = arith.constant 128 : index
      %1 = arith.muli %bx, %c128_2 : index
      %2 = tile.region %C[%0, %1] : !tile.buffer<[4096, 4096], f16, global> to !tile.buffer<[128, 128], f16, global>
      tile.copy %frag to %2 {tile.bounds = [{}, {dims = ["in", "in"]}]} : !tile.buffer<[128, 128], f32, local.fragment> to !tile.buffer<[128, 128], f16, global>
    }
  }
}
