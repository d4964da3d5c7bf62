// RUN: tlc-translate --tile-to-cpp %s | FileCheck %s

// Scalar arith/math ops in T.Parallel: f16 arithmetic is done in float and
// rounded at each result, integer division follows MLIR's rounding, global
// element accesses are guarded. The index ranges of the accesses (i in
// [0, 15]) are checked once, before a version of the loop without the
// per-element checks.

// CHECK-LABEL: extern "C" int tlc_scalars(
// CHECK: // T.Parallel: one host loop per dimension; unchecked when the 3 accesses with known index ranges are in range
// CHECK-NEXT: if (tlc::cpu::spans(W, {INT64_C(0)}, {(int64_t(16) - 1)}) &&
// CHECK-NEXT:   tlc::cpu::spans(X, {INT64_C(0)}, {(int64_t(16) - 1)}) &&
// CHECK-NEXT:   tlc::cpu::spans(Y, {INT64_C(0)}, {(int64_t(16) - 1)})) {
// CHECK-NEXT: for (int64_t i = 0; i < 16; ++i) {
// CHECK-NEXT:   const tlc::cpu::f16 {{.*}} = X.at({i});
// CHECK:        tlc::cpu::cast<int8_t>(W.at({i}));
// CHECK:        Y.at({i}) = {{.*}};
// CHECK: } else {
// CHECK: for (int64_t i_1 = 0; i_1 < 16; ++i_1) {
// CHECK:   const tlc::cpu::f16 [[X:.*]] = tlc::cpu::load(X, {i_1});
// CHECK:   const tlc::cpu::f16 [[S:.*]] = tlc::cpu::f16((float([[X]]) * float([[X]])));
// CHECK:   const float [[E:.*]] = tlc::cpu::cast<float>([[S]]);
// CHECK:   const float [[M:.*]] = ([[E]] * 1.44269502f);
// CHECK:   const float [[X2:.*]] = std::exp2([[M]]);
// CHECK:   const bool [[C:.*]] = ([[X2]] < 0.5f);
// CHECK:   const float [[SEL:.*]] = ([[C]] ? [[X2]] : -std::numeric_limits<float>::infinity());
// CHECK:   const int64_t {{.*}} = tlc::cpu::floorDiv<int64_t>(i_1, 3);
// CHECK:   const int8_t [[U:.*]] = tlc::cpu::cast<int8_t>(tlc::cpu::load(W, {i_1}));
// CHECK:   const int32_t [[Z:.*]] = tlc::cpu::cast<int32_t>(uint8_t([[U]]));
// CHECK:   const int32_t {{.*}} = int32_t(uint32_t([[Z]]) >> uint32_t(4));
// CHECK:   const tlc::cpu::f8e4m3 [[F8:.*]] = tlc::cpu::cast<tlc::cpu::f8e4m3>([[SEL]]);
// CHECK:   tlc::cpu::store(Y, {i_1}, [[F8]]);
tile.func @scalars(%X: !tile.buffer<[N], f16, global> loc("X"),
                   %W: !tile.buffer<[N], ui8, global> loc("W"),
                   %Y: !tile.buffer<[N], f8E4M3FN, global> loc("Y"))
    symbols(N: dynamic) {
  tile.kernel (%bx) grid [1] threads [128] {
    tile.parallel (%i) in [16] {
      %x = tile.load %X[%i] : !tile.buffer<[N], f16, global>
      %s = arith.mulf %x, %x : f16
      %e = arith.extf %s : f16 to f32
      %k = arith.constant 1.44269504 : f32
      %m = arith.mulf %e, %k : f32
      %x2 = math.exp2 %m : f32
      %half = arith.constant 0.5 : f32
      %c = arith.cmpf olt, %x2, %half : f32
      %ninf = arith.constant 0xFF800000 : f32
      %sel = arith.select %c, %x2, %ninf : f32
      %c3 = arith.constant 3 : index
      %q = arith.floordivsi %i, %c3 : index
      %u = tile.load %W[%i] : !tile.buffer<[N], ui8, global>
      %z = arith.extui %u : i8 to i32
      %c4 = arith.constant 4 : i32
      %sh = arith.shrui %z, %c4 : i32
      %f8 = arith.truncf %sel : f32 to f8E4M3FN
      tile.store %f8, %Y[%i] : !tile.buffer<[N], f8E4M3FN, global>
    }
  }
}
