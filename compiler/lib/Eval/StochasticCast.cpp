//===- StochasticCast.cpp - T.cast(..., round="rs", rbits=) ---------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Stochastic rounding: T.cast(x, dtype, round="rs", rbits=r) rounds x to
// one of the two values of dtype around it, up when the part of x the
// format drops, as a 16-bit fraction of the gap, plus the low 16 bits of r
// carries out of 16 bits; saturating to the largest finite value (as
// sm_100a's `cvt.rs.satfinite.{e4m3,e5m2}x4.f32`, whose lowest lane takes
// those 16 random bits). It becomes one `T.cast_rs` intrinsic of the value
// as float32 and the bits as int32; the CUDA target prints that
// instruction for sm_100a-class targets, the CPU target a reference of
// the rule, and the other targets refuse it at the cast. Rounding to
// float16, bfloat16 and float4_e2m1fn is valid TileLang (cvt.rs .f16x2,
// .bf16x2, .e2m1x4) that tlc checks but does not generate yet.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

using namespace tlc;
using namespace tlc::eval;

Value Interpreter::castStochastic(Value v, lang::DType dtype, Value rbits,
                                  const PArgs &p) {
  Node at = p.call;
  if (!tracing())
    return castTo(v, dtype, at);
  mlir::Type want = ir->valueType(dtype);
  std::string name = dtype.getName();
  // Valid TileLang (sm_100a's cvt.rs ...e2m1x4, .f16x2 and .bf16x2) that
  // tlc cannot build yet: checked, analysed with a round-to-nearest value
  // of that dtype, refused when building, at the cast.
  bool unbuilt =
      name == "float4_e2m1fn" || name == "float16" || name == "bfloat16";
  if (!unbuilt &&
      !mlir::isa<mlir::Float8E4M3FNType, mlir::Float8E5M2Type>(want))
    return dtypeCheckFailed(
        p.node("round"),
        "T.cast(round='rs') rounds stochastically to float16, bfloat16, "
        "float8_e4m3fn, float8_e5m2 or float4_e2m1fn (sm_100a's cvt.rs), "
        "not to " +
            name);
  Scalar x = toScalar(v, p.node("value"));
  if (!x)
    return Value::poison();
  if (!mlir::isa<mlir::FloatType>(x.value.getType()) ||
      x.value.getType().getIntOrFloatBitWidth() > 32)
    return fail(p.node("value"),
                "T.cast(round='rs') converts a float of at most 32 bits "
                "(cvt.rs reads float32), got " +
                    x.dtype.getName());
  Scalar r = toScalar(rbits, p.node("rbits"));
  if (!r)
    return Value::poison();
  // A loop variable's sum (`seed + i`) is an index value of an int32 dtype.
  if (!r.dtype.isInteger() &&
      !mlir::isa<mlir::IntegerType, mlir::IndexType>(r.value.getType()))
    return fail(p.node("rbits"),
                "T.cast(round='rs') needs integer random bits, got " +
                    r.dtype.getName());
  if (unbuilt) {
    markUnbuildable(p.node("round"), "tlc.unbuildable",
                    "T.cast(round='rs') to " + name +
                        ": tlc rounds stochastically only to float8_e4m3fn "
                        "and float8_e5m2 (sm_100a's cvt.rs)");
    return castTo(v, dtype, at);
  }
  auto &B = ir->b;
  mlir::Location l = ir->loc(at);
  mlir::Value f = ir->convert(x.value, B.getF32Type(), l);
  mlir::Value bits = ir->convert(r.value, B.getI32Type(), l,
                                 r.dtype.isUnsignedInteger());
  auto op = tile::IntrinsicOp::create(
      B, l, mlir::TypeRange{want}, B.getStringAttr("T.cast_rs"),
      mlir::ValueRange{f, bits}, B.getStrArrayAttr({"value", "rbits"}),
      mlir::DictionaryAttr());
  return wrapScalar({op->getResult(0), dtype, SymExpr()});
}
