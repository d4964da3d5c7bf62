// RUN: tlc-opt %s -split-input-file -verify-diagnostics

// One case per verifier error of the tile dialect.

//===----------------------------------------------------------------------===//
// !tile.buffer
//===----------------------------------------------------------------------===//

// expected-error @+1 {{unknown memory scope 'shared.dynamic'}}
tile.func @bad_scope(%a: !tile.buffer<[4], f32, shared.dynamic>)

// -----

// expected-error @+1 {{invalid buffer element type 'si8'}}
tile.func @bad_element(%a: !tile.buffer<[4], si8, global>)

// -----

// expected-error @+1 {{dimension 1 has negative extent -2}}
tile.func @negative_extent(%a: !tile.buffer<[4, -2], f32, global>)

// -----

// expected-error @+1 {{expected an integer, a symbol, a string or '?'}}
tile.func @bad_dim(%a: !tile.buffer<[4, #tile<policy square>], f32, global>)

// -----

//===----------------------------------------------------------------------===//
// tile.func
//===----------------------------------------------------------------------===//

// expected-error @+1 {{kernel functions return no values}}
tile.func @results() -> i32 {
}

// -----

// expected-error @+1 {{symbol 'M' is declared twice}}
tile.func @twice() symbols(M: dynamic, M: meta) {
}

// -----

// expected-error @+1 {{symbol names must not be empty}}
tile.func @empty_symbol() symbols("": meta) {
}

// -----

// expected-error @+1 {{unknown symbol kind 'static'}}
tile.func @bad_kind() symbols(M: static)

// -----

// expected-error @+1 {{buffer parameter 0 must be in global scope, got 'shared.dyn'}}
tile.func @param_scope(%a: !tile.buffer<[4], f32, shared.dyn>) {
}

// -----

// expected-error @+1 {{parameter 1 dimension 0 uses 'K', which is not a declared symbol of @undeclared}}
tile.func @undeclared(%a: !tile.buffer<[M], f32, global>, %b: !tile.buffer<["K // 2"], f32, global>) symbols(M: dynamic) {
}

// -----

// expected-error @+1 {{parameter 0 dimension 0 uses 'N', which is not a declared symbol of @undeclared_in_call}}
tile.func @undeclared_in_call(%a: !tile.buffer<["ceildiv(N, 128)"], f32, global>) symbols(M: dynamic) {
}

// -----

// expected-error @+1 {{parameter 0 must be a global buffer or a scalar, got 'vector<4xf32>'}}
tile.func @param_type(%a: vector<4xf32>) {
}

// -----

//===----------------------------------------------------------------------===//
// tile.kernel, tile.symbol, tile.thread_binding
//===----------------------------------------------------------------------===//

tile.func @grid_rank() {
  // expected-error @+1 {{expects 1 to 3 grid extents, got 4}}
  tile.kernel (%a, %b, %c, %d) grid [1, 1, 1, 1] threads [128] {
  }
}

// -----

tile.func @threads_zero() {
  // expected-error @+1 {{thread extents must be positive, got 0}}
  tile.kernel (%a) grid [4] threads [0] {
  }
}

// -----

tile.func @grid_negative() {
  // expected-error @+1 {{grid extents must be non-negative, got -1}}
  tile.kernel (%a) grid [-1] threads [32] {
  }
}

// -----

tile.func @block_indices() {
  // expected-error @+1 {{expects one block index per grid extent (2), got 1}}
  tile.kernel (%a) grid [4, 4] threads [128] {
  }
}

// -----

// expected-error @+1 {{must be nested in a tile.func}}
tile.kernel (%a) grid [4] threads [128] {
}

// -----

tile.func @nested_kernel() {
  tile.kernel (%a) grid [4] threads [128] {
    // expected-error @+1 {{must not be nested in another tile.kernel}}
    tile.kernel (%b) grid [4] threads [128] {
    }
  }
}

// -----

tile.func @symbol() symbols(M: dynamic) {
  // expected-error @+1 {{symbol 'N' is not declared by @symbol}}
  %n = tile.symbol "N"
}

// -----

tile.func @thread_binding_outside() {
  // expected-error @+1 {{must be nested in a tile.kernel}}
  %t = tile.thread_binding 0
}

// -----

tile.func @thread_binding_dim() {
  tile.kernel (%a) grid [4] threads [128] {
    // expected-error @+1 {{attribute 'dim' failed to satisfy constraint}}
    %t = tile.thread_binding 3
  }
}

// -----

//===----------------------------------------------------------------------===//
// tile.alloc
//===----------------------------------------------------------------------===//

tile.func @shared_outside() {
  // expected-error @+1 {{'shared.dyn' buffers must be allocated inside a tile.kernel}}
  %0 = tile.alloc : !tile.buffer<[4], f32, shared.dyn>
  tile.kernel (%x) grid [1] threads [32] {
  }
}

// -----

tile.func @global_inside() {
  tile.kernel (%a) grid [4] threads [128] {
    // expected-error @+1 {{global buffers must be allocated outside of tile.kernel}}
    %0 = tile.alloc : !tile.buffer<[4], f32, global>
  }
}

// -----

tile.func @var_shape() {
  tile.kernel (%a) grid [4] threads [128] {
    // expected-error @+1 {{'local.var' buffers must have shape [1], got [2]}}
    %0 = tile.alloc : !tile.buffer<[2], f32, local.var>
  }
}

// -----

tile.func @init_not_var() {
  %c = arith.constant 0.0 : f32
  tile.kernel (%a) grid [4] threads [128] {
    // expected-error @+1 {{only 'local.var' buffers take an init value}}
    %0 = tile.alloc init(%c : f32) : !tile.buffer<[4], f32, local>
  }
}

// -----

tile.func @init_type() {
  %c = arith.constant 0.0 : f32
  tile.kernel (%a) grid [4] threads [128] {
    // expected-error @+1 {{init value has type 'f32', expected 'i32'}}
    %0 = tile.alloc init(%c : f32) : !tile.buffer<[1], i32, local.var>
  }
}

// -----

tile.func @barrier_rank() {
  tile.kernel (%a) grid [4] threads [128] {
    // expected-error @+1 {{barrier buffers must have rank 1}}
    %0 = tile.alloc : !tile.buffer<[2, 2], ui64, shared.barrier>
  }
}

// -----

tile.func @barrier_element() {
  tile.kernel (%a) grid [4] threads [128] {
    // expected-error @+1 {{barrier buffers must have a 64-bit integer element type, got 'i32'}}
    %0 = tile.alloc : !tile.buffer<[2], i32, shared.barrier>
  }
}

// -----

tile.func @arrive_counts() {
  tile.kernel (%a) grid [4] threads [128] {
    // expected-error @+1 {{expects 2 arrive counts, got 3}}
    %0 = tile.alloc {arrive_counts = array<i64: 1, 2, 3>} : !tile.buffer<[2], ui64, shared.barrier>
  }
}

// -----

tile.func @arrive_counts_not_barrier() {
  tile.kernel (%a) grid [4] threads [128] {
    // expected-error @+1 {{only barrier buffers take arrive counts}}
    %0 = tile.alloc {arrive_counts = array<i64: 1>} : !tile.buffer<[1], ui64, shared.dyn>
  }
}

// -----

tile.func @alloc_symbol() symbols(block_M: meta) {
  tile.kernel (%a) grid [4] threads [128] {
    // expected-error @+1 {{allocated dimension 1 uses 'block_N', which is not a declared symbol of @alloc_symbol}}
    %0 = tile.alloc : !tile.buffer<[block_M, block_N], f32, local.fragment>
  }
}

// -----

//===----------------------------------------------------------------------===//
// tile.region
//===----------------------------------------------------------------------===//

tile.func @region_offsets(%A: !tile.buffer<[64, 64], f32, global>) {
  // expected-error @+1 {{expected 2 offset values, got 1}}
  %0 = tile.region %A[0] : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[16, 16], f32, global>
}

// -----

tile.func @region_rank(%A: !tile.buffer<[64, 64], f32, global>) {
  // expected-error @+1 {{result rank 1 differs from source rank 2}}
  %0 = tile.region %A[0, 0] : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[16], f32, global>
}

// -----

tile.func @region_element(%A: !tile.buffer<[64, 64], f32, global>) {
  // expected-error @+1 {{result element type 'f16' differs from source element type 'f32'}}
  %0 = tile.region %A[0, 0] : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[16, 16], f16, global>
}

// -----

tile.func @region_scope(%A: !tile.buffer<[64, 64], f32, global>) {
  // expected-error @+1 {{result scope 'shared.dyn' differs from source scope 'global'}}
  %0 = tile.region %A[0, 0] : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[16, 16], f32, shared.dyn>
}

// -----

tile.func @region_negative(%A: !tile.buffer<[64, 64], f32, global>) {
  // expected-error @+1 {{offset -4 of dimension 1 is negative}}
  %0 = tile.region %A[0, -4] : !tile.buffer<[64, 64], f32, global> to !tile.buffer<[16, 16], f32, global>
}

// -----

//===----------------------------------------------------------------------===//
// tile.copy
//===----------------------------------------------------------------------===//

tile.func @copy_shape(%A: !tile.buffer<[64, 32], f16, global>) {
  tile.kernel (%a) grid [4] threads [128] {
    %s = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    // expected-error @+1 {{source shape [64, 32] and destination shape [32, 64] do not agree}}
    tile.copy %A to %s : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[32, 64], f16, shared.dyn>
  }
}

// -----

tile.func @copy_symbolic(%A: !tile.buffer<[M, 64], f16, global>) symbols(M: dynamic, N: dynamic) {
  tile.kernel (%a) grid [4] threads [128] {
    %s = tile.alloc : !tile.buffer<[M, 32], f16, shared.dyn>
    // expected-error @+1 {{source shape [M, 64] and destination shape [M, 32] do not agree}}
    tile.copy %A to %s : !tile.buffer<[M, 64], f16, global> to !tile.buffer<[M, 32], f16, shared.dyn>
  }
}

// -----

tile.func @copy_barrier(%A: !tile.buffer<[2], ui64, global>) {
  tile.kernel (%a) grid [4] threads [128] {
    %b = tile.alloc : !tile.buffer<[2], ui64, shared.barrier>
    // expected-error @+1 {{destination must not be a barrier buffer}}
    tile.copy %A to %b : !tile.buffer<[2], ui64, global> to !tile.buffer<[2], ui64, shared.barrier>
  }
}

// -----

//===----------------------------------------------------------------------===//
// tile.gemm
//===----------------------------------------------------------------------===//

tile.func @gemm_a_scope(%A: !tile.buffer<[64, 32], f16, global>) {
  tile.kernel (%x) grid [4] threads [128] {
    %b = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    // expected-error @+1 {{operand A must be in shared memory or a fragment, got 'global'}}
    tile.gemm %A, %b, %c : !tile.buffer<[64, 32], f16, global>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}

// -----

// Ascend's cube unit: an L0C accumulator takes L1 / L0A / L0B operands only.
tile.func @gemm_l0c_shared_operand() {
  tile.kernel (%x) grid [4] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 32], f16, shared.l1>
    %b = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, shared.l0c>
    // expected-error @+1 {{with an L0C accumulator operands A and B must be in L1, L0A or L0B}}
    tile.gemm %a, %b, %c : !tile.buffer<[64, 32], f16, shared.l1>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, shared.l0c>
  }
}

// -----

tile.func @gemm_b_scope() {
  tile.kernel (%x) grid [4] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %b = tile.alloc : !tile.buffer<[32, 64], f16, local>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    // expected-error @+1 {{operand B must be in shared memory or a fragment, got 'local'}}
    tile.gemm %a, %b, %c : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, local>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}

// -----

tile.func @gemm_accumulator() {
  tile.kernel (%x) grid [4] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %b = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, shared.dyn>
    // expected-error @+1 {{accumulator C must be a 'local.fragment' buffer, got 'shared.dyn'}}
    tile.gemm %a, %b, %c : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, shared.dyn>
  }
}

