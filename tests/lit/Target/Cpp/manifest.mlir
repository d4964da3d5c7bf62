// RUN: tlc-translate --tile-to-manifest %s | FileCheck %s

// The manifest fields read off the IR: parameters with symbolic shapes and
// inferred roles, symbols, launches with grid expressions and dynamic
// shared memory.

// CHECK-LABEL: "kernel": "matmul"
// CHECK: "launches": [
// CHECK:   "block": [
// CHECK-NEXT: 128
// CHECK:   "dynamic_shared_memory": 16384,
// CHECK:   "grid": [
// CHECK-NEXT: 8,
// CHECK-NEXT: "ceildiv(M, 128)"
// CHECK: "name": "matmul",
// CHECK: "params": [
// CHECK:   "dtype": "float16",
// CHECK-NEXT: "kind": "tensor",
// CHECK-NEXT: "name": "A",
// CHECK-NEXT: "role": "in",
// CHECK-NEXT: "shape": [
// CHECK-NEXT: "M",
// CHECK-NEXT: 1024
// CHECK:   "name": "B",
// CHECK-NEXT: "role": "in",
// CHECK:   "name": "C",
// CHECK-NEXT: "role": "out",
// CHECK:   "name": "D",
// CHECK-NEXT: "role": "inout",
// CHECK: "symbols": [
// CHECK:   "kind": "dynamic",
// CHECK-NEXT: "name": "M"
tile.func @matmul(%A: !tile.buffer<[M, 1024], f16, global> loc("A"),
                  %B: !tile.buffer<[1024, 1024], f16, global> loc("B"),
                  %C: !tile.buffer<[M, 1024], f16, global> loc("C"),
                  %D: !tile.buffer<[M, 1024], f32, global> loc("D"))
    symbols(M: dynamic) {
  %M = tile.symbol "M"
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %gy = arith.ceildivsi %M, %c128 : index
  tile.kernel (%bx, %by) grid [8, %gy] threads [128] {
    %A_s = tile.alloc : !tile.buffer<[128, 32], f16, shared.dyn>
    %B_s = tile.alloc : !tile.buffer<[32, 128], f16, shared.dyn>
    %acc = tile.alloc : !tile.buffer<[128, 128], f32, local.fragment>
    %a = tile.region %A[%c0, %c0] : !tile.buffer<[M, 1024], f16, global> to !tile.buffer<[128, 32], f16, global>
    tile.copy %a to %A_s : !tile.buffer<[128, 32], f16, global> to !tile.buffer<[128, 32], f16, shared.dyn>
    %b = tile.region %B[%c0, %c0] : !tile.buffer<[1024, 1024], f16, global> to !tile.buffer<[32, 128], f16, global>
    tile.copy %b to %B_s : !tile.buffer<[32, 128], f16, global> to !tile.buffer<[32, 128], f16, shared.dyn>
    tile.gemm %A_s, %B_s, %acc : !tile.buffer<[128, 32], f16, shared.dyn>, !tile.buffer<[32, 128], f16, shared.dyn>, !tile.buffer<[128, 128], f32, local.fragment>
    %c = tile.region %C[%c0, %c0] : !tile.buffer<[M, 1024], f16, global> to !tile.buffer<[128, 128], f16, global>
    tile.copy %acc to %c : !tile.buffer<[128, 128], f32, local.fragment> to !tile.buffer<[128, 128], f16, global>
    %d = tile.region %D[%c0, %c0] : !tile.buffer<[M, 1024], f32, global> to !tile.buffer<[128, 128], f32, global>
    tile.atomic_add %d, %acc : !tile.buffer<[128, 128], f32, global>, !tile.buffer<[128, 128], f32, local.fragment>
  }
}
