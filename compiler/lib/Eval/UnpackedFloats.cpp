//===- UnpackedFloats.cpp - Unpacked 4/6-bit float codes ------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// TileLang's `float4_e2m1_unpacked`, `float6_e2m3fn_unpacked` and
// `float6_e3m2fn_unpacked` are shared-memory storage tags: one 4- or 6-bit
// OCP MX float code per byte, in the byte's low bits (CUTLASS's
// `float_e2m1_unpacksmem_t`). tlc stores them as bytes (`ui8`); the
// evaluator keeps the dtype on the values, refuses their arithmetic and
// converts them with T.Cast through float32, built here from integer and
// float32 `arith` ops that every target prints:
//
//   decode: sign s, exponent field ef (E bits, bias b), mantissa m (M bits);
//           |x| = (ef == 0 ? m : 2^M + m) * 2^(max(ef, 1) - b - M), exact;
//   encode: round to nearest even, saturate to the largest finite code
//           (PTX's cvt.rn.satfinite rule; the formats have no infinity or
//           NaN), NaN to the positive largest code, the sign kept for -0
//           and for negatives that round to 0 (as tlc_device/fp4.h does).
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>

using namespace tlc;
using namespace tlc::eval;

namespace {
/// The fields of an unpacked format: exponent bits, mantissa bits, bias.
struct Format {
  int exp, man, bias;
};

Format formatOf(lang::DType t) {
  int e = int(t.getExponentBits()), m = int(t.getMantissaBits());
  return {e, m, (1 << (e - 1)) - 1};
}

/// Builds the conversions of one format at one location.
struct Builder {
  IRGen &ir;
  mlir::Location l;
  Format f;

  mlir::OpBuilder &b() { return ir.b; }
  mlir::Value i32(int64_t v) { return ir.constInt(v, b().getI32Type(), l); }
  mlir::Value f32(double v) { return ir.constFloat(v, b().getF32Type(), l); }
  mlir::Value andI(mlir::Value x, int64_t m) {
    return mlir::arith::AndIOp::create(b(), l, x, i32(m));
  }
  mlir::Value shr(mlir::Value x, int64_t n) {
    return mlir::arith::ShRUIOp::create(b(), l, x, i32(n));
  }
  mlir::Value shl(mlir::Value x, int64_t n) {
    return mlir::arith::ShLIOp::create(b(), l, x, i32(n));
  }
  mlir::Value add(mlir::Value x, mlir::Value y) {
    return mlir::arith::AddIOp::create(b(), l, x, y);
  }
  mlir::Value cmp(mlir::arith::CmpIPredicate p, mlir::Value x, mlir::Value y) {
    return mlir::arith::CmpIOp::create(b(), l, p, x, y);
  }
  mlir::Value select(mlir::Value c, mlir::Value x, mlir::Value y) {
    return mlir::arith::SelectOp::create(b(), l, c, x, y);
  }
  /// 2^e as a float32 (e a normal float32 exponent).
  mlir::Value pow2(mlir::Value e) {
    mlir::Value bits = shl(add(e, i32(127)), 23);
    return mlir::arith::BitcastOp::create(b(), l, b().getF32Type(), bits);
  }

  mlir::Value decode(mlir::Value byte) {
    using P = mlir::arith::CmpIPredicate;
    mlir::Value c =
        mlir::arith::ExtUIOp::create(b(), l, b().getI32Type(), byte);
    mlir::Value sign = andI(shr(c, f.exp + f.man), 1);
    mlir::Value ef = andI(shr(c, f.man), (1 << f.exp) - 1);
    mlir::Value m = andI(c, (1 << f.man) - 1);
    mlir::Value sub = cmp(P::eq, ef, i32(0));
    mlir::Value k = select(sub, m, add(m, i32(1 << f.man)));
    mlir::Value e = select(sub, i32(1), ef);
    mlir::Value scale = pow2(add(e, i32(-f.bias - f.man)));
    mlir::Value kf =
        mlir::arith::UIToFPOp::create(b(), l, b().getF32Type(), k);
    mlir::Value mag = mlir::arith::MulFOp::create(b(), l, kf, scale);
    mlir::Value neg = mlir::arith::NegFOp::create(b(), l, mag);
    return select(cmp(P::ne, sign, i32(0)), neg, mag);
  }

