// RUN: tlc-translate --tile-to-cpp %s | FileCheck %s

// T.gemm: one call of tlc::cpu::gemm per op, accumulating in the
// accumulator dtype (f32 for f16/fp8 operands, i32 for i8), with the
// transposes and clear_accum as flags (the helper reads the innermost two
// dimensions, leading unit dimensions at 0; tests/unit/Runtime/GemmTest.cpp
// checks it against the loop nest of the definition).

// CHECK-LABEL: extern "C" int tlc_gemms(
// CHECK: // T.gemm: C[64, 64] += A * B^T, K = 32, accumulated in float
// CHECK-NEXT: tlc::cpu::gemm<float>(a, b, c, 64, 64, 32, false, true, false);
// CHECK: // T.gemm: C[64, 64] = A^T * B, K = 32, accumulated in int32_t
// CHECK-NEXT: tlc::cpu::gemm<int32_t>(ia, ib, ic, 64, 64, 32, true, false, true);
// CHECK: // T.gemm: C[64, 64] += A * B, K = 32, accumulated in float
// CHECK-NEXT: tlc::cpu::gemm<float>(fa, fb, c, 64, 64, 32, false, false, false);
tile.func @gemms() {
  tile.kernel (%bx) grid [1] threads [128] {
    %a = tile.alloc : !tile.buffer<[1, 64, 32], f16, shared.dyn> loc("a")
    %b = tile.alloc : !tile.buffer<[64, 32], f16, shared.dyn> loc("b")
    %c = tile.alloc : !tile.buffer<[64, 64], f32, local.fragment> loc("c")
    tile.gemm %a, %b, %c {transpose_b} : !tile.buffer<[1, 64, 32], f16, shared.dyn>, !tile.buffer<[64, 32], f16, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
    %ia = tile.alloc : !tile.buffer<[32, 64], i8, shared> loc("ia")
    %ib = tile.alloc : !tile.buffer<[32, 64], i8, shared> loc("ib")
    %ic = tile.alloc : !tile.buffer<[64, 64], i32, local.fragment> loc("ic")
    tile.gemm %ia, %ib, %ic {transpose_a, clear_accum} : !tile.buffer<[32, 64], i8, shared>, !tile.buffer<[32, 64], i8, shared>, !tile.buffer<[64, 64], i32, local.fragment>
    %fa = tile.alloc : !tile.buffer<[64, 32], f8E4M3FN, shared.dyn> loc("fa")
    %fb = tile.alloc : !tile.buffer<[32, 64], f8E5M2, shared.dyn> loc("fb")
    tile.gemm %fa, %fb, %c : !tile.buffer<[64, 32], f8E4M3FN, shared.dyn>, !tile.buffer<[32, 64], f8E5M2, shared.dyn>, !tile.buffer<[64, 64], f32, local.fragment>
  }
}
