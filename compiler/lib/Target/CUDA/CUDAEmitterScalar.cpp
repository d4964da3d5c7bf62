//===- CUDAEmitterScalar.cpp - Scalar arithmetic of the CUDA emitter -----===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Scalar `arith` and `math` operations as C++ expressions: constants,
// integer and float arithmetic, comparisons, casts and math functions, with
// 16- and 8-bit floats computed in f32 registers.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"
#include "tlc/Target/FloatLiteral.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

static bool isSmallFloat(Type t) {
  return t.isF16() || t.isBF16() ||
         isa<Float8E4M3FNType, Float8E5M2Type, Float8E4M3FNUZType,
             Float8E5M2FNUZType, Float8E8M0FNUType, Float4E2M1FNType>(t);
}

LogicalResult Emitter::emitScalar(Operation *op) {
  if (op->getNumResults() != 1) {
    op->emitError() << "unsupported scalar operation in the " << lang.name
                    << " target";
    return failure();
  }
  Value res = op->getResult(0);
  Type rt = res.getType();
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    Attribute v = c.getValue();
    if (auto i = dyn_cast<IntegerAttr>(v)) {
      if (rt.isInteger(1))
        names[res] = i.getValue().isZero() ? "false" : "true";
      else {
        int64_t x = i.getValue().getSExtValue();
        bool wide = isa<IndexType>(rt) ? wideIndex
                                       : getElementStorageBytes(rt) == 8;
        // C++ has no negative literals: `-2147483648` negates a long long
        // (and `-9223372036854775808ll` overflows), so the minima are
        // spelled as a difference of the type's own type.
        if (x == INT64_MIN)
          names[res] = "(-9223372036854775807ll - 1)";
        else if (x == INT32_MIN && !wide)
          names[res] = "(-2147483647 - 1)";
        else
          names[res] = std::to_string(x) + (wide ? "ll" : "");
      }
      return success();
    }
    if (auto f = dyn_cast<FloatAttr>(v)) {
      names[res] =
          floatLiteral(f.getValueAsDouble(), rt.isF64(), FloatSpelling::Device);
      return success();
    }
    op->emitError() << "unsupported constant in the " << lang.name
                      << " target";
    return failure();
  }
  FailureOr<std::string> vt = valueType(rt, op);
  if (failed(vt))
    return failure();
  auto arg = [&](unsigned i) { return expr(op->getOperand(i)); };
  StringRef name = op->getName().getStringRef();
  bool f64 = rt.isF64() ||
             (op->getNumOperands() && op->getOperand(0).getType().isF64());
  std::string fn = f64 ? "" : "f"; // math function suffix
  std::string e;
  auto bin = [&](StringRef sym) { e = "(" + arg(0) + " " + sym.str() + " " + arg(1) + ")"; };
  // Operand i read as unsigned of its own width: signless integers live in
  // signed C types, so zero extension and unsigned compares go through it.
  auto uarg = [&](unsigned i) -> std::string {
    Type t = op->getOperand(i).getType();
    unsigned w = t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
    if (w == 1)
      return arg(i);
    if (w == 4) // an int4 value in an int: its 4 bits
      return "((" + arg(i) + ") & 15)";
    std::string u = w <= 8    ? "uint8_t"
                    : w <= 16 ? "uint16_t"
                    : w <= 32 ? "uint32_t"
                              : "unsigned long long";
    return "((" + u + ")(" + arg(i) + "))";
  };
  auto call = [&](StringRef f) {
    e = f.str() + "(";
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      e += (i ? ", " : "") + arg(i);
    e += ")";
  };
  // fast_math (TL_ENABLE_FAST_MATH): f32 transcendentals and division on
  // the hardware approximations, like nvcc --use_fast_math.
  StringRef fast;
  std::string fastExp2 = ns + "fastExp2";
  if (func.getFastMath() && rt.isF32())
    fast = llvm::StringSwitch<StringRef>(name)
               .Case("math.exp2", fastExp2)
               .Case("math.exp", "__expf")
               .Case("math.log", "__logf")
               .Case("math.log2", "__log2f")
               .Case("math.sin", "__sinf")
               .Case("math.cos", "__cosf")
               .Case("math.tan", "__tanf")
               .Case("math.powf", "__powf")
               .Case("arith.divf", "__fdividef")
               .Default("");
  if (!fast.empty())
    call(fast);
  else if (name == "arith.addf" || name == "arith.addi")
    bin("+");
  else if (name == "arith.subf" || name == "arith.subi")
    bin("-");
  else if (name == "arith.mulf" || name == "arith.muli")
    bin("*");
  else if (name == "arith.divf" || name == "arith.divsi")
    bin("/");
  else if (name == "arith.remsi")
    bin("%");
  else if (name == "math.ctlz" || name == "math.ctpop") {
    // __clz / __popc on the value's bits zero-extended to 32 or 64 bits
    // (a narrower value's leading zeros less the extension's).
    unsigned w = rt.getIntOrFloatBitWidth();
    bool wide = w > 32;
    std::string u = "(" + std::string(wide ? "long long" : "int") + ")" +
                    uarg(0);
    if (name == "math.ctpop")
      e = "(" + *vt + ")(" + (wide ? "__popcll(" : "__popc(") + u + "))";
    else
      e = "(" + *vt + ")(" + (wide ? "__clzll(" : "__clz(") + u + ") - " +
          std::to_string((wide ? 64 : 32) - w) + ")";
  }
  else if (name == "arith.divui" || name == "arith.remui")
    e = "(" + *vt + ")(" + uarg(0) + (name == "arith.divui" ? " / " : " % ") +
        uarg(1) + ")";
  else if (name == "arith.andi")
    bin("&");
  else if (name == "arith.ori")
    bin("|");
  else if (name == "arith.xori")
    bin("^");
  else if (name == "arith.shli")
    bin("<<");
  else if (name == "arith.shrsi")
    bin(">>");
  else if (name == "arith.shrui")
    e = "(" + *vt + ")(" + uarg(0) + " >> " + arg(1) + ")";
  else if (name == "arith.remf")
    call("fmod" + fn);
  else if (name == "arith.maxnumf" || name == "arith.maximumf")
    call("fmax" + fn);
  else if (name == "arith.minnumf" || name == "arith.minimumf")
    call("fmin" + fn);
  else if (name == "arith.maxui" || name == "arith.minui")
    e = "(" + *vt + ")(" + uarg(0) + (name == "arith.maxui" ? " > " : " < ") +
        uarg(1) + " ? " + uarg(0) + " : " + uarg(1) + ")";
  else if (name == "arith.maxsi")
    call("max");
  else if (name == "arith.minsi")
    call("min");
  else if (name == "arith.floordivsi")
    e = "((" + arg(0) + " / " + arg(1) + ") - ((" + arg(0) + " % " + arg(1) +
        " != 0) && ((" + arg(0) + " < 0) != (" + arg(1) + " < 0))))";
  else if (name == "arith.ceildivsi")
    e = "((" + arg(0) + " + " + arg(1) + " - 1) / " + arg(1) + ")";
  else if (name == "arith.negf")
    e = "(-" + arg(0) + ")";
  else if (name == "arith.select" && (arg(0) == "true" || arg(0) == "false"))
    e = arg(0) == "true" ? arg(1) : arg(2); // a condition ranges decided
  else if (name == "arith.select")
    e = "(" + arg(0) + " ? " + arg(1) + " : " + arg(2) + ")";
  else if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    if (std::optional<bool> known = decideCompare(cmp)) {
      // e.g. a key-padding mask `k * block_N + j < seq_len` when the tiles
      // divide seq_len: the value ranges prove it, so no compare is emitted.
      names[res] = *known ? "true" : "false";
      return success();
    }
    using P = arith::CmpIPredicate;
    static const std::pair<P, const char *> preds[] = {
        {P::eq, "=="},  {P::ne, "!="},  {P::slt, "<"}, {P::sle, "<="},
        {P::sgt, ">"},  {P::sge, ">="}, {P::ult, "<"}, {P::ule, "<="},
        {P::ugt, ">"},  {P::uge, ">="}};
    bool isUnsigned = cmp.getPredicate() == P::ult ||
                      cmp.getPredicate() == P::ule ||
                      cmp.getPredicate() == P::ugt ||
                      cmp.getPredicate() == P::uge;
    for (auto [p, s] : preds)
      if (p == cmp.getPredicate()) {
        if (isUnsigned)
          e = "(" + uarg(0) + " " + s + " " + uarg(1) + ")";
        else
          bin(s);
      }
  } else if (auto cmp = dyn_cast<arith::CmpFOp>(op)) {
    using P = arith::CmpFPredicate;
    static const std::pair<P, const char *> preds[] = {
        {P::OEQ, "=="}, {P::ONE, "!="}, {P::OLT, "<"}, {P::OLE, "<="},
        {P::OGT, ">"},  {P::OGE, ">="}, {P::UEQ, "=="}, {P::UNE, "!="},
        {P::ULT, "<"},  {P::ULE, "<="}, {P::UGT, ">"}, {P::UGE, ">="}};
    for (auto [p, s] : preds)
      if (p == cmp.getPredicate())
        bin(s);
  } else if (isa<arith::IndexCastOp>(op) && rt.isIndex() &&
             indexType() == "int" &&
             op->getOperand(0).getType().getIntOrFloatBitWidth() > 32) {
    // A 64-bit value (an int64 tensor element used as an index) in a
    // kernel that indexes in 32 bits: one that does not fit becomes -1,
    // which every bounds guard rejects, instead of wrapping into range.
    std::string a = arg(0);
    e = "(int)((long long)(int)(" + a + ") == (" + a + ") ? (" + a + ") : -1)";
  } else if (isa<arith::FPToSIOp, arith::FPToUIOp>(op) && rt.isInteger(4)) {
    // Rounded toward zero and saturated, as the CPU target converts.
    bool s = isa<arith::FPToSIOp>(op);
    e = "tlc::fp4::int4FromFloat((float)(" + arg(0) + "), " +
        (s ? "-8, 7)" : "0, 15)");
  } else if (isa<arith::IndexCastOp, arith::SIToFPOp, arith::FPToSIOp,
                 arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp,
                 arith::TruncIOp>(op))
    e = "(" + *vt + ")(" + arg(0) + ")";
  else if (isa<arith::BitcastOp>(op)) {
    // The bits of the stored value: 16- and 8-bit floats live in registers
    // as f32, so they are rounded to their storage first (and a result of
    // such a type is widened again below, after its bits are in place).
    Type st = op->getOperand(0).getType();
    FailureOr<std::string> to = storageType(rt, op);
    if (failed(to))
      return failure();
    std::string bits = isSmallFloat(st) ? toStorage(st, arg(0)) : arg(0);
    e = ns + "bitCast<" + *to + ">(" + bits + ")";
    if (isSmallFloat(rt))
      e = fromStorage(rt, e);
    std::string v = define(res, "t");
    line("const " + *vt + " " + v + " = " + e + ";");
    return success();
  } else if (isa<arith::UIToFPOp, arith::ExtUIOp, arith::IndexCastUIOp>(op))
    e = "(" + *vt + ")" + uarg(0);
  else if (isa<arith::FPToUIOp>(op))
    e = "(" + *vt + ")(unsigned long long)(" + arg(0) + ")";
  else {
    std::string m = llvm::StringSwitch<std::string>(name)
                        .Case("math.exp", "exp" + fn)
                        .Case("math.exp2", "exp2" + fn)
                        .Case("math.log", "log" + fn)
                        .Case("math.log2", "log2" + fn)
                        .Case("math.sqrt", "sqrt" + fn)
                        .Case("math.rsqrt", "rsqrt" + fn)
                        .Case("math.tanh", "tanh" + fn)
                        .Case("math.absf", "fabs" + fn)
                        .Case("math.absi", "abs")
                        .Case("math.floor", "floor" + fn)
                        .Case("math.ceil", "ceil" + fn)
                        .Case("math.erf", "erf" + fn)
                        .Case("math.sin", "sin" + fn)
                        .Case("math.cos", "cos" + fn)
                        .Case("math.tan", "tan" + fn)
                        .Case("math.sinh", "sinh" + fn)
                        .Case("math.cosh", "cosh" + fn)
                        .Case("math.atan", "atan" + fn)
                        .Case("math.powf", "pow" + fn)
                        .Case("math.roundeven", "rint" + fn)
                        .Case("math.trunc", "trunc" + fn)
                        .Case("math.fma", "fma" + fn)
                        .Case("math.isnan", "isnan")
                        .Case("math.isinf", "isinf")
                        .Case("math.isfinite", "isfinite")
                        .Default("");
    if (m.empty()) {
      op->emitError() << "'" << name << "' is not supported by the "
                      << lang.name << " target yet";
      return failure();
    }
    call(m);
  }
  // 16/8-bit float results are rounded like the GPU stores them; int4
  // results wrap modulo 16 (the arith ops' i4 semantics).
  if (isSmallFloat(rt) || rt.isInteger(4))
    e = fromStorage(rt, toStorage(rt, e));
  std::string v = define(res, "t");
  line("const " + *vt + " " + v + " = " + e + ";");
  return success();
}