  mlir::Value encode(mlir::Value x) {
    using P = mlir::arith::CmpIPredicate;
    mlir::Type f32T = b().getF32Type(), i32T = b().getI32Type();
    int emin = 1 - f.bias;
    int64_t maxCode = (int64_t(1) << (f.exp + f.man)) - 1;
    // The largest finite value: all exponent and mantissa bits set.
    double maxValue = double((1 << (f.man + 1)) - 1) *
                      std::ldexp(1.0, (1 << f.exp) - 1 - f.bias - f.man);
    mlir::Value bits = mlir::arith::BitcastOp::create(b(), l, i32T, x);
    mlir::Value sign = shr(bits, 31);
    mlir::Value a = mlir::arith::BitcastOp::create(b(), l, f32T,
                                                   andI(bits, 0x7fffffff));
    // x != x (unordered-or-unequal) holds only for NaN.
    mlir::Value nan = mlir::arith::CmpFOp::create(
        b(), l, mlir::arith::CmpFPredicate::UNE, x, x);
    // Past twice the largest value every input saturates: cap it there
    // (infinity included) so the exponent below stays small; a NaN is
    // computed as 0 (its code is chosen at the end).
    a = select(nan, f32(0), a);
    mlir::Value cap = f32(2 * maxValue);
    mlir::Value big = mlir::arith::CmpFOp::create(
        b(), l, mlir::arith::CmpFPredicate::OGT, a, cap);
    a = select(big, cap, a);
    mlir::Value abits = mlir::arith::BitcastOp::create(b(), l, i32T, a);
    mlir::Value e = add(shr(abits, 23), i32(-127));
    mlir::Value eq = select(cmp(P::slt, e, i32(emin)), i32(emin), e);
    // The quantum of eq's binade is 2^(eq - M): n = |x| / quantum exactly.
    mlir::Value negQe = mlir::arith::SubIOp::create(b(), l, i32(f.man), eq);
    mlir::Value n = mlir::arith::MulFOp::create(b(), l, a, pow2(negQe));
    mlir::Value k = mlir::arith::FPToUIOp::create(b(), l, i32T, n);
    mlir::Value frac = mlir::arith::SubFOp::create(
        b(), l, n, mlir::arith::UIToFPOp::create(b(), l, f32T, k));
    auto fcmp = [&](mlir::arith::CmpFPredicate p, mlir::Value y) {
      return mlir::arith::CmpFOp::create(b(), l, p, frac, y);
    };
    mlir::Value above = fcmp(mlir::arith::CmpFPredicate::OGT, f32(0.5));
    mlir::Value tie = fcmp(mlir::arith::CmpFPredicate::OEQ, f32(0.5));
    mlir::Value odd = cmp(P::ne, andI(k, 1), i32(0));
    mlir::Value up = mlir::arith::OrIOp::create(
        b(), l, above, mlir::arith::AndIOp::create(b(), l, tie, odd));
    k = add(k, mlir::arith::ExtUIOp::create(b(), l, i32T, up));
    // Code = ((eq - emin) << M) + k: k = 2^M carries into the exponent
    // field, so subnormals, normals and the step into the next binade all
    // come out right.
    mlir::Value code = add(shl(add(eq, i32(-emin)), f.man), k);
    code = select(cmp(P::sgt, code, i32(maxCode)), i32(maxCode), code);
    code = mlir::arith::OrIOp::create(b(), l, code,
                                      shl(sign, f.exp + f.man));
    code = select(nan, i32(maxCode), code);
    return mlir::arith::TruncIOp::create(b(), l, b().getI8Type(), code);
  }
};
} // namespace

mlir::Value eval::decodeUnpackedFloat(IRGen &ir, mlir::Value code,
                                      lang::DType dtype, mlir::Location l) {
  return Builder{ir, l, formatOf(dtype)}.decode(code);
}

mlir::Value eval::encodeUnpackedFloat(IRGen &ir, mlir::Value x,
                                      lang::DType dtype, mlir::Location l) {
  return Builder{ir, l, formatOf(dtype)}.encode(x);
}
