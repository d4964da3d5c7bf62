// RUN: tlc-translate --tile-to-cpp %s | FileCheck %s

// T.gemm: loops accumulating in the accumulator dtype (f32 for f16/fp8
// operands, i32 for i8), transposes read the operand the other way round,
// leading unit dimensions are indexed with 0, clear_accum starts from zero.

// CHECK-LABEL: extern "C" int tlc_gemms(
// CHECK: // T.gemm: C[64, 64] += A * B^T, K = 32, accumulated in float
// CHECK: for (int64_t [[I:i[_0-9]*]] = 0; [[I]] < 64; ++[[I]]) {
// CHECK:   for (int64_t [[J:j[_0-9]*]] = 0; [[J]] < 64; ++[[J]]) {
// CHECK:     float [[ACC:acc[_0-9]*]] = tlc::cpu::cast<float>(c.at({[[I]], [[J]]}));
// CHECK:     for (int64_t [[K:k[_0-9]*]] = 0; [[K]] < 32; ++[[K]]) {
// CHECK:       [[ACC]] += tlc::cpu::cast<float>(a.at({0, [[I]], [[K]]})) * tlc::cpu::cast<float>(b.at({[[J]], [[K]]}));
// CHECK:     c.at({[[I]], [[J]]}) = tlc::cpu::cast<float>([[ACC]]);
// CHECK: // T.gemm: C[64, 64] = A^T * B, K = 32, accumulated in int32_t
// CHECK:     int32_t [[ACC2:acc[_0-9]*]] = int32_t();
// CHECK:       [[ACC2]] += tlc::cpu::cast<int32_t>(ia.at({{{.*}}})) * tlc::cpu::cast<int32_t>(ib.at({{{.*}}}));
// CHECK: // T.gemm: C[64, 64] += A * B, K = 32, accumulated in float
// CHECK:       {{.*}} += tlc::cpu::cast<float>(fa.at({{{.*}}})) * tlc::cpu::cast<float>(fb.at({{{.*}}}));
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
