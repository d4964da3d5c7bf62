//===- CppEmitterScalar.cpp - arith and math ops for the CPU target -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Scalar `arith` and `math` operations as C++ expressions: constants are
// inlined as literals, f16/bf16/fp8 arithmetic runs in float and rounds at
// every result, integer division and shifts follow MLIR's semantics.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"
#include "tlc/Target/FloatLiteral.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

#include <cmath>

using namespace mlir;
using namespace tlc;
using namespace tlc::target;
using namespace tlc::target::detail;

//===----------------------------------------------------------------------===//
// Scalar operations
//===----------------------------------------------------------------------===//

/// The unsigned C++ type of the same width as integer type \p t.
static std::string unsignedType(Type t) {
  if (t.isIndex())
    return "uint64_t";
  if (t.isInteger(1))
    return "bool";
  if (t.isInteger(4))
    return "tlc::cpu::u4";
  return "uint" + std::to_string(t.getIntOrFloatBitWidth()) + "_t";
}

/// The C++ literal of a float constant of type \p t.
static std::string constantLiteral(const APFloat &value, Type t) {
  return target::floatLiteral(value.convertToDouble(), t.isF64(),
                              target::FloatSpelling::Host);
}

LogicalResult Emitter::emitScalar(Operation *op) {
  if (op->getNumResults() != 1)
    return op->emitError() << "the CPU target cannot emit '" << op->getName()
                           << "'";
  Value res = op->getResult(0);
  Type t = res.getType();
  auto cty = valueType(t, op);
  if (failed(cty))
    return failure();

  // Constants are inlined as literals.
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    Attribute v = c.getValue();
    if (auto i = dyn_cast<IntegerAttr>(v)) {
      if (t.isInteger(1)) {
        names[res] = i.getValue().isZero() ? "false" : "true";
      } else {
        int64_t x = i.getValue().getSExtValue();
        std::string lit = std::to_string(x);
        // C++ has no negative literals: `-2147483648` negates a long, whose
        // type breaks template deduction against an int32_t view.
        if (x == INT64_MIN)
          lit = "INT64_MIN";
        else if (x > INT32_MAX || x < INT32_MIN)
          lit = "INT64_C(" + lit + ")";
        else if (x == INT32_MIN)
          lit = "(-2147483647 - 1)";
        names[res] = (t.isIndex() || t.isInteger(32)) ? lit
                                                      : *cty + "(" + lit + ")";
      }
      return success();
    }
    if (auto f = dyn_cast<FloatAttr>(v)) {
      if (isSmallFloat(t))
        names[res] = *cty + "::fromBits(" +
                     std::to_string(f.getValue().bitcastToAPInt().getZExtValue()) +
                     ")";
      else
        names[res] = constantLiteral(f.getValue(), t);
      return success();
    }
    return op->emitError("the CPU target cannot emit this constant");
  }

  auto operand = [&](unsigned i) { return arith(op->getOperand(i)); };
  auto raw = [&](unsigned i) { return expr(op->getOperand(i)); };
  auto wrap = [&](const std::string &e) {
    return isSmallFloat(t) ? *cty + "(" + e + ")" : e;
  };
  auto bin = [&](const char *sym) {
    return wrap("(" + operand(0) + " " + sym + " " + operand(1) + ")");
  };
  auto call = [&](const std::string &fn) {
    std::string args;
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      args += (i ? ", " : "") + operand(i);
    return wrap(fn + "(" + args + ")");
  };
  Type inTy = op->getNumOperands() ? op->getOperand(0).getType() : Type();
  std::string uIn = inTy ? unsignedType(inTy) : "";
  auto ubin = [&](const char *sym) {
    return *cty + "(" + uIn + "(" + raw(0) + ") " + sym + " " + uIn + "(" +
           raw(1) + "))";
  };
  auto tmpl = [&](const char *fn, const std::string &ty) {
    return std::string(fn) + "<" + ty + ">(" + raw(0) + ", " + raw(1) + ")";
  };
  std::string ity;
  if (inTy) {
    auto r = valueType(inTy, op);
    if (failed(r))
      return failure();
    ity = *r;
  }
  // Signed add/sub/mul wrap (the code is compiled with -fwrapv); narrow
  // types are converted back explicitly.
  auto ibin = [&](const char *sym) {
    std::string e2 = "(" + raw(0) + " " + sym + " " + raw(1) + ")";
    if (t.isIndex() || t.isInteger(64) || t.isInteger(32))
      return e2;
    return *cty + e2;
  };
  std::string e;

  llvm::TypeSwitch<Operation *, void>(op)
      .Case([&](arith::AddFOp) { e = bin("+"); })
      .Case([&](arith::SubFOp) { e = bin("-"); })
      .Case([&](arith::MulFOp) { e = bin("*"); })
      .Case([&](arith::DivFOp) { e = bin("/"); })
      .Case([&](arith::RemFOp) { e = call("std::fmod"); })
      .Case([&](arith::NegFOp) { e = wrap("(-" + operand(0) + ")"); })
      .Case([&](arith::MaximumFOp) { e = call("tlc::cpu::maximumF"); })
      .Case([&](arith::MinimumFOp) { e = call("tlc::cpu::minimumF"); })
      .Case([&](arith::MaxNumFOp) { e = call("std::fmax"); })
      .Case([&](arith::MinNumFOp) { e = call("std::fmin"); })
      .Case([&](arith::AddIOp) { e = ibin("+"); })
      .Case([&](arith::SubIOp) { e = ibin("-"); })
      .Case([&](arith::MulIOp) { e = ibin("*"); })
      .Case([&](arith::DivSIOp) { e = tmpl("tlc::cpu::truncDiv", ity); })
      .Case([&](arith::RemSIOp) { e = tmpl("tlc::cpu::truncRem", ity); })
      .Case([&](arith::DivUIOp) {
        e = *cty + "(tlc::cpu::truncDiv<" + uIn + ">(" + raw(0) + ", " +
            raw(1) + "))";
      })
      .Case([&](arith::RemUIOp) {
        e = *cty + "(tlc::cpu::truncRem<" + uIn + ">(" + raw(0) + ", " +
            raw(1) + "))";
      })
      .Case([&](arith::FloorDivSIOp) { e = tmpl("tlc::cpu::floorDiv", ity); })
      .Case([&](arith::CeilDivSIOp) { e = tmpl("tlc::cpu::ceilDiv", ity); })
      .Case([&](arith::CeilDivUIOp) {
        e = *cty + "(tlc::cpu::ceilDiv<" + uIn + ">(" + raw(0) + ", " +
            raw(1) + "))";
      })
      .Case([&](arith::MaxSIOp) { e = tmpl("std::max", ity); })
      .Case([&](arith::MinSIOp) { e = tmpl("std::min", ity); })
      .Case([&](arith::MaxUIOp) {
        e = *cty + "(std::max<" + uIn + ">(" + raw(0) + ", " + raw(1) + "))";
      })
      .Case([&](arith::MinUIOp) {
        e = *cty + "(std::min<" + uIn + ">(" + raw(0) + ", " + raw(1) + "))";
      })
      .Case([&](arith::AndIOp) { e = *cty + "(" + raw(0) + " & " + raw(1) + ")"; })
      .Case([&](arith::OrIOp) { e = *cty + "(" + raw(0) + " | " + raw(1) + ")"; })
      .Case([&](arith::XOrIOp) { e = *cty + "(" + raw(0) + " ^ " + raw(1) + ")"; })
      .Case([&](arith::ShLIOp) { e = ubin("<<"); })
      .Case([&](arith::ShRUIOp) { e = ubin(">>"); })
      .Case([&](arith::ShRSIOp) {
        e = *cty + "(" + raw(0) + " >> " + raw(1) + ")";
      })
      .Case([&](arith::CmpIOp c) {
        using P = arith::CmpIPredicate;
        const char *sym = "==";
        bool isUnsigned = false;
        switch (c.getPredicate()) {
        case P::eq: sym = "=="; break;
        case P::ne: sym = "!="; break;
        case P::slt: sym = "<"; break;
        case P::sle: sym = "<="; break;
        case P::sgt: sym = ">"; break;
        case P::sge: sym = ">="; break;
        case P::ult: sym = "<"; isUnsigned = true; break;
        case P::ule: sym = "<="; isUnsigned = true; break;
        case P::ugt: sym = ">"; isUnsigned = true; break;
        case P::uge: sym = ">="; isUnsigned = true; break;
        }
        if (isUnsigned)
          e = "(" + uIn + "(" + raw(0) + ") " + sym + " " + uIn + "(" +
              raw(1) + "))";
        else
          e = "(" + raw(0) + " " + sym + " " + raw(1) + ")";
      })
      .Case([&](arith::CmpFOp c) {
        using P = arith::CmpFPredicate;
        std::string a = operand(0), b = operand(1);
        switch (c.getPredicate()) {
        case P::AlwaysFalse: e = "false"; break;
        case P::AlwaysTrue: e = "true"; break;
        case P::OEQ: e = "(" + a + " == " + b + ")"; break;
        case P::OGT: e = "(" + a + " > " + b + ")"; break;
        case P::OGE: e = "(" + a + " >= " + b + ")"; break;
        case P::OLT: e = "(" + a + " < " + b + ")"; break;
        case P::OLE: e = "(" + a + " <= " + b + ")"; break;
        case P::ONE: e = "(" + a + " < " + b + " || " + a + " > " + b + ")"; break;
        case P::ORD: e = "(!std::isnan(" + a + ") && !std::isnan(" + b + "))"; break;
        case P::UEQ: e = "!(" + a + " < " + b + " || " + a + " > " + b + ")"; break;
        case P::UGT: e = "!(" + a + " <= " + b + ")"; break;
        case P::UGE: e = "!(" + a + " < " + b + ")"; break;
        case P::ULT: e = "!(" + a + " >= " + b + ")"; break;
        case P::ULE: e = "!(" + a + " > " + b + ")"; break;
        case P::UNE: e = "(" + a + " != " + b + ")"; break;
        case P::UNO: e = "(std::isnan(" + a + ") || std::isnan(" + b + "))"; break;
        }
      })
      .Case([&](arith::SelectOp) {
        e = "(" + raw(0) + " ? " + raw(1) + " : " + raw(2) + ")";
      })
      .Case<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::FPToSIOp,
            arith::IndexCastOp>([&](Operation *) {
        if (inTy.isInteger(1) && isa<arith::SIToFPOp>(op))
          e = "(" + raw(0) + " ? " + *cty + "(-1.0f) : " + *cty + "(0.0f))";
        else if (t.isInteger(1) && isa<arith::IndexCastOp>(op))
          e = "((" + raw(0) + " & 1) != 0)";
        else
          e = "tlc::cpu::cast<" + *cty + ">(" + raw(0) + ")";
      })
      .Case<arith::UIToFPOp, arith::IndexCastUIOp, arith::ExtUIOp>(
          [&](Operation *) {
            e = "tlc::cpu::cast<" + *cty + ">(" + uIn + "(" + raw(0) + "))";
          })
      .Case([&](arith::FPToUIOp) {
        e = *cty + "(tlc::cpu::cast<" + unsignedType(t) + ">(" + raw(0) + "))";
      })
      .Case([&](arith::ExtSIOp) {
        if (inTy.isInteger(1))
          e = "(" + raw(0) + " ? " + *cty + "(-1) : " + *cty + "(0))";
        else
          e = *cty + "(" + raw(0) + ")";
      })
      .Case([&](arith::TruncIOp) {
        if (t.isInteger(1))
          e = "((" + raw(0) + " & 1) != 0)";
        else
          e = *cty + "(" + uIn + "(" + raw(0) + "))";
      })
      .Case([&](arith::BitcastOp) {
        e = "tlc::cpu::bitCast<" + *cty + ">(" + raw(0) + ")";
      })
      .Case([&](math::ExpOp) { e = call("std::exp"); })
      .Case([&](math::Exp2Op) { e = call("std::exp2"); })
      .Case([&](math::ExpM1Op) { e = call("std::expm1"); })
      .Case([&](math::LogOp) { e = call("std::log"); })
      .Case([&](math::Log2Op) { e = call("std::log2"); })
      .Case([&](math::Log10Op) { e = call("std::log10"); })
      .Case([&](math::Log1pOp) { e = call("std::log1p"); })
      .Case([&](math::SqrtOp) { e = call("std::sqrt"); })
      .Case([&](math::RsqrtOp) { e = call("tlc::cpu::rsqrt"); })
      .Case([&](math::SinOp) { e = call("std::sin"); })
      .Case([&](math::CosOp) { e = call("std::cos"); })
      .Case([&](math::TanOp) { e = call("std::tan"); })
      .Case([&](math::TanhOp) { e = call("std::tanh"); })
      .Case([&](math::SinhOp) { e = call("std::sinh"); })
      .Case([&](math::CoshOp) { e = call("std::cosh"); })
      .Case([&](math::AsinOp) { e = call("std::asin"); })
      .Case([&](math::AcosOp) { e = call("std::acos"); })
      .Case([&](math::AtanOp) { e = call("std::atan"); })
      .Case([&](math::Atan2Op) { e = call("std::atan2"); })
      .Case([&](math::ErfOp) { e = call("std::erf"); })
      .Case([&](math::FloorOp) { e = call("std::floor"); })
      .Case([&](math::CeilOp) { e = call("std::ceil"); })
      .Case([&](math::RoundOp) { e = call("std::round"); })
      .Case([&](math::RoundEvenOp) { e = call("std::nearbyint"); })
      .Case([&](math::TruncOp) { e = call("std::trunc"); })
      .Case([&](math::AbsFOp) { e = call("std::fabs"); })
      .Case([&](math::PowFOp) { e = call("std::pow"); })
      .Case([&](math::FmaOp) { e = call("std::fma"); })
      .Case([&](math::CopySignOp) { e = call("std::copysign"); })
      .Case([&](math::AbsIOp) {
        e = *cty + "(" + raw(0) + " < 0 ? -" + raw(0) + " : " + raw(0) + ")";
      })
      .Case([&](math::IsNaNOp) { e = "std::isnan(" + operand(0) + ")"; })
      .Case([&](math::IsInfOp) { e = "std::isinf(" + operand(0) + ")"; })
      .Case([&](math::IsFiniteOp) { e = "std::isfinite(" + operand(0) + ")"; })
      .Case([&](math::CountLeadingZerosOp) {
        e = *cty + "(tlc::cpu::countLeadingZeros<" + uIn + ">(" + raw(0) + "))";
      })
      .Case([&](math::CtPopOp) {
        e = *cty + "(__builtin_popcountll(uint64_t(" + uIn + "(" + raw(0) +
            "))))";
      })
      .Default([&](Operation *) {});
  if (e.empty())
    return op->emitError() << "the CPU target cannot emit '" << op->getName()
                           << "'";
  line("const " + *cty + " " + define(res, "v") + " = " + e + ";");
  return success();
}

