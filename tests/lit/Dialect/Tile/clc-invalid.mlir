// RUN: tlc-opt %s -split-input-file -verify-diagnostics

// One case per verifier error of tile.clc_try_cancel and tile.clc_query.

tile.func @response_in_global(%g: !tile.buffer<[4], ui32, global>) {
  tile.kernel (%bx) grid [1] threads [32] {
    %bar = tile.alloc {arrive_counts = array<i64: 1>} : !tile.buffer<[1], ui64, shared.barrier>
    // expected-error @+1 {{the response must be in shared memory, not 'global'}}
    tile.clc_try_cancel %g, %bar : !tile.buffer<[4], ui32, global>, !tile.buffer<[1], ui64, shared.barrier>
  }
}

// -----

tile.func @response_of_floats() {
  tile.kernel (%bx) grid [1] threads [32] {
    %r = tile.alloc : !tile.buffer<[4], f32, shared>
    // expected-error @+1 {{the response must be of 32-bit integers, not 'f32'}}
    %ok = tile.clc_query is_canceled %r : !tile.buffer<[4], f32, shared> -> i1
  }
}

// -----

tile.func @response_too_small() {
  tile.kernel (%bx) grid [1] threads [32] {
    %r = tile.alloc : !tile.buffer<[2], ui32, shared>
    // expected-error @+1 {{the response must hold 4 words (16 bytes), not 2}}
    %x = tile.clc_query first_ctaid_x %r : !tile.buffer<[2], ui32, shared> -> i32
  }
}

// -----

tile.func @not_a_barrier() {
  tile.kernel (%bx) grid [1] threads [32] {
    %r = tile.alloc : !tile.buffer<[4], ui32, shared>
    %b = tile.alloc : !tile.buffer<[1], ui32, shared>
    // expected-error @+1 {{completes on an mbarrier (a T.alloc_barrier or T.alloc_cluster_barrier element, or a 64-bit word of shared memory), not a 'shared' 'ui32' buffer}}
    tile.clc_try_cancel %r, %b : !tile.buffer<[4], ui32, shared>, !tile.buffer<[1], ui32, shared>
  }
}

// -----

tile.func @two_barriers() {
  tile.kernel (%bx) grid [1] threads [32] {
    %r = tile.alloc : !tile.buffer<[4], ui32, shared>
    %bar = tile.alloc {arrive_counts = array<i64: 1, 1>} : !tile.buffer<[2], ui64, shared.barrier>
    // expected-error @+1 {{completes on one mbarrier (a [1] region), not [2]}}
    tile.clc_try_cancel %r, %bar : !tile.buffer<[4], ui32, shared>, !tile.buffer<[2], ui64, shared.barrier>
  }
}

// -----

tile.func @wrong_result_type() {
  tile.kernel (%bx) grid [1] threads [32] {
    %r = tile.alloc : !tile.buffer<[4], ui32, shared>
    // expected-error @+1 {{'first_ctaid_x' gives an i32, not 'i1'}}
    %x = tile.clc_query first_ctaid_x %r : !tile.buffer<[4], ui32, shared> -> i1
  }
}
