// RUN: tlc-translate --tile-to-cuda %s -split-input-file -verify-diagnostics

// A fragment read at an index that is not a loop variable: the element may
// live in another thread.
tile.func @shifted_read(%X: !tile.buffer<[64, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[64, 128], f32, local.fragment>
    %m = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    %c1 = arith.constant 1 : index
    tile.parallel (%i, %j) in [64, 128] {
      %i1 = arith.addi %i, %c1 : index
      // expected-error @+1 {{fragment accesses inside T.Parallel must index with the loop variables}}
      %v = tile.load %m[%i1] : !tile.buffer<[64], f32, local.fragment>
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

// 8-bit tensor-core gemms (m16n8k32) are not lowered yet.
tile.func @gemm_fp8(%A: !tile.buffer<[64, 64], f8E4M3FN, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 64], f8E4M3FN, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    // expected-error @+1 {{the CUDA target lowers T.gemm for f16/bf16 operands with an f32 accumulator}}
    tile.gemm %a, %a, %c {transpose_b} : !tile.buffer<[64, 64], f8E4M3FN, shared.dyn>, !tile.buffer<[64, 64], f8E4M3FN, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}

// -----

// A reduction whose destination keeps the reduced dimension.
tile.func @reduce_keepdim(%X: !tile.buffer<[64, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[64, 128], f32, local.fragment>
    %m = tile.alloc : !tile.buffer<[64, 1], f32, local.fragment>
    tile.clear %S : !tile.buffer<[64, 128], f32, local.fragment>
    // expected-error @+1 {{reductions into a buffer that keeps the reduced dimension are not supported}}
    tile.reduce sum %S to %m dim = 1 clear : !tile.buffer<[64, 128], f32, local.fragment> to !tile.buffer<[64, 1], f32, local.fragment>
  }
}