// -----

tile.func @gemm_rank() {
  tile.kernel (%x) grid [4] threads [128] {
    %a = tile.alloc : !tile.buffer<[2, 64, 32], f16, shared.dyn>
    %b = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    // expected-error @+1 {{operand A must be a 2-D tile (leading dimensions of extent 1 are allowed), got [2, 64, 32]}}
    tile.gemm %a, %b, %c : !tile.buffer<[2, 64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}

// -----

tile.func @gemm_k() {
  tile.kernel (%x) grid [4] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %b = tile.alloc : !tile.buffer<[64, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    // expected-error @+1 {{K of A and K of B differ: 32 vs 64}}
    tile.gemm %a, %b, %c : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}

// -----

// transpose_b: B is [N, K]; K of B is its second dimension.
tile.func @gemm_k_transposed() {
  tile.kernel (%x) grid [4] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %b = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    // expected-error @+1 {{K of A and K of B differ: 32 vs 64}}
    tile.gemm %a, %b, %c {transpose_b} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 32], f32, local.fragment>
  }
}

// -----

tile.func @gemm_m() symbols(block_M: meta) {
  tile.kernel (%x) grid [4] threads [128] {
    %a = tile.alloc : !tile.buffer<[128, 32], f16, shared.dyn>
    %b = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    // expected-error @+1 {{M of A and rows of C differ: 128 vs 64}}
    tile.gemm %a, %b, %c : !tile.buffer<[128, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}

// -----

tile.func @gemm_n() {
  tile.kernel (%x) grid [4] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %b = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 128], f32, local.fragment>
    // expected-error @+1 {{N of B and columns of C differ: 64 vs 128}}
    tile.gemm %a, %b, %c : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 128], f32, local.fragment>
  }
}

