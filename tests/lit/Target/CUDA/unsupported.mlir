// RUN: tlc-translate --tile-to-cuda %s -split-input-file -verify-diagnostics

// A fragment written at an index that is not a loop variable goes through
// the exchange area (fragment-composed-index.py), where it must stay inside
// the fragment: here i + 1 reaches 64.
tile.func @shifted_write(%X: !tile.buffer<[64, 128], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %S = tile.alloc : !tile.buffer<[64, 128], f32, local.fragment>
    %m = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    %c1 = arith.constant 1 : index
    tile.parallel (%i, %j) in [64, 128] {
      %i1 = arith.addi %i, %c1 : index
      %v = tile.load %S[%i, %j] : !tile.buffer<[64, 128], f32, local.fragment>
      // expected-error @+1 {{the CUDA target writes a fragment at indices that are not the loop variables only where they stay inside it: index 0 runs over [1, 64], extent 64}}
      tile.store %v, %m[%i1] : !tile.buffer<[64], f32, local.fragment>
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

// bf16 operands with a bf16 accumulator: no mma.sync shape takes them.
tile.func @gemm_bf16_acc(%A: !tile.buffer<[64, 64], bf16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 64], bf16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], bf16, local.fragment>
    // expected-error @+1 {{the CUDA target lowers T.gemm for f16/bf16 operands with an f32 accumulator or f16 with f16 (mma.sync.m16n8k16), e4m3/e5m2 with f32 and s8/u8 with s32 (m16n8k32), f32 with f32 (m16n8k8 .tf32) and f64 with f64 (m8n8k4)}}
    tile.gemm %a, %a, %c {transpose_b} : !tile.buffer<[64, 64], bf16, shared.dyn>, !tile.buffer<[64, 64], bf16, shared.dyn>, !tile.buffer<[64, 64], bf16, local.fragment>
  }
}

// -----

// Explicit T.Pipelined schedules the CUDA target cannot honour are not
// silently ignored: a warning says the loop is planned without them
// (compute statements reordered by `order`...
tile.func @order_compute(%A: !tile.buffer<[64, 64], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    // expected-warning @+1 {{T.Pipelined: 'order' reorders compute statements 2 and earlier ones; the compute keeps its program order; tlc does not follow this schedule}}
    tile.pipelined %k = %c0 to %c4 stages 2 order [0, 2, 1] {
      tile.copy %A to %a : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
      tile.clear %c : !tile.buffer<[64, 64], f32, local.fragment>
      tile.gemm %a, %a, %c {transpose_b} : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
  }
}

// -----

// ... a middle stage ...
tile.func @three_stages(%A: !tile.buffer<[64, 64], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    // expected-warning @+1 {{T.Pipelined: stage 1 of statement 1: pipelines run global -> shared copies in stage 0 and everything else in the last stage; tlc does not follow this schedule}}
    tile.pipelined %k = %c0 to %c4 stages 3 stage [0, 1, 2] {
      tile.copy %A to %a : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
      tile.clear %c : !tile.buffer<[64, 64], f32, local.fragment>
      tile.gemm %a, %a, %c {transpose_b} : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
  }
}

// -----

// ... compute in stage 0 ...
tile.func @compute_stage0(%A: !tile.buffer<[64, 64], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    // expected-warning @+1 {{T.Pipelined: statement 1 is in stage 0 but is not a copy from global into a whole shared buffer; tlc does not follow this schedule}}
    tile.pipelined %k = %c0 to %c4 stages 2 stage [0, 0, 1] {
      tile.copy %A to %a : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
      tile.clear %c : !tile.buffer<[64, 64], f32, local.fragment>
      tile.gemm %a, %a, %c {transpose_b} : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
  }
}

// -----

// ... or lists that do not match the statements), and the kernels build.
tile.func @wrong_length(%A: !tile.buffer<[64, 64], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    // expected-warning @+1 {{T.Pipelined: 'stage' and 'order' need one entry per statement of the loop body (2 here); tlc does not follow this schedule}}
    tile.pipelined %k = %c0 to %c4 stages 2 stage [0, 1, 1] {
      tile.copy %A to %a : !tile.buffer<[64, 64], f16, global> to !tile.buffer<[64, 64], f16, shared.dyn>
      tile.gemm %a, %a, %c {transpose_b} : !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
  }
}
