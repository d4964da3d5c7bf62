// RUN: not tlc-translate --tile-to-cuda %s -split-input-file 2>&1 | FileCheck %s
// RUN: not tlc-translate --tile-to-hip %s -split-input-file 2>&1 | FileCheck %s

// A tile with an extent of 0 is refused at its allocation by the printer
// itself, not only by layout inference: the printer planned a replicated
// layout over the (128, 0) fragment that only T.clear uses and dereferenced
// the error of its linear map (a SEGV in assignFragmentLayouts, found by
// tlc-fuzz-lsp through the editor's fragment-exchange hints, which print an
// instance; tests/fuzz/corpus/lsp/crash-0324...). A program reaching the
// printer any other way (tlc-translate, a pass pipeline) gets the error too.
tile.func @cleared_only(%C: !tile.buffer<[128, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    // CHECK: error: loc("C_local"): buffer 'C_local' has an extent of 0; every extent of a tile must be positive
    %acc = tile.alloc : !tile.buffer<[128, 0], f32, local.fragment> loc("C_local")
    tile.clear %acc : !tile.buffer<[128, 0], f32, local.fragment>
  }
}

// -----

// The default partition of a loop over an empty fragment: the same linear
// map, there out of memory.
tile.func @empty_loop(%X: !tile.buffer<[64, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    // CHECK: error: loc("acc"): buffer 'acc' has an extent of 0; every extent of a tile must be positive
    %acc = tile.alloc : !tile.buffer<[128, 0], f32, local.fragment> loc("acc")
    %s = tile.alloc : !tile.buffer<[128, 0], f32, shared.dyn> loc("s")
    tile.parallel (%i, %j) in [128, 0] {
      %v = tile.load %acc[%i, %j] : !tile.buffer<[128, 0], f32, local.fragment>
      tile.store %v, %s[%i, %j] : !tile.buffer<[128, 0], f32, shared.dyn>
    }
  }
}

// -----

// An empty shared tile: no crash before, but a copy loop of no iterations
// over a buffer no layout maps; refused the same way.
tile.func @empty_shared(%X: !tile.buffer<[64, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    // CHECK: error: loc("A_shared"): buffer 'A_shared' has an extent of 0; every extent of a tile must be positive
    %s = tile.alloc : !tile.buffer<[0, 128], f32, shared.dyn> loc("A_shared")
    %r = tile.region %X[0, 0] : !tile.buffer<[64, 128], f32, global> to !tile.buffer<[0, 128], f32, global>
    tile.copy %r to %s : !tile.buffer<[0, 128], f32, global> to !tile.buffer<[0, 128], f32, shared.dyn>
  }
}