// -----

tile.func @gemm_dtypes() {
  tile.kernel (%x) grid [4] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %b = tile.alloc : !tile.buffer<[32, 64], bf16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    // expected-error @+1 {{operands A and B have different element types: 'f16' vs 'bf16'}}
    tile.gemm %a, %b, %c : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], bf16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}

// -----

tile.func @gemm_int_accumulator() {
  tile.kernel (%x) grid [4] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 32], i8, shared.dyn>
    %b = tile.alloc : !tile.buffer<[32, 64], i8, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    // expected-error @+1 {{accumulator element type 'f32' does not suit operand element type 'i8'}}
    tile.gemm %a, %b, %c : !tile.buffer<[64, 32], i8, shared.dyn>, !tile.buffer<[32, 64], i8, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}

// -----

tile.func @gemm_k_pack() {
  tile.kernel (%x) grid [4] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %b = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    // expected-error @+1 {{'k_pack' must be at least 1, got 0}}
    tile.gemm %a, %b, %c {k_pack = 0 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}

// -----

tile.func @gemm_wg_wait() {
  tile.kernel (%x) grid [4] threads [128] {
    %a = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %b = tile.alloc : !tile.buffer<[32, 64], f16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment>
    // expected-error @+1 {{'wg_wait' must be at least -1, got -2}}
    tile.gemm %a, %b, %c {wg_wait = -2 : i64} : !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[32, 64], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}

// -----

//===----------------------------------------------------------------------===//
// tile.fill, tile.reduce, tile.cumsum
//===----------------------------------------------------------------------===//

tile.func @fill_type() {
  // expected-note @+1 {{prior use here}}
  %c = arith.constant 0 : i32
  tile.kernel (%x) grid [4] threads [128] {
    %f = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    // expected-error @+1 {{use of value '%c' expects different type than prior uses: 'f32' vs 'i32'}}
    tile.fill %f, %c : !tile.buffer<[64], f32, local.fragment>
  }
}

// -----

tile.func @fill_type_generic() {
  %c = arith.constant 0 : i32
  tile.kernel (%x) grid [4] threads [128] {
    %f = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    // expected-error @+1 {{type of 'value' is the element value type of 'dst'}}
    "tile.fill"(%f, %c) : (!tile.buffer<[64], f32, local.fragment>, i32) -> ()
  }
}

// -----

tile.func @fill_barrier() {
  %c = arith.constant 0 : i64
  tile.kernel (%x) grid [4] threads [128] {
    %b = tile.alloc : !tile.buffer<[2], i64, shared.barrier>
    // expected-error @+1 {{destination must not be a barrier buffer}}
    tile.fill %b, %c : !tile.buffer<[2], i64, shared.barrier>
  }
}

// -----

tile.func @reduce_dim() {
  tile.kernel (%x) grid [4] threads [128] {
    %s = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    %d = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    // expected-error @+1 {{dim 2 is out of range for a rank-2 source}}
    tile.reduce sum %s to %d dim = 2 : !tile.buffer<[64, 32], f32, local.fragment> to !tile.buffer<[64], f32, local.fragment>
  }
}

// -----

tile.func @reduce_bitwise() {
  tile.kernel (%x) grid [4] threads [128] {
    %s = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    %d = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    // expected-error @+1 {{bitwise reduction 'bitxor' needs integer elements, got 'f32'}}
    tile.reduce bitxor %s to %d dim = 1 : !tile.buffer<[64, 32], f32, local.fragment> to !tile.buffer<[64], f32, local.fragment>
  }
}

// -----

tile.func @reduce_rank() {
  tile.kernel (%x) grid [4] threads [128] {
    %s = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    %d = tile.alloc : !tile.buffer<[64, 1, 1], f32, local.fragment>
    // expected-error @+1 {{destination rank 3 must be 1 or 2}}
    tile.reduce max %s to %d dim = 1 : !tile.buffer<[64, 32], f32, local.fragment> to !tile.buffer<[64, 1, 1], f32, local.fragment>
  }
}

// -----

tile.func @reduce_shape() {
  tile.kernel (%x) grid [4] threads [128] {
    %s = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    %d = tile.alloc : !tile.buffer<[32], f32, local.fragment>
    // expected-error @+1 {{destination shape [32] does not match source shape [64, 32] reduced over dim 1}}
    tile.reduce max %s to %d dim = 1 clear : !tile.buffer<[64, 32], f32, local.fragment> to !tile.buffer<[32], f32, local.fragment>
  }
}

// -----

tile.func @reduce_negative_dim() {
  tile.kernel (%x) grid [4] threads [128] {
    %s = tile.alloc : !tile.buffer<[64, 32], f32, local.fragment>
    %d = tile.alloc : !tile.buffer<[64], f32, local.fragment>
    // expected-error @+1 {{attribute 'dim' failed to satisfy constraint}}
    tile.reduce max %s to %d dim = -1 : !tile.buffer<[64, 32], f32, local.fragment> to !tile.buffer<[64], f32, local.fragment>
  }
}

// -----

tile.func @cumsum_dim() {
  tile.kernel (%x) grid [4] threads [128] {
    %s = tile.alloc : !tile.buffer<[64], f32, shared.dyn>
    // expected-error @+1 {{dim 1 is out of range for a rank-1 source}}
    tile.cumsum %s to %s dim = 1 : !tile.buffer<[64], f32, shared.dyn> to !tile.buffer<[64], f32, shared.dyn>
  }
}

// -----

tile.func @cumsum_shape() {
  tile.kernel (%x) grid [4] threads [128] {
    %s = tile.alloc : !tile.buffer<[64], f32, shared.dyn>
    %d = tile.alloc : !tile.buffer<[32], f32, shared.dyn>
    // expected-error @+1 {{destination shape [32] differs from source shape [64]}}
    tile.cumsum %s to %d dim = 0 : !tile.buffer<[64], f32, shared.dyn> to !tile.buffer<[32], f32, shared.dyn>
  }
}

// -----

//===----------------------------------------------------------------------===//
// tile.atomic_add
//===----------------------------------------------------------------------===//

tile.func @atomic_scope() {
  %v = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  tile.kernel (%x) grid [4] threads [128] {
    %l = tile.alloc : !tile.buffer<[4], f32, local>
    // expected-error @+1 {{destination must be in global or shared memory, got 'local'}}
    tile.atomic_add %l[%c0], %v : !tile.buffer<[4], f32, local>, f32
  }
}

// -----

tile.func @atomic_indices(%A: !tile.buffer<[4, 4], f32, global>) {
  %v = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  tile.kernel (%x) grid [4] threads [128] {
    // expected-error @+1 {{expects 2 indices, got 1}}
    tile.atomic_add %A[%c0], %v : !tile.buffer<[4, 4], f32, global>, f32
  }
}

// -----

tile.func @atomic_value(%A: !tile.buffer<[4], f32, global>) {
  %v = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  tile.kernel (%x) grid [4] threads [128] {
    // expected-error @+1 {{value has type 'i32', expected 'f32'}}
    tile.atomic_add %A[%c0], %v : !tile.buffer<[4], f32, global>, i32
  }
}

// -----

tile.func @atomic_result(%A: !tile.buffer<[4], f32, global>) {
  %v = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  tile.kernel (%x) grid [4] threads [128] {
    // expected-error @+1 {{result has type 'f16', expected 'f32'}}
    %r = tile.atomic_add %A[%c0], %v : !tile.buffer<[4], f32, global>, f32 -> f16
  }
}

// -----

tile.func @atomic_tile_value(%A: !tile.buffer<[4], f32, global>) {
  %v = arith.constant 1.0 : f32
  tile.kernel (%x) grid [4] threads [128] {
    // expected-error @+1 {{without indices the value must be a buffer, got 'f32'}}
    tile.atomic_add %A, %v : !tile.buffer<[4], f32, global>, f32
  }
}

// -----

tile.func @atomic_tile_result(%A: !tile.buffer<[4], f32, global>) {
  tile.kernel (%x) grid [4] threads [128] {
    %f = tile.alloc : !tile.buffer<[4], f32, local.fragment>
    // expected-error @+1 {{the tile form returns no previous value}}
    %r = tile.atomic_add %A, %f : !tile.buffer<[4], f32, global>, !tile.buffer<[4], f32, local.fragment> -> f32
  }
}

// -----

tile.func @atomic_tile_shape(%A: !tile.buffer<[4, 8], f32, global>) {
  tile.kernel (%x) grid [4] threads [128] {
    %f = tile.alloc : !tile.buffer<[8, 4], f32, local.fragment>
    // expected-error @+1 {{destination shape [4, 8] and value shape [8, 4] do not agree}}
    tile.atomic_add %A, %f : !tile.buffer<[4, 8], f32, global>, !tile.buffer<[8, 4], f32, local.fragment>
  }
}

// -----

//===----------------------------------------------------------------------===//
// tile.load, tile.store
//===----------------------------------------------------------------------===//

tile.func @load_indices(%A: !tile.buffer<[4, 4], f32, global>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expects 2 indices for a rank-2 buffer, got 1}}
  %v = tile.load %A[%c0] : !tile.buffer<[4, 4], f32, global>
}

