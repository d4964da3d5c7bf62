// Input of parallel-vector-plan.mlir: vector plans the HIP printer refuses,
// one function each (the error is on the access; the other functions still
// print). The last function's plan is one HIP follows; CUDA refuses it.
module attributes {tile.vectors_planned} {
tile.func @width3(%G: !tile.buffer<[32, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn>
    %t = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment>
    tile.clear %t : !tile.buffer<[32, 128], f32, local.fragment>
    tile.parallel (%i, %j) in [32, 128] {
      %x = tile.load %t[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
      tile.store %x, %S[%i, %j] {tile.vec = 3 : i64, tile.vec_aligned} : !tile.buffer<[32, 128], f32, shared.dyn>  // CHECK: parallel-vector-plan-malformed.mlir:[[@LINE]]:7: error: malformed T.Parallel vector plan: tile.vec must be 2, 4, 8 or 16 elements (tile-plan-parallel-vectors)
    }
  }
}
tile.func @aligned_alone(%G: !tile.buffer<[32, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn>
    %t = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment>
    tile.clear %t : !tile.buffer<[32, 128], f32, local.fragment>
    tile.parallel (%i, %j) in [32, 128] {
      %x = tile.load %t[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
      tile.store %x, %S[%i, %j] {tile.vec_aligned} : !tile.buffer<[32, 128], f32, shared.dyn>  // CHECK: parallel-vector-plan-malformed.mlir:[[@LINE]]:7: error: malformed T.Parallel vector plan: tile.vec_aligned without tile.vec (tile-plan-parallel-vectors)
    }
  }
}
tile.func @not_access(%G: !tile.buffer<[32, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn>
    %t = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment>
    tile.clear %t : !tile.buffer<[32, 128], f32, local.fragment>
    tile.parallel (%i, %j) in [32, 128] {
      %x = tile.load %t[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
      %y = arith.negf %x {tile.vec = 4 : i64} : f32  // CHECK: parallel-vector-plan-malformed.mlir:[[@LINE]]:12: error: malformed T.Parallel vector plan: tile.vec on an operation that is no tile.load or tile.store (tile-plan-parallel-vectors)
      tile.store %y, %S[%i, %j] : !tile.buffer<[32, 128], f32, shared.dyn>
    }
  }
}
tile.func @wider_than_runs(%G: !tile.buffer<[32, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn>
    %t = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment>
    tile.clear %t : !tile.buffer<[32, 128], f32, local.fragment>
    tile.parallel (%i, %j) in [32, 128] {
      %x = tile.load %t[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
      tile.store %x, %S[%i, %j] {tile.vec = 8 : i64, tile.vec_aligned} : !tile.buffer<[32, 128], f32, shared.dyn>  // CHECK: parallel-vector-plan-malformed.mlir:[[@LINE]]:7: error: T.Parallel vector plan: the partitioning fragment's layout holds 4 consecutive elements in consecutive registers; vectors of 8 do not divide them (tile-plan-parallel-vectors)
    }
  }
}
tile.func @two_widths(%G: !tile.buffer<[32, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn>
    %t = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment>
    %U = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn>
    tile.clear %t : !tile.buffer<[32, 128], f32, local.fragment>
    tile.parallel (%i, %j) in [32, 128] {
      %x = tile.load %t[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
      tile.store %x, %S[%i, %j] {tile.vec = 4 : i64, tile.vec_aligned} : !tile.buffer<[32, 128], f32, shared.dyn>
      tile.store %x, %U[%i, %j] {tile.vec = 2 : i64, tile.vec_aligned} : !tile.buffer<[32, 128], f32, shared.dyn>  // CHECK: parallel-vector-plan-malformed.mlir:[[@LINE]]:7: error: T.Parallel vector plan: vectors of 2 and 4 elements in one loop (tile-plan-parallel-vectors)
    }
  }
}
tile.func @unproven(%G: !tile.buffer<[32, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn>
    %t = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment>
    tile.clear %t : !tile.buffer<[32, 128], f32, local.fragment>
    tile.parallel (%i, %j) in [32, 128] {
      %x = tile.load %t[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
      tile.store %x, %S[%i, %j] {tile.vec = 4 : i64} : !tile.buffer<[32, 128], f32, shared.dyn>  // CHECK: parallel-vector-plan-malformed.mlir:[[@LINE]]:7: error: T.Parallel vector plan: a vector store needs its alignment proven (tile.vec_aligned) (tile-plan-parallel-vectors)
    }
  }
}
tile.func @tile_read(%G: !tile.buffer<[32, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn>
    %t = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment>
    tile.clear %t : !tile.buffer<[32, 128], f32, local.fragment>
    tile.parallel (%i, %j) in [32, 128] {
      %x = tile.load %t[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
      %y = tile.load %S[%i, %j] : !tile.buffer<[32, 128], f32, shared.dyn>
      tile.store %y, %S[%i, %j] {tile.vec = 4 : i64, tile.vec_aligned} : !tile.buffer<[32, 128], f32, shared.dyn>  // CHECK: parallel-vector-plan-malformed.mlir:[[@LINE]]:7: error: T.Parallel vector plan: the loop's body touches the tile besides this store (tile-plan-parallel-vectors)
    }
  }
}
tile.func @load(%G: !tile.buffer<[32, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn>
    %t = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment>
    tile.clear %t : !tile.buffer<[32, 128], f32, local.fragment>
    tile.parallel (%i, %j) in [32, 128] {
      %x = tile.load %t[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
      %y = tile.load %S[%i, %j] {tile.vec = 4 : i64, tile.vec_aligned} : !tile.buffer<[32, 128], f32, shared.dyn>  // CHECK: parallel-vector-plan-malformed.mlir:[[@LINE]]:12: error: T.Parallel vector plan: only stores are vectorised (tile-plan-parallel-vectors)
      tile.store %y, %G[%i, %j] : !tile.buffer<[32, 128], f32, global>
    }
  }
}
tile.func @global(%G: !tile.buffer<[32, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn>
    %t = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment>
    tile.clear %t : !tile.buffer<[32, 128], f32, local.fragment>
    tile.parallel (%i, %j) in [32, 128] {
      %x = tile.load %t[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
      tile.store %x, %G[%i, %j] {tile.vec = 4 : i64, tile.vec_aligned} : !tile.buffer<[32, 128], f32, global>  // CHECK: parallel-vector-plan-malformed.mlir:[[@LINE]]:7: error: T.Parallel vector plan: the store is not into a static shared tile at its full rank (tile-plan-parallel-vectors)
    }
  }
}
tile.func @transposed(%G: !tile.buffer<[32, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn>
    %t = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment>
    %Q = tile.alloc : !tile.buffer<[128, 32], f32, shared.dyn>
    tile.clear %t : !tile.buffer<[32, 128], f32, local.fragment>
    tile.parallel (%i, %j) in [32, 128] {
      %x = tile.load %t[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
      tile.store %x, %Q[%j, %i] {tile.vec = 4 : i64, tile.vec_aligned} : !tile.buffer<[128, 32], f32, shared.dyn>  // CHECK: parallel-vector-plan-malformed.mlir:[[@LINE]]:7: error: T.Parallel vector plan: the store's last index is not the loop variable along the fragment's last dimension (tile-plan-parallel-vectors)
    }
  }
}
tile.func @unaligned(%G: !tile.buffer<[32, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn>
    %t = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment>
    %W = tile.alloc : !tile.buffer<[32, 132], f32, shared.dyn>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %R = tile.region %W[%c0, %c2] : !tile.buffer<[32, 132], f32, shared.dyn> to !tile.buffer<[32, 128], f32, shared.dyn>
    tile.clear %t : !tile.buffer<[32, 128], f32, local.fragment>
    tile.parallel (%i, %j) in [32, 128] {
      %x = tile.load %t[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
      tile.store %x, %R[%i, %j] {tile.vec = 4 : i64, tile.vec_aligned} : !tile.buffer<[32, 128], f32, shared.dyn>  // CHECK: parallel-vector-plan-malformed.mlir:[[@LINE]]:7: error: T.Parallel vector plan: the runs' alignment to 4 elements is not proven (tile-plan-parallel-vectors)
    }
  }
}
tile.func @hip_only(%G: !tile.buffer<[32, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn>
    %t = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment>
    tile.clear %t : !tile.buffer<[32, 128], f32, local.fragment>
    tile.parallel (%i, %j) in [32, 128] {
      %x = tile.load %t[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
      tile.store %x, %S[%i, %j] {tile.vec = 4 : i64, tile.vec_aligned} : !tile.buffer<[32, 128], f32, shared.dyn>  // CUDA: parallel-vector-plan-malformed.mlir:[[@LINE]]:7: error: T.Parallel vector plan: vector accesses of a T.Parallel are the HIP target's LDS stores (tile-plan-parallel-vectors)
    }
  }
}
}
