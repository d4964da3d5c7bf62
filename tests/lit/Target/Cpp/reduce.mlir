// RUN: tlc-translate --tile-to-cpp %s | FileCheck %s

// T.reduce_*, T.cumsum and T.fill/T.clear: each first as a version without
// checks, taken when the views hold every index visited, then checked.

// CHECK-LABEL: extern "C" int tlc_reductions(
// CHECK: // T.fill
// CHECK: const float [[F:.*]] = -std::numeric_limits<float>::infinity();
// CHECK: tlc::cpu::storeChecked(st, {{.*}}, mx, {{{.*}}}, [[F]]);
// CHECK: // T.reduce_max over dimension 1, accumulate into dst, in float
// CHECK-NEXT: if (tlc::cpu::covers(s, {int64_t(64), int64_t(128)}) && tlc::cpu::covers(mx, {int64_t(64)})) {
// CHECK:        acc = std::max<float>(acc, tlc::cpu::cast<float>(s.at({{{.*}}, r})));
// CHECK:        acc = std::max<float>(tlc::cpu::cast<float>(mx.at({{{.*}}})), acc);
// CHECK:      } else {
// CHECK: float [[A:acc[_0-9]*]] = -std::numeric_limits<float>::infinity();
// CHECK: [[A]] = std::max<float>([[A]], tlc::cpu::cast<float>(tlc::cpu::loadChecked(st, {{.*}}, s, {{{.*}}})));
// CHECK: [[A]] = std::max<float>(tlc::cpu::cast<float>(tlc::cpu::loadChecked(st, {{.*}}, mx, {{{.*}}})), [[A]]);
// CHECK: // T.reduce_sum over dimension 1, clear, in float
// CHECK: storeChecked(st, {{.*}}, sum, {{{.*}}, 0}, tlc::cpu::cast<float>(acc
// CHECK: // T.reduce_absmax over dimension 0, clear, in float
// CHECK: = std::max<float>({{.*}}, std::fabs(tlc::cpu::cast<float>(
// CHECK: // T.reduce_bitxor over dimension 0, clear, in int32_t
// CHECK: int32_t {{.*}} = int32_t(0);
// CHECK: // T.cumsum over dimension 0, reverse, in float
// CHECK: const int64_t [[P:p[_0-9]*]] = (64) - 1 - r
// CHECK: += tlc::cpu::cast<float>(tlc::cpu::loadChecked(st, {{.*}}, sh, {[[P]]}));
// CHECK: // T.clear
// CHECK: tlc::cpu::storeChecked(st, {{.*}}, h, {{{.*}}}, tlc::cpu::f16());
tile.func @reductions() {
  tile.kernel (%bx) grid [1] threads [128] {
    %s = tile.alloc : !tile.buffer<[64, 128], f32, local.fragment> loc("s")
    %mx = tile.alloc : !tile.buffer<[64], f32, local.fragment> loc("mx")
    %sum = tile.alloc : !tile.buffer<[64, 1], f32, local.fragment> loc("sum")
    %ninf = arith.constant 0xFF800000 : f32
    tile.fill %mx, %ninf : !tile.buffer<[64], f32, local.fragment>
    tile.reduce max %s to %mx dim = 1 : !tile.buffer<[64, 128], f32, local.fragment> to !tile.buffer<[64], f32, local.fragment>
    tile.reduce sum %s to %sum dim = 1 clear : !tile.buffer<[64, 128], f32, local.fragment> to !tile.buffer<[64, 1], f32, local.fragment>
    %col = tile.alloc : !tile.buffer<[128], f32, local.fragment> loc("col")
    tile.reduce absmax %s to %col dim = 0 clear : !tile.buffer<[64, 128], f32, local.fragment> to !tile.buffer<[128], f32, local.fragment>
    %bits = tile.alloc : !tile.buffer<[8, 4], i32, local.fragment> loc("bits")
    %x = tile.alloc : !tile.buffer<[4], i32, local.fragment> loc("x")
    tile.reduce bitxor %bits to %x dim = 0 clear : !tile.buffer<[8, 4], i32, local.fragment> to !tile.buffer<[4], i32, local.fragment>
    %sh = tile.alloc : !tile.buffer<[64], f32, shared.dyn> loc("sh")
    tile.cumsum %sh to %sh dim = 0 reverse : !tile.buffer<[64], f32, shared.dyn> to !tile.buffer<[64], f32, shared.dyn>
    %h = tile.alloc : !tile.buffer<[16], f16, local.fragment> loc("h")
    tile.clear %h : !tile.buffer<[16], f16, local.fragment>
  }
}