// -----

tile.func @load_no_indices(%A: !tile.buffer<[1], f32, global>) {
  // expected-error @+1 {{expects 1 indices for a rank-1 buffer, got 0}}
  %v = tile.load %A[] : !tile.buffer<[1], f32, global>
}

// -----

tile.func @store_indices(%A: !tile.buffer<[4], f32, global>) {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f32
  // expected-error @+1 {{expects 1 indices for a rank-1 buffer, got 2}}
  tile.store %v, %A[%c0, %c0] : !tile.buffer<[4], f32, global>
}

// -----

tile.func @load_type(%A: !tile.buffer<[4], ui8, global>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{type of 'result' is the element value type of 'buffer'}}
  %v = "tile.load"(%A, %c0) : (!tile.buffer<[4], ui8, global>, index) -> i16
}

// -----

//===----------------------------------------------------------------------===//
// Loops and control flow
//===----------------------------------------------------------------------===//

tile.func @parallel_empty() {
  tile.kernel (%x) grid [4] threads [128] {
    // expected-error @+1 {{expects at least one extent}}
    tile.parallel () in [] {
    }
  }
}

// -----

tile.func @parallel_negative() {
  tile.kernel (%x) grid [4] threads [128] {
    // expected-error @+1 {{extents must be non-negative, got -8}}
    tile.parallel (%i) in [-8] {
    }
  }
}

