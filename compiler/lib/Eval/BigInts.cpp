//===- BigInts.cpp - Python ints beyond 64 bits ---------------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Python ints are unbounded. The evaluator holds an int as an inline 64-bit
// Value (ValueKind::Int) while it fits in the signed 64-bit range and as a
// BigIntObj (ValueKind::BigInt, an APInt of the bits it needs) beyond it:
// uint64 constants (`(1 << 64) - 1`, `1 << 63`), masks, and whatever host
// code computes with them. Every result is normalised back to Int when it
// fits, so the rest of the evaluator sees a BigInt only for such values.
// Where one becomes IR it must fit the dtype it takes (a located error
// otherwise).
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Interpreter.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallString.h"

using namespace tlc;
using namespace tlc::eval;
using syntax::BinaryOp;
using syntax::UnaryOp;

static bool isFloatType(mlir::Type t) { return mlir::isa<mlir::FloatType>(t); }

/// float(x), correctly rounded (ties to even) as CPython converts ints.
static double toDouble(const llvm::APInt &x) {
  llvm::APFloat f(llvm::APFloat::IEEEdouble());
  f.convertFromAPInt(x, /*IsSigned=*/true, llvm::APFloat::rmNearestTiesToEven);
  return f.convertToDouble();
}

/// Trace-time ints wider than this are an OverflowError: a bound on the
/// memory and time one value may take, far above what kernels use.
static constexpr unsigned kMaxIntBits = 1u << 16;

std::optional<llvm::APInt> Interpreter::toAPInt(Value v) {
  if (v.isIntLike())
    return llvm::APInt(64, uint64_t(v.getInt()), /*isSigned=*/true);
  if (v.is(ValueKind::BigInt))
    return v.as<BigIntObj>()->value;
  return std::nullopt;
}

Value Interpreter::makeInt(const llvm::APInt &v, Node at) {
  unsigned need = v.getSignificantBits();
  if (need <= 64)
    return Value::integer(v.getSExtValue());
  if (need > kMaxIntBits)
    return raise("OverflowError",
                 "integer too large to evaluate at trace time (over " +
                     llvm::Twine(kMaxIntBits) + " bits)",
                 at);
  auto *o = heap.make<BigIntObj>();
  o->value = v.trunc(need);
  return Value::object(ValueKind::BigInt, o);
}

std::string Interpreter::intToString(Value v, unsigned radix) {
  llvm::SmallString<40> s;
  if (std::optional<llvm::APInt> x = toAPInt(v)) {
    llvm::APInt mag = x->isNegative() ? -x->sext(x->getBitWidth() + 1)
                                      : x->zext(x->getBitWidth() + 1);
    if (x->isNegative())
      s += '-';
    if (radix == 16)
      s += "0x";
    else if (radix == 8)
      s += "0o";
    else if (radix == 2)
      s += "0b";
    mag.toString(s, radix, /*Signed=*/false, /*formatAsCLiteral=*/false,
                 /*UpperCase=*/false);
  }
  return std::string(s);
}

double Interpreter::intToDouble(Value v) {
  if (v.is(ValueKind::BigInt))
    return toDouble(v.as<BigIntObj>()->value);
  return v.getFloat();
}

/// A shift count or exponent as an unsigned number, if it is below the
/// trace-time width bound.
static std::optional<uint64_t> smallCount(const llvm::APInt &y) {
  if (y.isNegative() || y.getActiveBits() > 32)
    return std::nullopt;
  return y.getZExtValue();
}

