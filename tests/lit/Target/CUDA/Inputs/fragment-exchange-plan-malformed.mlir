// Input of fragment-exchange-plan.mlir: fragment exchange plans the CUDA
// printer refuses, one function each, made from the lowered kernels of
// Target/CUDA/fragment-exchange.py (the error is at the op; the other
// functions still print).
module attributes {tile.gpu_lowered, tile.gpu_target = "cuda:sm_80", tile.pipeline_waits_planned, tile.ranges_planned, tile.vectors_planned} {
// The transposed read of %frag is not exchanged.
// CHECK: x.py:1:1: error: malformed fragment exchange plan: this loop accesses 'buffer' at elements its threads do not hold, and the plan does not exchange it (tile-plan-fragment-exchanges)
  tile.func @missing(%A: !tile.buffer<[64, 32], f16, global>, %B: !tile.buffer<[32, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>) {
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
        %0 = tile.load %frag[%j, %i] : !tile.buffer<[64, 64], f32, local.fragment>
        tile.store %0, %frag_1[%i, %j] {tile.partitions_loop} : !tile.buffer<[64, 64], f32, local.fragment>
      } loc("x.py":1:1)
      tile.copy %frag_1 to %C {tile.bounds = [{}, {dims = ["in", "in"]}]} : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
    }
  }
// A tile that is no integer.
// CHECK: x.py:2:1: error: malformed fragment exchange plan: tile.exchange_tile must be a non-negative integer (tile-plan-fragment-exchanges)
  tile.func @not_integer(%A: !tile.buffer<[64, 32], f16, global>, %B: !tile.buffer<[32, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>) {
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
        %0 = tile.load %frag[%j, %i] {tile.exchange_tile = "first"} : !tile.buffer<[64, 64], f32, local.fragment> loc("x.py":2:1)
        tile.store %0, %frag_1[%i, %j] {tile.partitions_loop} : !tile.buffer<[64, 64], f32, local.fragment>
      }
      tile.copy %frag_1 to %C {tile.bounds = [{}, {dims = ["in", "in"]}]} : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
    }
  }
// A negative tile.
// CHECK: x.py:3:1: error: malformed fragment exchange plan: tile.exchange_tile must be a non-negative integer (tile-plan-fragment-exchanges)
  tile.func @negative(%A: !tile.buffer<[64, 32], f16, global>, %B: !tile.buffer<[32, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>) {
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
        %0 = tile.load %frag[%j, %i] {tile.exchange_tile = -1 : i64} : !tile.buffer<[64, 64], f32, local.fragment> loc("x.py":3:1)
        tile.store %0, %frag_1[%i, %j] {tile.partitions_loop} : !tile.buffer<[64, 64], f32, local.fragment>
      }
      tile.copy %frag_1 to %C {tile.bounds = [{}, {dims = ["in", "in"]}]} : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
    }
  }
// Tiles that do not number from 0.
// CHECK: x.py:4:1: error: malformed fragment exchange plan: no fragment in exchange tile 0 of 2 (tile-plan-fragment-exchanges)
  tile.func @gap(%A: !tile.buffer<[64, 32], f16, global>, %B: !tile.buffer<[32, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>) {
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
        %0 = tile.load %frag[%j, %i] {tile.exchange_tile = 1 : i64} : !tile.buffer<[64, 64], f32, local.fragment>
        tile.store %0, %frag_1[%i, %j] {tile.partitions_loop} : !tile.buffer<[64, 64], f32, local.fragment>
      } loc("x.py":4:1)
      tile.copy %frag_1 to %C {tile.bounds = [{}, {dims = ["in", "in"]}]} : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
    }
  }
// Two fragments in one tile.
// CHECK: x.py:5:1: error: malformed fragment exchange plan: exchange tile 0 holds two fragments (tile-plan-fragment-exchanges)
  tile.func @shared_tile(%A: !tile.buffer<[64, 32], f16, global>, %B: !tile.buffer<[32, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>) {
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
        tile.store %0, %frag_1[%i, %j] {tile.exchange_tile = 0 : i64, tile.partitions_loop} : !tile.buffer<[64, 64], f32, local.fragment> loc("x.py":5:1)
      }
      tile.copy %frag_1 to %C {tile.bounds = [{}, {dims = ["in", "in"]}]} : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
    }
  }