// -----

tile.func @parallel_ivs() {
  tile.kernel (%x) grid [4] threads [128] {
    // expected-error @+1 {{expects one loop variable per extent (2), got 1}}
    tile.parallel (%i) in [8, 8] {
    }
  }
}

// -----

tile.func @parallel_tile_op(%A: !tile.buffer<[8], f32, global>) {
  tile.kernel (%x) grid [4] threads [128] {
    %s = tile.alloc : !tile.buffer<[8], f32, shared.dyn>
    // expected-error @+1 {{must not contain 'tile.copy'}}
    tile.parallel (%i) in [8] {
      // expected-note @+1 {{nested operation here}}
      tile.copy %A to %s : !tile.buffer<[8], f32, global> to !tile.buffer<[8], f32, shared.dyn>
    }
  }
}

// -----

tile.func @parallel_fragment_clear() {
  tile.kernel (%x) grid [4] threads [128] {
    %f = tile.alloc : !tile.buffer<[8], f32, local.fragment>
    // expected-error @+1 {{must not contain 'tile.clear'}}
    tile.parallel (%i) in [8] {
      // expected-note @+1 {{nested operation here}}
      tile.clear %f : !tile.buffer<[8], f32, local.fragment>
    }
  }
}

// -----

tile.func @parallel_pipelined() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  tile.kernel (%x) grid [4] threads [128] {
    // expected-error @+1 {{must not contain 'tile.pipelined'}}
    tile.parallel (%i) in [8] {
      // expected-note @+1 {{nested operation here}}
      tile.pipelined %k = %c0 to %c4 stages 2 {
      }
    }
  }
}