Value Interpreter::bigBinary(BinaryOp op, const llvm::APInt &x,
                             const llvm::APInt &y, Node at) {
  unsigned wx = x.getBitWidth(), wy = y.getBitWidth();
  unsigned w = std::max(wx, wy);
  auto tooLarge = [&] {
    return raise("OverflowError",
                 "integer too large to evaluate at trace time (over " +
                     llvm::Twine(kMaxIntBits) + " bits)",
                 at);
  };
  switch (op) {
  case BinaryOp::Add:
    return makeInt(x.sext(w + 1) + y.sext(w + 1), at);
  case BinaryOp::Sub:
    return makeInt(x.sext(w + 1) - y.sext(w + 1), at);
  case BinaryOp::Mult:
    return makeInt(x.sext(wx + wy) * y.sext(wx + wy), at);
  case BinaryOp::Div: {
    if (y.isZero())
      return raise("ZeroDivisionError", "division by zero", at);
    return Value::floating(toDouble(x) / toDouble(y));
  }
  case BinaryOp::FloorDiv:
  case BinaryOp::Mod: {
    if (y.isZero())
      return raise("ZeroDivisionError", "integer division or modulo by zero",
                   at);
    // One more bit so that the most negative value divided by -1 fits.
    llvm::APInt a = x.sext(w + 1), b = y.sext(w + 1), q, r;
    llvm::APInt::sdivrem(a, b, q, r);
    // C truncates toward zero; Python floors (the remainder takes the
    // divisor's sign).
    if (!r.isZero() && r.isNegative() != b.isNegative()) {
      q -= 1;
      r += b;
    }
    return makeInt(op == BinaryOp::FloorDiv ? q : r, at);
  }
  case BinaryOp::Pow: {
    if (y.isNegative() && x.isZero())
      return raise("ZeroDivisionError",
                   "0.0 cannot be raised to a negative power", at);
    if (y.isNegative())
      return Value::floating(std::pow(toDouble(x), toDouble(y)));
    // 0, 1 and -1 stay small whatever the exponent.
    if (x.isZero() || x.isOne() || x.isAllOnes()) {
      if (x.isAllOnes())
        return Value::integer(y[0] ? -1 : 1);
      return Value::integer(x.isZero() ? (y.isZero() ? 1 : 0) : 1);
    }
    std::optional<uint64_t> e = smallCount(y);
    if (!e || uint64_t(x.getSignificantBits()) * *e > kMaxIntBits)
      return tooLarge();
    unsigned n = unsigned(x.getSignificantBits() * *e + 1);
    llvm::APInt base = x.sext(std::max(n, wx)), acc(base.getBitWidth(), 1);
    for (uint64_t k = *e; k; k >>= 1) {
      if (k & 1)
        acc *= base;
      if (k > 1)
        base *= base;
    }
    return makeInt(acc, at);
  }
  case BinaryOp::LShift: {
    if (y.isNegative())
      return raise("ValueError", "negative shift count", at);
    if (x.isZero())
      return Value::integer(0);
    std::optional<uint64_t> s = smallCount(y);
    if (!s || wx + *s > kMaxIntBits)
      return tooLarge();
    return makeInt(x.sext(unsigned(wx + *s)).shl(unsigned(*s)), at);
  }
  case BinaryOp::RShift: {
    if (y.isNegative())
      return raise("ValueError", "negative shift count", at);
    std::optional<uint64_t> s = smallCount(y);
    if (!s || *s >= wx)
      return Value::integer(x.isNegative() ? -1 : 0);
    return makeInt(x.ashr(unsigned(*s)), at);
  }
  case BinaryOp::BitAnd:
    return makeInt(x.sext(w) & y.sext(w), at);
  case BinaryOp::BitOr:
    return makeInt(x.sext(w) | y.sext(w), at);
  case BinaryOp::BitXor:
    return makeInt(x.sext(w) ^ y.sext(w), at);
  case BinaryOp::MatMult:
    break;
  }
  return raise("TypeError", "unsupported operand type(s) for @", at);
}

Value Interpreter::bigUnary(UnaryOp op, const llvm::APInt &x, Node at) {
  unsigned w = x.getBitWidth();
  switch (op) {
  case UnaryOp::USub:
    return makeInt(-x.sext(w + 1), at);
  case UnaryOp::UAdd:
    return makeInt(x, at);
  case UnaryOp::Invert:
    return makeInt(~x, at);
  default:
    return raise("TypeError", "bad operand type for unary operator", at);
  }
}

int Interpreter::compareInts(const llvm::APInt &x, const llvm::APInt &y) {
  unsigned w = std::max(x.getBitWidth(), y.getBitWidth());
  llvm::APInt a = x.sext(w), b = y.sext(w);
  return a.slt(b) ? -1 : a.sgt(b) ? 1 : 0;
}

bool Interpreter::checkIntFits(Value v, lang::DType dtype, Node at) {
  std::optional<llvm::APInt> x = toAPInt(v);
  if (!x || !dtype.isInteger())
    return true;
  unsigned bits = dtype.getBits();
  bool fits = dtype.isUnsignedInteger()
                  ? !x->isNegative() && x->getActiveBits() <= bits
                  : x->getSignificantBits() <= bits;
  if (fits)
    return true;
  error(at, "integer " + intToString(v) + " does not fit in " +
                dtype.getName() + " (" +
                (dtype.isUnsignedInteger()
                     ? "0 to 2**" + llvm::Twine(bits) + "-1"
                     : "-2**" + llvm::Twine(bits - 1) + " to 2**" +
                           llvm::Twine(bits - 1) + "-1") +
                ")");
  return false;
}

Scalar Interpreter::bigScalar(Value v, Node at, mlir::Type hint) {
  const llvm::APInt &x = v.as<BigIntObj>()->value;
  mlir::Location l = ir->loc(at);
  if (hint && isFloatType(hint))
    return {ir->constFloat(toDouble(x), hint, l),
            lang::DType(lang::ScalarType::Float32), SymExpr()};
  // A Python int takes the type of the IR value it meets; beyond 64 bits
  // no integer type holds it. Within 64 bits it holds if it is a uint64
  // value (TVM's `IntImm` of a uint64 operand), the signed case being
  // checked against the operand's dtype by the caller.
  unsigned w = 64;
  if (auto it = mlir::dyn_cast_or_null<mlir::IntegerType>(hint))
    w = it.getWidth();
  lang::DType dt = lang::DType(w == 64 ? lang::ScalarType::UInt64
                                       : lang::ScalarType::UInt32);
  if (w != 64 && w != 32)
    dt = lang::DType(lang::ScalarType::Int64);
  if (!checkIntFits(v, dt, at))
    return {};
  mlir::Type t = hint && (hint.isIndex() || mlir::isa<mlir::IntegerType>(hint))
                     ? hint
                     : ir->b.getI64Type();
  return {ir->constInt(int64_t(x.zextOrTrunc(64).getZExtValue()), t, l), dt,
          SymExpr()};
}
