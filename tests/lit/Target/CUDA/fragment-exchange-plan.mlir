// RUN: tlc-translate --tile-to-cuda %s | FileCheck %s
// RUN: not tlc-translate --tile-to-cuda %S/Inputs/fragment-exchange-plan-malformed.mlir 2>&1 >/dev/null | FileCheck %S/Inputs/fragment-exchange-plan-malformed.mlir

// The CUDA printer exchanges what tile-plan-fragment-exchanges recorded
// (the lowered transpose_read kernel of fragment-exchange.py), not what it
// would choose: here the store into buf_3 (%frag_1), which the loop's own
// layout holds, goes through a second tile after buf_2's (16-byte aligned:
// 8192 + 16384), and the registers are loaded back after the loop; correct,
// only slower. The area is placed again for the larger need.
// CHECK-LABEL: extra_kernel(
// CHECK: float *exchanged = reinterpret_cast<float *>(smem + 8192);  // buf_2, row-major
// CHECK: float *exchanged_1 = reinterpret_cast<float *>(smem + 24576);  // buf_3, row-major
// CHECK: exchanged_1[(i0_{{[0-9]+}}) * 64 + i1_{{[0-9]+}}] = x;
// CHECK: buf_3[r_{{[0-9]+}}] = exchanged_1[
//
// Without a plan (no tile.exchanges_planned on the kernel) the printer
// chooses itself, as the pass would: buf_2 alone.
// CHECK-LABEL: own_kernel(
// CHECK: float *exchanged = reinterpret_cast<float *>(smem + 8192);  // buf_2, row-major
// CHECK-NOT: exchanged_1