// -----

tile.func @pipelined_order() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  tile.kernel (%x) grid [4] threads [128] {
    // expected-error @+1 {{'order' has 3 entries but 'stage' has 2}}
    tile.pipelined %k = %c0 to %c4 stages 2 order [0, 1, 2] stage [0, 1] {
    }
  }
}

// -----

tile.func @pipelined_stage() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  tile.kernel (%x) grid [4] threads [128] {
    // expected-error @+1 {{stage 3 is outside [-1, num_stages = 2]}}
    tile.pipelined %k = %c0 to %c4 stages 2 stage [0, 3] {
    }
  }
}

// -----

tile.func @pipelined_outside() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{must be nested in a tile.kernel}}
  tile.pipelined %k = %c0 to %c4 stages 2 {
  }
}

// -----

tile.func @while_no_condition() {
  tile.kernel (%x) grid [4] threads [128] {
    // expected-error @+1 {{condition region must end with tile.condition}}
    tile.while {
    } do {
    }
  }
}

// -----

tile.func @while_condition_in_body() {
  %t = arith.constant true
  tile.kernel (%x) grid [4] threads [128] {
    // expected-error @+1 {{tile.condition may only end the condition region}}
    tile.while {
      tile.condition %t
    } do {
      tile.condition %t
    }
  }
}

