// RUN: tlc-opt --tile-plan-shared-memory --verify-diagnostics --split-input-file %s

// A shared tile of 2^62 f32 columns: 2^71 bytes wrapped int64 (UBSan,
// fuzz-replay-eval); the size is bounded before it is multiplied out.
tile.func @wraps_int64(%X: !tile.buffer<[128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    // expected-error@+1 {{a shared buffer of more than 1099511627776 bytes cannot be placed in shared memory}}
    %s = tile.alloc : !tile.buffer<[128, 4611686018427387904], f32, shared.dyn>
    %c0 = arith.constant 0 : index
    %e = tile.load %s[%c0, %c0] : !tile.buffer<[128, 4611686018427387904], f32, shared.dyn>
    tile.store %e, %X[%c0] : !tile.buffer<[128], f32, global>
  }
}

// -----

// Stages multiply a size that fits into one that does not.
tile.func @stages_past_limit(%X: !tile.buffer<[128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    // expected-error@+1 {{a shared buffer of more than 1099511627776 bytes cannot be placed in shared memory}}
    %s = tile.alloc {tile.stages = 1024 : i64} : !tile.buffer<[1073741824], f32, shared.dyn>
    %c0 = arith.constant 0 : index
    %e = tile.load %s[%c0] : !tile.buffer<[1073741824], f32, shared.dyn>
    tile.store %e, %X[%c0] : !tile.buffer<[128], f32, global>
  }
}

// -----

// A shared tile with an unknown extent (`?`) has no size, not even at launch.
tile.func @unknown_extent(%X: !tile.buffer<[128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    // expected-error@+1 {{a shared buffer needs a static or symbolic shape to be placed in shared memory (an extent is unknown)}}
    %s = tile.alloc : !tile.buffer<[?], f32, shared.dyn>
    %c0 = arith.constant 0 : index
    %e = tile.load %s[%c0] : !tile.buffer<[?], f32, shared.dyn>
    tile.store %e, %X[%c0] : !tile.buffer<[128], f32, global>
  }
}
