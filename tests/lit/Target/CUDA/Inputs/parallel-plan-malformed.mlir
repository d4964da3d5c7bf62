// Input of parallel-plan.mlir: partition plans the printer refuses (then
// four: rounds that miss iterations or run past them unguarded, and rounds
// where they do not belong; the last: a layout partition of a loop whose
// program gave it no layout).
// CHECK: parallel-plan-malformed.mlir:[[@LINE+16]]:5: error: malformed T.Parallel partition plan: tile.partition must be "fragment", "threads", "strided", "layout" or "whole" (tile-plan-parallel-loops)
// CHECK: parallel-plan-malformed.mlir:[[@LINE+24]]:5: error: malformed T.Parallel partition plan: a fragment partition marks exactly one access tile.partitions_loop, not 0 (tile-plan-parallel-loops)
// CHECK: parallel-plan-malformed.mlir:[[@LINE+32]]:5: error: malformed T.Parallel partition plan: tile.loop_dims[0] = 0 is not the fragment dimension the access indexes with loop variable 0 (tile-plan-parallel-loops)
// CHECK: parallel-plan-malformed.mlir:[[@LINE+40]]:5: error: malformed T.Parallel partition plan: loop variable 1 runs over 16 iterations, fragment dimension 1 has 32 (a partial loop needs tile.loop_box) (tile-plan-parallel-loops)
// CHECK: parallel-plan-malformed.mlir:[[@LINE+48]]:5: error: malformed T.Parallel partition plan: tile.loop_box must be the loop's extents (tile-plan-parallel-loops)
// CHECK: parallel-plan-malformed.mlir:[[@LINE+56]]:5: error: malformed T.Parallel partition plan: only a fragment partition has tile.loop_dims, tile.loop_box or a tile.partitions_loop access (tile-plan-parallel-loops)
// CHECK: parallel-plan-malformed.mlir:[[@LINE+63]]:5: error: malformed T.Parallel partition plan: a strided partition is for extents known at run time (tile-plan-parallel-loops)
// CHECK: parallel-plan-malformed.mlir:[[@LINE+73]]:5: error: malformed T.Parallel partition plan: the tile.partitions_loop access is no tile.load or tile.store of a fragment allocation or view (tile-plan-parallel-loops)
// CHECK: parallel-plan-malformed.mlir:[[@LINE+81]]:5: error: T.Parallel partition plan: 3 rounds of 32 threads do not cover 100 iterations
// CHECK: parallel-plan-malformed.mlir:[[@LINE+88]]:5: error: T.Parallel partition plan: 1 rounds of 128 threads need tile.loop_guard to stop at 100 iterations
// CHECK: parallel-plan-malformed.mlir:[[@LINE+95]]:5: error: malformed T.Parallel partition plan: only a partition over the threads has tile.loop_regs or tile.loop_guard (tile-plan-parallel-loops)
// CHECK: parallel-plan-malformed.mlir:[[@LINE+103]]:5: error: malformed T.Parallel partition plan: tile.loop_guard needs tile.loop_regs (tile-plan-parallel-loops)
// CHECK: parallel-plan-malformed.mlir:[[@LINE+110]]:5: error: malformed T.Parallel partition plan: a layout partition needs the program's loop_layout (tile.loop_layout_given) over the loop's static extents (tile-plan-parallel-loops)
tile.func @unknown() {
  tile.kernel (%bx) grid [1] threads [128] {
    %t = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 32] attributes {tile.partition = "warps"} {
      %x = tile.load %t[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      tile.store %x, %t[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
    }
  }
}
tile.func @unmarked() {
  tile.kernel (%bx) grid [1] threads [128] {
    %t = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 32] attributes {tile.loop_dims = array<i64: 0, 1>, tile.partition = "fragment"} {
      %x = tile.load %t[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
      tile.store %x, %t[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
    }
  }
}
tile.func @wrong_dims() {
  tile.kernel (%bx) grid [1] threads [128] {
    %s = tile.alloc : !tile.buffer<[32, 64], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 32] attributes {tile.loop_dims = array<i64: 0, 1>, tile.partition = "fragment"} {
      %x = tile.load %s[%j, %i] {tile.partitions_loop} : !tile.buffer<[32, 64], f32, local.fragment>
      tile.store %x, %s[%j, %i] : !tile.buffer<[32, 64], f32, local.fragment>
    }
  }
}
tile.func @partial_without_box() {
  tile.kernel (%bx) grid [1] threads [128] {
    %t = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 16] attributes {tile.loop_dims = array<i64: 0, 1>, tile.partition = "fragment"} {
      %x = tile.load %t[%i, %j] {tile.partitions_loop} : !tile.buffer<[64, 32], f32, local.fragment>
      tile.store %x, %t[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
    }
  }
}
tile.func @wrong_box() {
  tile.kernel (%bx) grid [1] threads [128] {
    %t = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 16] attributes {tile.loop_box = array<i64: 64, 32>, tile.loop_dims = array<i64: 0, 1>, tile.partition = "fragment"} {
      %x = tile.load %t[%i, %j] {tile.partitions_loop} : !tile.buffer<[64, 32], f32, local.fragment>
      tile.store %x, %t[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
    }
  }
}
tile.func @marked_threads() {
  tile.kernel (%bx) grid [1] threads [128] {
    %t = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 32] attributes {tile.partition = "threads"} {
      %x = tile.load %t[%i, %j] {tile.partitions_loop} : !tile.buffer<[64, 32], f32, local.fragment>
      tile.store %x, %t[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
    }
  }
}
tile.func @static_strided(%O: !tile.buffer<[64, 32], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    tile.parallel (%i, %j) in [64, 32] attributes {tile.partition = "strided"} {
      %x = tile.load %O[%j, %i] : !tile.buffer<[64, 32], f32, global>
      tile.store %x, %O[%i, %j] : !tile.buffer<[64, 32], f32, global>
    }
  }
}
tile.func @region(%O: !tile.buffer<[64, 32], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %c0 = arith.constant 0 : index
    %t = tile.alloc : !tile.buffer<[128, 32], f32, local.fragment>
    %top = tile.region %t[%c0, %c0] : !tile.buffer<[128, 32], f32, local.fragment> to !tile.buffer<[64, 32], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 32] attributes {tile.loop_dims = array<i64: 0, 1>, tile.partition = "fragment"} {
      %x = tile.load %top[%i, %j] {tile.partitions_loop} : !tile.buffer<[64, 32], f32, local.fragment>
      tile.store %x, %O[%i, %j] : !tile.buffer<[64, 32], f32, global>
    }
  }
}
tile.func @too_few_rounds(%O: !tile.buffer<[10, 10], f32, global>) {
  tile.kernel (%bx) grid [1] threads [32] {
    %cst = arith.constant 0.0 : f32
    tile.parallel (%i, %j) in [10, 10] attributes {tile.loop_guard, tile.loop_regs = 3 : i64, tile.partition = "threads"} {
      tile.store %cst, %O[%i, %j] : !tile.buffer<[10, 10], f32, global>
    }
  }
}
tile.func @unguarded(%O: !tile.buffer<[10, 10], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %cst = arith.constant 0.0 : f32
    tile.parallel (%i, %j) in [10, 10] attributes {tile.loop_regs = 1 : i64, tile.partition = "threads"} {
      tile.store %cst, %O[%i, %j] : !tile.buffer<[10, 10], f32, global>
    }
  }
}
tile.func @rounds_on_fragment() {
  tile.kernel (%bx) grid [1] threads [128] {
    %t = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 32] attributes {tile.loop_dims = array<i64: 0, 1>, tile.loop_regs = 16 : i64, tile.partition = "fragment"} {
      %x = tile.load %t[%i, %j] {tile.partitions_loop} : !tile.buffer<[64, 32], f32, local.fragment>
      tile.store %x, %t[%i, %j] : !tile.buffer<[64, 32], f32, local.fragment>
    }
  }
}
tile.func @guard_alone(%O: !tile.buffer<[10, 10], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %cst = arith.constant 0.0 : f32
    tile.parallel (%i, %j) in [10, 10] attributes {tile.loop_guard, tile.partition = "threads"} {
      tile.store %cst, %O[%i, %j] : !tile.buffer<[10, 10], f32, global>
    }
  }
}
tile.func @layout_not_given(%g: !tile.buffer<[64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [64] {
    %unused = arith.constant 0 : index
    tile.parallel (%i) in [64] attributes {tile.partition = "layout"} {
      %x = tile.load %g[%i] : !tile.buffer<[64], f32, global>
      tile.store %x, %g[%i] : !tile.buffer<[64], f32, global>
    }
  }
}