// -----

tile.func @while_condition_in_nested_body() {
  %t = arith.constant true
  tile.kernel (%x) grid [4] threads [128] {
    tile.while {
      tile.condition %t
    } do {
      // expected-error @+1 {{tile.condition may only end the condition region}}
      tile.while {
        tile.condition %t
      } do {
        tile.condition %t
      }
    }
  }
}

// -----

tile.func @while_condition_not_last() {
  %t = arith.constant true
  tile.kernel (%x) grid [4] threads [128] {
    tile.while {
      // expected-error @+1 {{must be the last operation of the condition region}}
      tile.condition %t
      tile.condition %t
    } do {
    }
  }
}

// -----

tile.func @condition_outside() {
  %t = arith.constant true
  // expected-error @+1 {{expects parent op 'tile.while'}}
  tile.condition %t
}

// -----

//===----------------------------------------------------------------------===//
// Synchronisation, annotations and debug
//===----------------------------------------------------------------------===//

tile.func @sync_arrive_without_id() {
  // expected-error @+1 {{'arrive_count' requires 'barrier_id'}}
  tile.sync_threads {arrive_count = 64 : i64}
}

// -----

tile.func @sync_arrive_zero() {
  // expected-error @+1 {{'arrive_count' must be positive}}
  tile.sync_threads {barrier_id = 1 : i64, arrive_count = 0 : i64}
}

