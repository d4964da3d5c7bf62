// Input of shared-storage-plan.mlir: shared storage plans the CUDA
// printer refuses, one function each, made from examples/gemm.py lowered
// for sm_80 (and sm_90a: the last); the error is at the allocation, the
// other functions still print.
module attributes {tile.gpu_lowered, tile.gpu_target = "cuda:sm_80", tile.pipeline_waits_planned, tile.ranges_planned, tile.storage_planned, tile.vectors_planned} {
// wrong_chunks
// CHECK: x.py:1:1: error: malformed shared storage plan: a row swizzle of 8 chunks on rows of 64 bytes (it permutes a row's own 16-byte chunks: 2, 4 or a multiple of 8 of them) (tile-plan-shared-storage)
  tile.func @wrong_chunks(%A: !tile.buffer<[4096, 4096], f16, global>, %B: !tile.buffer<[4096, 4096], f16, global>, %C: !tile.buffer<[4096, 4096], f16, global>) {
    tile.kernel (%bx, %by) grid [32, 32] threads [128] attributes {tile.area_bytes = 49152 : i64, tile.areas_planned, tile.exchanges_planned, tile.shared_bytes = 49152 : i64} {
      %shared = tile.alloc {layout = #tile.layout<[128, 32], map = ["32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8"], kind = "swizzle 64B", bits = 16>, tile.offset = 0 : i64, tile.stages = 3 : i64, tile.storage = {chunks = 8 : i64, kind = "row_swizzle"}} : !tile.buffer<[128, 32], f16, shared.dyn> loc("x.py":1:1)
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

// unknown_kind
// CHECK: x.py:2:1: error: malformed shared storage plan: unknown tile.storage kind 'zigzag' (tile-plan-shared-storage)
  tile.func @unknown_kind(%A: !tile.buffer<[4096, 4096], f16, global>, %B: !tile.buffer<[4096, 4096], f16, global>, %C: !tile.buffer<[4096, 4096], f16, global>) {
    tile.kernel (%bx, %by) grid [32, 32] threads [128] attributes {tile.area_bytes = 49152 : i64, tile.areas_planned, tile.exchanges_planned, tile.shared_bytes = 49152 : i64} {
      %shared = tile.alloc {layout = #tile.layout<[128, 32], map = ["32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8"], kind = "swizzle 64B", bits = 16>, tile.offset = 0 : i64, tile.stages = 3 : i64, tile.storage = {chunks = 4 : i64, kind = "zigzag"}} : !tile.buffer<[128, 32], f16, shared.dyn> loc("x.py":2:1)
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

// no_chunks
// CHECK: x.py:3:1: error: malformed shared storage plan: tile.storage row_swizzle needs an integer `chunks` (tile-plan-shared-storage)
  tile.func @no_chunks(%A: !tile.buffer<[4096, 4096], f16, global>, %B: !tile.buffer<[4096, 4096], f16, global>, %C: !tile.buffer<[4096, 4096], f16, global>) {
    tile.kernel (%bx, %by) grid [32, 32] threads [128] attributes {tile.area_bytes = 49152 : i64, tile.areas_planned, tile.exchanges_planned, tile.shared_bytes = 49152 : i64} {
      %shared = tile.alloc {layout = #tile.layout<[128, 32], map = ["32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8"], kind = "swizzle 64B", bits = 16>, tile.offset = 0 : i64, tile.stages = 3 : i64, tile.storage = {kind = "row_swizzle"}} : !tile.buffer<[128, 32], f16, shared.dyn> loc("x.py":3:1)
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

// not_dictionary
// CHECK: x.py:4:1: error: malformed shared storage plan: tile.storage must be a dictionary with a string `kind` (tile-plan-shared-storage)
  tile.func @not_dictionary(%A: !tile.buffer<[4096, 4096], f16, global>, %B: !tile.buffer<[4096, 4096], f16, global>, %C: !tile.buffer<[4096, 4096], f16, global>) {
    tile.kernel (%bx, %by) grid [32, 32] threads [128] attributes {tile.area_bytes = 49152 : i64, tile.areas_planned, tile.exchanges_planned, tile.shared_bytes = 49152 : i64} {
      %shared = tile.alloc {layout = #tile.layout<[128, 32], map = ["32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8"], kind = "swizzle 64B", bits = 16>, tile.offset = 0 : i64, tile.stages = 3 : i64, tile.storage = "row_swizzle"} : !tile.buffer<[128, 32], f16, shared.dyn> loc("x.py":4:1)
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

// panels_without_descriptors
// CHECK: x.py:5:1: error: malformed shared storage plan: descriptor panels of 64-byte rows on a buffer whose descriptors read none (tile-plan-shared-storage)
  tile.func @panels_without_descriptors(%A: !tile.buffer<[4096, 4096], f16, global>, %B: !tile.buffer<[4096, 4096], f16, global>, %C: !tile.buffer<[4096, 4096], f16, global>) {
    tile.kernel (%bx, %by) grid [32, 32] threads [128] attributes {tile.area_bytes = 49152 : i64, tile.areas_planned, tile.exchanges_planned, tile.shared_bytes = 49152 : i64} {
      %shared = tile.alloc {layout = #tile.layout<[128, 32], map = ["32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8"], kind = "swizzle 64B", bits = 16>, tile.offset = 0 : i64, tile.stages = 3 : i64, tile.storage = {chunks = 4 : i64, kind = "panels"}} : !tile.buffer<[128, 32], f16, shared.dyn> loc("x.py":5:1)
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

// lds_on_cuda
// CHECK: x.py:6:1: error: malformed shared storage plan: an LDS swizzle (vec 4, per_phase 2, max_phase 8) on a CUDA target (tile-plan-shared-storage)
  tile.func @lds_on_cuda(%A: !tile.buffer<[4096, 4096], f16, global>, %B: !tile.buffer<[4096, 4096], f16, global>, %C: !tile.buffer<[4096, 4096], f16, global>) {
    tile.kernel (%bx, %by) grid [32, 32] threads [128] attributes {tile.area_bytes = 49152 : i64, tile.areas_planned, tile.exchanges_planned, tile.shared_bytes = 49152 : i64} {
      %shared = tile.alloc {layout = #tile.layout<[128, 32], map = ["32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8"], kind = "swizzle 64B", bits = 16>, tile.offset = 0 : i64, tile.stages = 3 : i64, tile.storage = {kind = "lds_swizzle", max_phase = 8 : i64, per_phase = 2 : i64, vec = 4 : i64}} : !tile.buffer<[128, 32], f16, shared.dyn> loc("x.py":6:1)
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

// on_fragment
// CHECK: x.py:7:1: error: malformed shared storage plan: tile.storage on an allocation that is no static shared buffer (tile-plan-shared-storage)
  tile.func @on_fragment(%A: !tile.buffer<[4096, 4096], f16, global>, %B: !tile.buffer<[4096, 4096], f16, global>, %C: !tile.buffer<[4096, 4096], f16, global>) {
    tile.kernel (%bx, %by) grid [32, 32] threads [128] attributes {tile.area_bytes = 49152 : i64, tile.areas_planned, tile.exchanges_planned, tile.shared_bytes = 49152 : i64} {
      %shared = tile.alloc {layout = #tile.layout<[128, 32], map = ["32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8"], kind = "swizzle 64B", bits = 16>, tile.offset = 0 : i64, tile.stages = 3 : i64, tile.storage = {chunks = 4 : i64, kind = "row_swizzle"}} : !tile.buffer<[128, 32], f16, shared.dyn>
      %shared_0 = tile.alloc {layout = #tile.layout<[32, 128], map = ["2048 * (j // 64) + 64 * i + 8 * ((j // 8) % 8 ^ i % 8) + j % 8"], kind = "swizzle 128B", bits = 16>, tile.offset = 24576 : i64, tile.stages = 3 : i64, tile.storage = {chunks = 16 : i64, kind = "row_swizzle"}} : !tile.buffer<[32, 128], f16, shared.dyn>
      %frag = tile.alloc {layout = #tile.fragment<[128, 128], thread = "64 * (j // 64) + 32 * (i // 64) + 4 * (i % 8) + (j // 2) % 4", index = ["32 * ((i // 16) % 4) + 4 * ((j // 8) % 8) + 2 * ((i // 8) % 2) + j % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>, tile.storage = {chunks = 4 : i64, kind = "row_swizzle"}} : !tile.buffer<[128, 128], f32, local.fragment> loc("x.py":7:1)
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

// missing_panels
// CHECK: x.py:8:1: error: malformed shared storage plan: matrix descriptors read this buffer in panels of 64-byte rows, and the plan stores it otherwise (tile-plan-shared-storage)
  tile.func @missing_panels(%A: !tile.buffer<[4096, 4096], f16, global>, %B: !tile.buffer<[4096, 4096], f16, global>, %C: !tile.buffer<[4096, 4096], f16, global>) {
    tile.kernel (%bx, %by) grid [32, 32] threads [128] attributes {tile.area_bytes = 84992 : i64, tile.areas_planned, tile.exchanges_planned, tile.persistent_ctas = 264 : i64, tile.persistent_order = "row", tile.persistent_panel = 10 : i64, tile.shared_bytes = 84992 : i64, tile.ws_blocks_per_sm = 2 : i64, tile.ws_max_nreg = array<i64: 40, 216>, tile.ws_producer_threads = 128 : i64} {
      %shared = tile.alloc {layout = #tile.layout<[128, 32], map = ["32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8"], kind = "swizzle 64B", bits = 16>, tile.align = 1024 : i64, tile.offset = 0 : i64, tile.stages = 3 : i64, tile.swizzle = 64 : i64} : !tile.buffer<[128, 32], f16, shared.dyn> loc("x.py":8:1)
      %shared_0 = tile.alloc {layout = #tile.layout<[32, 128], map = ["2048 * (j // 64) + 64 * i + 8 * ((j // 8) % 8 ^ i % 8) + j % 8"], kind = "swizzle 128B", bits = 16>, tile.align = 1024 : i64, tile.offset = 24576 : i64, tile.stages = 3 : i64, tile.storage = {chunks = 8 : i64, kind = "panels"}, tile.swizzle = 128 : i64} : !tile.buffer<[32, 128], f16, shared.dyn>
      %frag = tile.alloc {layout = #tile.fragment<[128, 128], thread = "32 * ((i // 16) % 4) + 4 * (i % 8) + (j // 2) % 4", index = ["64 * (i // 64) + 4 * (j // 8) + 2 * ((i // 8) % 2) + j % 2"], origin = "wgmma.C", warp_rows = 4, warp_cols = 1>} : !tile.buffer<[128, 128], f32, local.fragment>
      tile.use_swizzle 10 row
      tile.clear %frag : !tile.buffer<[128, 128], f32, local.fragment>
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      tile.pipelined %ko = %c0 to %c128 stages 3 attributes {tile.stages = 3 : i64, tile.tma_barriers = 49152 : i64, tile.ws_empty_barriers = 49176 : i64} {
        %c128_3 = arith.constant 128 : index
        %3 = arith.muli %by, %c128_3 : index
        %c32 = arith.constant 32 : index
        %4 = arith.muli %ko, %c32 : index
        %5 = tile.region %A[%3, %4] : !tile.buffer<[4096, 4096], f16, global> to !tile.buffer<[128, 32], f16, global>
        tile.copy %5 to %shared {tile.bounds = [{dims = ["in", "in"]}, {}], tile.prefetch = 0 : i64, tile.tma = 0 : i64} : !tile.buffer<[128, 32], f16, global> to !tile.buffer<[128, 32], f16, shared.dyn>
        %c32_4 = arith.constant 32 : index
        %6 = arith.muli %ko, %c32_4 : index
        %c128_5 = arith.constant 128 : index
        %7 = arith.muli %bx, %c128_5 : index
        %8 = tile.region %B[%6, %7] : !tile.buffer<[4096, 4096], f16, global> to !tile.buffer<[32, 128], f16, global>
        tile.copy %8 to %shared_0 {tile.bounds = [{dims = ["in", "in"]}, {}], tile.prefetch = 1 : i64, tile.tma = 1 : i64} : !tile.buffer<[32, 128], f16, global> to !tile.buffer<[32, 128], f16, shared.dyn>
        tile.gemm %shared, %shared_0, %frag {tile.instr = "wgmma", tile.wgmma_wait = 1 : i64} : !tile.buffer<[128, 32], f16, shared.dyn>, !tile.buffer<[32, 128], f16, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>
      }
      %c128_1 = arith.constant 128 : index
      %0 = arith.muli %by, %c128_1 : index
      %c128_2 = arith.constant 128 : index
      %1 = arith.muli %bx, %c128_2 : index
      %2 = tile.region %C[%0, %1] : !tile.buffer<[4096, 4096], f16, global> to !tile.buffer<[128, 128], f16, global>
      tile.copy %frag to %2 {tile.bounds = [{}, {dims = ["in", "in"]}], tile.epilogue_area = 50176 : i64} : !tile.buffer<[128, 128], f32, local.fragment> to !tile.buffer<[128, 128], f16, global>
    }
  }
}