// One fragment in two tiles.
// CHECK: x.py:6:1: error: malformed fragment exchange plan: the fragment has exchange tiles 0 and 1 (tile-plan-fragment-exchanges)
  tile.func @two_tiles(%A: !tile.buffer<[64, 32], f16, global>, %B: !tile.buffer<[32, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>) {
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
      tile.parallel (%i, %j) in [64, 64] attributes {loop_layout = #tile.fragment<[64, 64], thread = "64 * (i // 32) + 32 * (j // 32) + 4 * (j % 8) + (i // 2) % 4", index = ["16 * ((j // 16) % 2) + 4 * ((i // 8) % 4) + 2 * ((j // 8) % 2) + i % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>, tile.loop_dims = array<i64: 0, 1>, tile.partition = "fragment"} {
        %cst = arith.constant 5.000000e-01 : f32
        %0 = arith.index_cast %i : index to i64
        %1 = arith.sitofp %0 : i64 to f32
        %2 = arith.mulf %1, %cst : f32
        %3 = arith.index_cast %j : index to i64
        %4 = arith.sitofp %3 : i64 to f32
        %5 = arith.subf %2, %4 : f32
        tile.store %5, %frag_1[%i, %j] {tile.partitions_loop} : !tile.buffer<[64, 64], f32, local.fragment>
      }
      tile.parallel (%i, %j) in [64, 64] attributes {loop_layout = #tile.fragment<[64, 64], thread = "64 * (i // 32) + 32 * (j // 32) + 4 * (j % 8) + (i // 2) % 4", index = ["16 * ((j // 16) % 2) + 4 * ((i // 8) % 4) + 2 * ((j // 8) % 2) + i % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>, tile.exchange_bytes = 16384 : i64, tile.loop_dims = array<i64: 0, 1>, tile.partition = "fragment"} {
        %0 = tile.load %frag[%j, %i] {tile.exchange_tile = 0 : i64} : !tile.buffer<[64, 64], f32, local.fragment>
        %cst = arith.constant 2.000000e+00 : f32
        %1 = arith.mulf %0, %cst : f32
        %2 = tile.load %frag_1[%i, %j] {tile.partitions_loop} : !tile.buffer<[64, 64], f32, local.fragment>
        %3 = arith.addf %1, %2 : f32
        tile.store %3, %frag[%j, %i] {tile.exchange_tile = 1 : i64} : !tile.buffer<[64, 64], f32, local.fragment> loc("x.py":6:1)
      }
      tile.copy %frag to %C {tile.bounds = [{}, {dims = ["in", "in"]}]} : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
    }
  }
// An access of an exchanged fragment without its tile.
// CHECK: x.py:7:1: error: malformed fragment exchange plan: the loop exchanges this fragment, but this access has no tile.exchange_tile (tile-plan-fragment-exchanges)
  tile.func @untiled_access(%A: !tile.buffer<[64, 32], f16, global>, %B: !tile.buffer<[32, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>) {
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
      tile.parallel (%i, %j) in [64, 64] attributes {loop_layout = #tile.fragment<[64, 64], thread = "64 * (i // 32) + 32 * (j // 32) + 4 * (j % 8) + (i // 2) % 4", index = ["16 * ((j // 16) % 2) + 4 * ((i // 8) % 4) + 2 * ((j // 8) % 2) + i % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>, tile.loop_dims = array<i64: 0, 1>, tile.partition = "fragment"} {
        %cst = arith.constant 5.000000e-01 : f32
        %0 = arith.index_cast %i : index to i64
        %1 = arith.sitofp %0 : i64 to f32
        %2 = arith.mulf %1, %cst : f32
        %3 = arith.index_cast %j : index to i64
        %4 = arith.sitofp %3 : i64 to f32
        %5 = arith.subf %2, %4 : f32
        tile.store %5, %frag_1[%i, %j] {tile.partitions_loop} : !tile.buffer<[64, 64], f32, local.fragment>
      }
      tile.parallel (%i, %j) in [64, 64] attributes {loop_layout = #tile.fragment<[64, 64], thread = "64 * (i // 32) + 32 * (j // 32) + 4 * (j % 8) + (i // 2) % 4", index = ["16 * ((j // 16) % 2) + 4 * ((i // 8) % 4) + 2 * ((j // 8) % 2) + i % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>, tile.exchange_bytes = 16384 : i64, tile.loop_dims = array<i64: 0, 1>, tile.partition = "fragment"} {
        %0 = tile.load %frag[%j, %i] {tile.exchange_tile = 0 : i64} : !tile.buffer<[64, 64], f32, local.fragment>
        %cst = arith.constant 2.000000e+00 : f32
        %1 = arith.mulf %0, %cst : f32
        %2 = tile.load %frag_1[%i, %j] {tile.partitions_loop} : !tile.buffer<[64, 64], f32, local.fragment>
        %3 = arith.addf %1, %2 : f32
        tile.store %3, %frag[%j, %i] : !tile.buffer<[64, 64], f32, local.fragment> loc("x.py":7:1)
      }
      tile.copy %frag to %C {tile.bounds = [{}, {dims = ["in", "in"]}]} : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
    }
  }