// -----

tile.func @swizzle_outside() {
  // expected-error @+1 {{must be nested in a tile.kernel}}
  tile.use_swizzle 8 row
}

// -----

tile.func @annotate_var() {
  tile.kernel (%x) grid [4] threads [128] {
    %v = tile.alloc : !tile.buffer<[1], i32, local.var>
    // expected-error @+1 {{cannot annotate the layout of a 'local.var' buffer}}
    tile.annotate_layout %v layout("x") : !tile.buffer<[1], i32, local.var>
  }
}

// -----

tile.func @print_type(%v: index) {
  %m = arith.constant dense<0.0> : vector<2x2xf32>
  // expected-error @+1 {{expects a scalar or a buffer, got 'vector<2x2xf32>'}}
  tile.print "m" %m : vector<2x2xf32>
}

// -----

tile.func @intrinsic_callee(%v: f32) {
  // expected-error @+1 {{callee must name a TileLang primitive (`T.name`) or be `tlc.unknown_value`, `tlc.unmodelled_call`, `tlc.raised`, `tlc.ascend` or `tlc.unbuildable`, got 'shfl_xor'}}
  %r = tile.intrinsic "shfl_xor"(%v) : (f32) -> f32
}

// -----

tile.func @intrinsic_params(%v: f32, %d: i32) {
  // expected-error @+1 {{names 1 parameters for 2 operands}}
  %r = tile.intrinsic "T.shfl_xor"(%v, %d) {params = ["value"]} : (f32, i32) -> f32
}

// -----

tile.func @intrinsic_results(%v: f32) {
  // expected-error @+1 {{has at most one result, got 2}}
  %r:2 = tile.intrinsic "T.shfl_xor"(%v) : (f32) -> (f32, f32)
}

// -----

tile.func @make_tensor_scope(%p: i64) {
  // expected-error @+1 {{makes a global tensor, not a 'shared.dyn' buffer}}
  %t = tile.make_tensor %p : i64 -> !tile.buffer<[4], f16, shared.dyn>
}

// -----

tile.func @make_tensor_width(%p: i32) {
  // expected-error @+1 {{expects a 64-bit address, got 'i32'}}
  %t = tile.make_tensor %p : i32 -> !tile.buffer<[4], f16, global>
}

// -----

tile.func @view_scope(%a: !tile.buffer<[4, 4], f16, global>) {
  // expected-error @+1 {{keeps the memory scope: 'global' to 'shared.dyn'}}
  %v = tile.view %a : !tile.buffer<[4, 4], f16, global> to !tile.buffer<[16], f16, shared.dyn>
}

// -----

tile.func @view_bits(%a: !tile.buffer<[4, 4], f16, global>) {
  // expected-error @+1 {{views 256 bits of [4, 4] as 512 bits of [16]}}
  %v = tile.view %a : !tile.buffer<[4, 4], f16, global> to !tile.buffer<[16], f32, global>
}

// -----

tile.func @gemm_cta_pair_columns() {
  tile.kernel (%x) grid [2] threads [128] {
    %a = tile.alloc : !tile.buffer<[128, 64], bf16, shared.dyn>
    %b = tile.alloc : !tile.buffer<[64, 128], bf16, shared.dyn>
    %c = tile.alloc : !tile.buffer<[128, 128], f32, local.fragment>
    // expected-error @+1 {{with use_2cta the columns of C must be twice N of B: 128 vs 128}}
    tile.gemm %a, %b, %c {tile.use_2cta} : !tile.buffer<[128, 64], bf16, shared.dyn>, !tile.buffer<[64, 128], bf16, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>
  }
}
