//===- StochasticCast.cpp - T.cast(..., round="rs", rbits=) ---------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Stochastic rounding: T.cast(x, dtype, round="rs", rbits=r) rounds x to
// one of the two values of dtype around it, away from zero when the part
// of x the format drops, as an n-bit fraction of the gap, plus n random
// bits of r carries out of n bits; saturating to the largest finite value
// (sm_100a's `cvt.rs.satfinite`: .f16x2 with n = 13 from r's low 13
// bits, .bf16x2 with n = 16 from its low 16, .e4m3x4 / .e5m2x4 with the
// low 16, .e2m1x4 with n = 8 from its low 8; the value goes in the lane
// those bits serve). It becomes one `T.cast_rs` intrinsic of the value as
// float32 and the bits as int32; the CUDA target prints that instruction
// for sm_100a, the CPU target a reference of the rule, and the other
// targets refuse it at the cast. Other dtypes, sources and random bits
// TileLang accepts while tracing (only its code generator refuses them),
// so they are refused only when building.
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
  // sm_100a's cvt.rs: .f16x2, .bf16x2, .e4m3x4, .e5m2x4 and .e2m1x4.
  bool known = name == "float4_e2m1fn" || name == "float16" ||
               name == "bfloat16" ||
               mlir::isa<mlir::Float8E4M3FNType, mlir::Float8E5M2Type>(want);
  // TileLang's T.cast checks only the rounding mode and that rbits comes
  // with round='rs' (MetaPrimitives.cpp); the dtypes are refused by its CUDA
  // code generator. So is anything else here: the program checks clean,
  // is analysed with a round-to-nearest cast, and building refuses it at
  // the cast.
  auto refuseAtBuild = [&](Node n, const llvm::Twine &why) {
    markUnbuildable(n, "tlc.unbuildable", why.str());
    return castTo(v, dtype, at);
  };
  if (!known)
    return refuseAtBuild(
        p.node("round"),
        "T.cast(round='rs') to " + name +
            ": stochastic rounding (sm_100a's cvt.rs) converts to float16, "
            "bfloat16, float8_e4m3fn, float8_e5m2 or float4_e2m1fn only");
  Scalar x = toScalar(v, p.node("value"));
  if (!x)
    return Value::poison();
  if (!mlir::isa<mlir::FloatType>(x.value.getType()) ||
      x.value.getType().getIntOrFloatBitWidth() > 32)
    return refuseAtBuild(p.node("value"),
                         "T.cast(round='rs') of " + x.dtype.getName() +
                             ": stochastic rounding converts a float of at "
                             "most 32 bits (cvt.rs reads float32)");
  Scalar r = toScalar(rbits, p.node("rbits"));
  if (!r)
    return Value::poison();
  // A loop variable's sum (`seed + i`) is an index value of an int32 dtype.
  if (!r.dtype.isInteger() &&
      !mlir::isa<mlir::IntegerType, mlir::IndexType>(r.value.getType()))
    return refuseAtBuild(p.node("rbits"),
                         "T.cast(round='rs') with " + r.dtype.getName() +
                             " random bits: cvt.rs takes integer bits");
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