module attributes {tile.gpu_lowered, tile.gpu_target = "cuda:sm_80", tile.pipeline_waits_planned, tile.ranges_planned, tile.vectors_planned} {
  tile.func @extra(%A: !tile.buffer<[64, 32], f16, global>, %B: !tile.buffer<[32, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>) {
    tile.kernel (%bx) grid [1] threads [128] attributes {tile.area_bytes = 24576 : i64, tile.areas_planned, tile.exchange_offset = 8192 : i64, tile.exchanges_planned, tile.shared_bytes = 8192 : i64} {
      %shared = tile.alloc {layout = #tile.layout<[64, 32], map = ["32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8"], kind = "swizzle 64B", bits = 16>, tile.offset = 0 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
      %shared_0 = tile.alloc {layout = #tile.layout<[32, 64], map = ["64 * i + 8 * (j // 8 ^ i % 8) + j % 8"], kind = "swizzle 128B", bits = 16>, tile.offset = 4096 : i64} : !tile.buffer<[32, 64], f16, shared.dyn>
      %frag = tile.alloc {layout = #tile.fragment<[64, 64], thread = "64 * (j // 32) + 32 * (i // 32) + 4 * (i % 8) + (j // 2) % 4", index = ["16 * ((i // 16) % 2) + 4 * ((j // 8) % 4) + 2 * ((i // 8) % 2) + j % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>} : !tile.buffer<[64, 64], f32, local.fragment>
      %frag_1 = tile.alloc {layout = #tile.fragment<[64, 64], thread = "64 * (i // 32) + 32 * (j // 32) + 4 * (j % 8) + (i // 2) % 4", index = ["16 * ((j // 16) % 2) + 4 * ((i // 8) % 4) + 2 * ((j // 8) % 2) + i % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>} : !tile.buffer<[64, 64], f32, local.fragment>
      tile.copy %A to %shared {tile.bounds = [{dims = ["in", "in"]}, {}], tile.instr = "vector", tile.vec = 8 : i64} : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.copy %B to %shared_0 {tile.bounds = [{dims = ["in", "in"]}, {}], tile.instr = "vector", tile.vec = 8 : i64} : !tile.buffer<[32, 64], f16, global> to !tile.buffer<[32, 64], f16, shared.dyn>
      tile.clear %frag : !tile.buffer<[64, 64], f32, local.fragment>
      tile.barrier "shared-memory dependence"
      tile.gemm %shared, %shared_0, %frag : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
      tile.parallel (%i, %j) in [64, 64] attributes {loop_layout = #tile.fragment<[64, 64], thread = "64 * (i // 32) + 32 * (j // 32) + 4 * (j % 8) + (i // 2) % 4", index = ["16 * ((j // 16) % 2) + 4 * ((i // 8) % 4) + 2 * ((j // 8) % 2) + i % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>, tile.exchange_bytes = 16384 : i64, tile.loop_dims = array<i64: 0, 1>, tile.partition = "fragment"} {
        %0 = tile.load %frag[%j, %i] {tile.exchange_tile = 0 : i64} : !tile.buffer<[64, 64], f32, local.fragment>
        tile.store %0, %frag_1[%i, %j] {tile.exchange_tile = 1 : i64, tile.partitions_loop} : !tile.buffer<[64, 64], f32, local.fragment>
      }
      tile.copy %frag_1 to %C {tile.bounds = [{}, {dims = ["in", "in"]}]} : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
    }
  }
  tile.func @own(%A: !tile.buffer<[64, 32], f16, global>, %B: !tile.buffer<[32, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>) {
    tile.kernel (%bx) grid [1] threads [128] attributes {tile.area_bytes = 24576 : i64, tile.areas_planned, tile.exchange_offset = 8192 : i64, tile.shared_bytes = 8192 : i64} {
      %shared = tile.alloc {layout = #tile.layout<[64, 32], map = ["32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8"], kind = "swizzle 64B", bits = 16>, tile.offset = 0 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
      %shared_0 = tile.alloc {layout = #tile.layout<[32, 64], map = ["64 * i + 8 * (j // 8 ^ i % 8) + j % 8"], kind = "swizzle 128B", bits = 16>, tile.offset = 4096 : i64} : !tile.buffer<[32, 64], f16, shared.dyn>
      %frag = tile.alloc {layout = #tile.fragment<[64, 64], thread = "64 * (j // 32) + 32 * (i // 32) + 4 * (i % 8) + (j // 2) % 4", index = ["16 * ((i // 16) % 2) + 4 * ((j // 8) % 4) + 2 * ((i // 8) % 2) + j % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>} : !tile.buffer<[64, 64], f32, local.fragment>
      %frag_1 = tile.alloc {layout = #tile.fragment<[64, 64], thread = "64 * (i // 32) + 32 * (j // 32) + 4 * (j % 8) + (i // 2) % 4", index = ["16 * ((j // 16) % 2) + 4 * ((i // 8) % 4) + 2 * ((j // 8) % 2) + i % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>} : !tile.buffer<[64, 64], f32, local.fragment>
      tile.copy %A to %shared {tile.bounds = [{dims = ["in", "in"]}, {}], tile.instr = "vector", tile.vec = 8 : i64} : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.copy %B to %shared_0 {tile.bounds = [{dims = ["in", "in"]}, {}], tile.instr = "vector", tile.vec = 8 : i64} : !tile.buffer<[32, 64], f16, global> to !tile.buffer<[32, 64], f16, shared.dyn>
      tile.clear %frag : !tile.buffer<[64, 64], f32, local.fragment>
      tile.barrier "shared-memory dependence"
      tile.gemm %shared, %shared_0, %frag : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
      tile.parallel (%i, %j) in [64, 64] attributes {loop_layout = #tile.fragment<[64, 64], thread = "64 * (i // 32) + 32 * (j // 32) + 4 * (j % 8) + (i // 2) % 4", index = ["16 * ((j // 16) % 2) + 4 * ((i // 8) % 4) + 2 * ((j // 8) % 2) + i % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>, tile.exchange_bytes = 16384 : i64, tile.loop_dims = array<i64: 0, 1>, tile.partition = "fragment"} {
        %0 = tile.load %frag[%j, %i] : !tile.buffer<[64, 64], f32, local.fragment>
        tile.store %0, %frag_1[%i, %j] {tile.partitions_loop} : !tile.buffer<[64, 64], f32, local.fragment>
      }
      tile.copy %frag_1 to %C {tile.bounds = [{}, {dims = ["in", "in"]}]} : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
    }
  }
}
