// RUN: not tlc-cuda-translate --tile-to-cuda %s -split-input-file -verify-diagnostics

// Cross-thread fragment reads need layout inference.
tile.func @row_broadcast(%X: !tile.buffer<[64, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[64, 128], f32, local.fragment>
    %m = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    tile.parallel (%i, %j) in [64, 128] {
      // expected-error @+1 {{the CUDA target reads fragments only inside a T.Parallel over the fragment's shape}}
      %v = tile.load %m[%i] : !tile.buffer<[64], f32, local.fragment>
      tile.store %v, %S[%i, %j] : !tile.buffer<[64, 128], f32, local.fragment>
    }
  }
}

// -----

tile.func @dynamic_threads(%n: index) {
  // expected-error @+1 {{the CUDA target needs a static thread count}}
  tile.kernel (%bx) grid [1] threads [%n] {
  }
}

// -----

tile.func @gemm(%A: !tile.buffer<[64, 64], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    // expected-error @+1 {{'tile.gemm' is not supported by the CUDA target yet}}
    tile.gemm %a, %a, %c : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}
