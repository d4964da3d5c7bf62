// RUN: tlc-opt --tile-check-undefined-accumulators --split-input-file --verify-diagnostics %s

// An accumulator allocated in the loop body, never cleared: undefined in
// every iteration (upstream's AMD flash attention k_block example).
tile.func @in_loop_body(%A: !tile.buffer<[64, 32], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    tile.copy %A to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
    tile.for %k = %c0 to %c4 step %c1 {
      // expected-note @+1 {{the accumulator is allocated here}}
      %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
      // expected-warning @+1 {{T.gemm accumulates into the accumulator, which nothing has written yet: its value is undefined here (TileLang does not initialise fragments; one allocated in a loop body starts each iteration undefined); clear it first (T.clear) or pass clear_accum=True}}
      tile.gemm %A_s, %A_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
  }
}

// -----

// Allocated at the kernel's level, accumulated in a loop: the first
// iteration adds to an undefined value; the second gemm is fine (the first
// wrote the buffer).
tile.func @before_loop(%A: !tile.buffer<[64, 32], f16, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    // expected-note @+1 {{is allocated here}}
    %acc = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %A to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
    tile.for %k = %c0 to %c4 step %c1 {
      // expected-warning @+1 {{which nothing has written yet: its value is undefined here (TileLang does not initialise fragments); clear it first}}
      tile.gemm %A_s, %A_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.gemm %A_s, %A_s, %acc {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}

// -----

// Written first (a clear, a fill under a condition, clear_accum, a copy into
// a view of the buffer, an initialised buffer): no warning.
tile.func @written(%A: !tile.buffer<[64, 32], f16, global>, %c: i1, %G: !tile.buffer<[64, 64], f32, global>) {
  tile.kernel (%bx) grid [1] threads [128] {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %A_s = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    tile.copy %A to %A_s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
    %a1 = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.clear %a1 : !tile.buffer<[64, 64], f32, local.fragment>
    tile.gemm %A_s, %A_s, %a1 {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    %a2 = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.if %c {
      tile.fill %a2, %zero : !tile.buffer<[64, 64], f32, local.fragment>
    }
    tile.gemm %A_s, %A_s, %a2 {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    %a3 = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    tile.gemm %A_s, %A_s, %a3 {transpose_b, clear_accum} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    %a4 = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    %v = tile.region %a4[%c0, %c0] : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %G to %v : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[64, 64], f32, local.fragment>
    tile.gemm %A_s, %A_s, %a4 {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    tile.copy %a1 to %G : !tile.buffer<[64, 64], f32, local.fragment> to !tile.buffer<[64, 64], f32, global>
  }
}