// A copy between layouts that disagree, not exchanged.
// CHECK: x.py:8:1: error: malformed fragment exchange plan: the two fragments are laid out differently, and the plan does not exchange the copy (tile-plan-fragment-exchanges)
  tile.func @copy_missing(%A: !tile.buffer<[64, 32], f16, global>, %B: !tile.buffer<[32, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>) {
    tile.kernel (%bx) grid [1] threads [128] attributes {tile.area_bytes = 24576 : i64, tile.areas_planned, tile.exchange_offset = 8192 : i64, tile.exchanges_planned, tile.shared_bytes = 8192 : i64} {
      %shared = tile.alloc {layout = #tile.layout<[64, 32], map = ["32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8"], kind = "swizzle 64B", bits = 16>, tile.offset = 0 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
      %shared_0 = tile.alloc {layout = #tile.layout<[32, 64], map = ["64 * i + 8 * (j // 8 ^ i % 8) + j % 8"], kind = "swizzle 128B", bits = 16>, tile.offset = 4096 : i64} : !tile.buffer<[32, 64], f16, shared.dyn>
      %frag = tile.alloc {layout = #tile.fragment<[64, 64], thread = "64 * (j // 32) + 32 * (i // 32) + 4 * (i % 8) + (j // 2) % 4", index = ["16 * ((i // 16) % 2) + 4 * ((j // 8) % 4) + 2 * ((i // 8) % 2) + j % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>} : !tile.buffer<[64, 64], f32, local.fragment>
      %frag_1 = tile.alloc {layout = #tile.fragment<[64, 64], thread = "32 * (i // 16) + 4 * (i % 8) + (j // 2) % 4", index = ["4 * (j // 8) + 2 * ((i // 8) % 2) + j % 2"], origin = "mma.C", warp_rows = 4, warp_cols = 1>} : !tile.buffer<[64, 64], f32, local.fragment>
      tile.copy %A to %shared {tile.bounds = [{dims = ["in", "in"]}, {}], tile.instr = "vector", tile.vec = 8 : i64} : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.copy %B to %shared_0 {tile.bounds = [{dims = ["in", "in"]}, {}], tile.instr = "vector", tile.vec = 8 : i64} : !tile.buffer<[32, 64], f16, global> to !tile.buffer<[32, 64], f16, shared.dyn>
      tile.clear %frag : !tile.buffer<[64, 64], f32, local.fragment>
      tile.barrier "shared-memory dependence"
      tile.gemm %shared, %shared_0, %frag : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
      tile.copy %frag to %frag_1 {tile.exchange_bytes = 16384 : i64} : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, local.fragment> loc("x.py":8:1)
      tile.gemm %shared, %shared_0, %frag_1 {policy = #tile<policy full_row>} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
      tile.copy %frag_1 to %C {tile.bounds = [{}, {dims = ["in", "in"]}]} : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
    }
  }
// tile.exchanged with a value.
// CHECK: x.py:9:1: error: malformed fragment exchange plan: tile.exchanged must be a unit attribute (tile-plan-fragment-exchanges)
  tile.func @copy_not_unit(%A: !tile.buffer<[64, 32], f16, global>, %B: !tile.buffer<[32, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>) {
    tile.kernel (%bx) grid [1] threads [128] attributes {tile.area_bytes = 24576 : i64, tile.areas_planned, tile.exchange_offset = 8192 : i64, tile.exchanges_planned, tile.shared_bytes = 8192 : i64} {
      %shared = tile.alloc {layout = #tile.layout<[64, 32], map = ["32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8"], kind = "swizzle 64B", bits = 16>, tile.offset = 0 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
      %shared_0 = tile.alloc {layout = #tile.layout<[32, 64], map = ["64 * i + 8 * (j // 8 ^ i % 8) + j % 8"], kind = "swizzle 128B", bits = 16>, tile.offset = 4096 : i64} : !tile.buffer<[32, 64], f16, shared.dyn>
      %frag = tile.alloc {layout = #tile.fragment<[64, 64], thread = "64 * (j // 32) + 32 * (i // 32) + 4 * (i % 8) + (j // 2) % 4", index = ["16 * ((i // 16) % 2) + 4 * ((j // 8) % 4) + 2 * ((i // 8) % 2) + j % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>} : !tile.buffer<[64, 64], f32, local.fragment>
      %frag_1 = tile.alloc {layout = #tile.fragment<[64, 64], thread = "32 * (i // 16) + 4 * (i % 8) + (j // 2) % 4", index = ["4 * (j // 8) + 2 * ((i // 8) % 2) + j % 2"], origin = "mma.C", warp_rows = 4, warp_cols = 1>} : !tile.buffer<[64, 64], f32, local.fragment>
      tile.copy %A to %shared {tile.bounds = [{dims = ["in", "in"]}, {}], tile.instr = "vector", tile.vec = 8 : i64} : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.copy %B to %shared_0 {tile.bounds = [{dims = ["in", "in"]}, {}], tile.instr = "vector", tile.vec = 8 : i64} : !tile.buffer<[32, 64], f16, global> to !tile.buffer<[32, 64], f16, shared.dyn>
      tile.clear %frag : !tile.buffer<[64, 64], f32, local.fragment>
      tile.barrier "shared-memory dependence"
      tile.gemm %shared, %shared_0, %frag : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
      tile.copy %frag to %frag_1 {tile.exchange_bytes = 16384 : i64, tile.exchanged = 1 : i64} : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, local.fragment> loc("x.py":9:1)
      tile.gemm %shared, %shared_0, %frag_1 {policy = #tile<policy full_row>} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
      tile.copy %frag_1 to %C {tile.bounds = [{}, {dims = ["in", "in"]}]} : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
    }
  }
// An exchanged copy into global memory.
// CHECK: x.py:10:1: error: malformed fragment exchange plan: tile.exchanged on a copy that is not between whole fragments (tile-plan-fragment-exchanges)
  tile.func @copy_to_memory(%A: !tile.buffer<[64, 32], f16, global>, %B: !tile.buffer<[32, 64], f16, global>, %C: !tile.buffer<[64, 64], f32, global>) {
    tile.kernel (%bx) grid [1] threads [128] attributes {tile.area_bytes = 24576 : i64, tile.areas_planned, tile.exchange_offset = 8192 : i64, tile.exchanges_planned, tile.shared_bytes = 8192 : i64} {
      %shared = tile.alloc {layout = #tile.layout<[64, 32], map = ["32 * i + 8 * (j // 8 ^ (i // 2) % 4) + j % 8"], kind = "swizzle 64B", bits = 16>, tile.offset = 0 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>
      %shared_0 = tile.alloc {layout = #tile.layout<[32, 64], map = ["64 * i + 8 * (j // 8 ^ i % 8) + j % 8"], kind = "swizzle 128B", bits = 16>, tile.offset = 4096 : i64} : !tile.buffer<[32, 64], f16, shared.dyn>
      %frag = tile.alloc {layout = #tile.fragment<[64, 64], thread = "64 * (j // 32) + 32 * (i // 32) + 4 * (i % 8) + (j // 2) % 4", index = ["16 * ((i // 16) % 2) + 4 * ((j // 8) % 4) + 2 * ((i // 8) % 2) + j % 2"], origin = "mma.C", warp_rows = 2, warp_cols = 2>} : !tile.buffer<[64, 64], f32, local.fragment>
      %frag_1 = tile.alloc {layout = #tile.fragment<[64, 64], thread = "32 * (i // 16) + 4 * (i % 8) + (j // 2) % 4", index = ["4 * (j // 8) + 2 * ((i // 8) % 2) + j % 2"], origin = "mma.C", warp_rows = 4, warp_cols = 1>} : !tile.buffer<[64, 64], f32, local.fragment>
      tile.copy %A to %shared {tile.bounds = [{dims = ["in", "in"]}, {}], tile.instr = "vector", tile.vec = 8 : i64} : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
      tile.copy %B to %shared_0 {tile.bounds = [{dims = ["in", "in"]}, {}], tile.instr = "vector", tile.vec = 8 : i64} : !tile.buffer<[32, 64], f16, global> to !tile.buffer<[32, 64], f16, shared.dyn>
      tile.clear %frag : !tile.buffer<[64, 64], f32, local.fragment>
      tile.barrier "shared-memory dependence"
      tile.gemm %shared, %shared_0, %frag : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
      tile.copy %frag to %frag_1 {tile.exchange_bytes = 16384 : i64, tile.exchanged} : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, local.fragment>
      tile.gemm %shared, %shared_0, %frag_1 {policy = #tile<policy full_row>} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
      tile.copy %frag_1 to %C {tile.bounds = [{}, {dims = ["in", "in"]}], tile.exchanged} : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global> loc("x.py":10:1)
    }
  }
}
