// Input of copy-plan.mlir: copy plans the printer refuses (an unknown
// instruction; a chunk that does not divide the innermost extent; a
// 32-byte vector; cp.async into local memory).
// CHECK: copy-plan-malformed.mlir:[[@LINE+9]]:5: error: malformed copy plan: tile.instr must be "element", "vector" or "cp.async" with tile.vec a power of two and tile.xor_runs 4 or 8 (tile-plan-copies)
// CHECK: copy-plan-malformed.mlir:[[@LINE+16]]:5: error: copy plan: chunks of 16 elements do not divide the copy's innermost extent
// CHECK: copy-plan-malformed.mlir:[[@LINE+23]]:5: error: copy plan: a vector chunk of 16 elements is no 4-, 8- or 16-byte copy of one type
// CHECK: copy-plan-malformed.mlir:[[@LINE+30]]:5: error: copy plan: cp.async writes shared memory on CUDA only
tile.func @unknown(%A: !tile.buffer<[256, 512], f16, global>) {
  tile.kernel (%bx) grid [4] threads [128] {
    %c0 = arith.constant 0 : index
    %S = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %At = tile.region %A[%c0, %c0] : !tile.buffer<[256, 512], f16, global> to !tile.buffer<[64, 32], f16, global>
    tile.copy %At to %S {tile.instr = "ldmatrix", tile.vec = 8 : i64} : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
  }
}
tile.func @ragged(%A: !tile.buffer<[256, 512], f16, global>) {
  tile.kernel (%bx) grid [4] threads [128] {
    %c0 = arith.constant 0 : index
    %S = tile.alloc : !tile.buffer<[64, 24], f16, shared.dyn>
    %At = tile.region %A[%c0, %c0] : !tile.buffer<[256, 512], f16, global> to !tile.buffer<[64, 24], f16, global>
    tile.copy %At to %S {tile.instr = "vector", tile.vec = 16 : i64} : !tile.buffer<[64, 24], f16, global> to !tile.buffer<[64, 24], f16, shared.dyn>
  }
}
tile.func @wide(%A: !tile.buffer<[256, 512], f16, global>) {
  tile.kernel (%bx) grid [4] threads [128] {
    %c0 = arith.constant 0 : index
    %S = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn>
    %At = tile.region %A[%c0, %c0] : !tile.buffer<[256, 512], f16, global> to !tile.buffer<[64, 32], f16, global>
    tile.copy %At to %S {tile.instr = "vector", tile.vec = 16 : i64} : !tile.buffer<[64, 32], f16, global> to !tile.buffer<[64, 32], f16, shared.dyn>
  }
}
tile.func @local(%A: !tile.buffer<[256, 512], f32, global>) {
  tile.kernel (%bx) grid [4] threads [128] {
    %c0 = arith.constant 0 : index
    %L = tile.alloc : !tile.buffer<[4], f32, local>
    %At = tile.region %A[%c0, %c0] : !tile.buffer<[256, 512], f32, global> to !tile.buffer<[1, 4], f32, global>
    tile.copy %At to %L {tile.instr = "cp.async", tile.vec = 4 : i64} : !tile.buffer<[1, 4], f32, global> to !tile.buffer<[4], f32, local>
  }
}
