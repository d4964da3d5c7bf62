// Input of parallel-vector-plan.mlir: IR that did not go through
// tile-plan-parallel-vectors (no tile.vectors_planned on the module).
tile.func @own() {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[32, 128], f32, shared.dyn> loc("S")
    %t = tile.alloc : !tile.buffer<[32, 128], f32, local.fragment> loc("t")
    tile.clear %t : !tile.buffer<[32, 128], f32, local.fragment>
    tile.parallel (%i, %j) in [32, 128] {
      %x = tile.load %t[%i, %j] : !tile.buffer<[32, 128], f32, local.fragment>
      tile.store %x, %S[%i, %j] : !tile.buffer<[32, 128], f32, shared.dyn>
    } loc("p.py":10:5)
  }
}
