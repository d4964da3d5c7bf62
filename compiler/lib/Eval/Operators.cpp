//===- Operators.cpp - Python arithmetic operators ------------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Binary and unary operators on trace-time values with CPython semantics,
// symbolic integers, and deferred float arithmetic. Comparisons, truth
// and iteration are in Comparisons.cpp, str()/repr() in Formatting.cpp.
//
//===----------------------------------------------------------------------===//

#include "Operators.h"
#include "DeferredFloat.h"
#include "Interpreter.h"
#include "Uncertain.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace tlc;
using namespace tlc::eval;
using syntax::BinaryOp;
using syntax::CmpOp;
using syntax::UnaryOp;

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

SymExpr Interpreter::toSym(Value v) {
  if (v.isIntLike())
    return syms.constant(v.getInt());
  if (v.is(ValueKind::Sym))
    return v.getSym();
  return SymExpr();
}

Value Interpreter::fromSym(SymExpr e, Node at) {
  if (!e)
    return raise("OverflowError",
                 "symbolic integer arithmetic overflowed or divided by zero",
                 at);
  if (e.isConstant())
    return Value::integer(*e.getConstant());
  return Value::sym(e);
}

static double pyFloorDivF(double a, double b) { return std::floor(a / b); }
static double pyModF(double a, double b) {
  double r = std::fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

llvm::StringRef eval::pySpelling(BinaryOp op) {
  static const char *const names[] = {"+",  "-",  "*", "@", "/", "%",  "**",
                                      "<<", ">>", "|", "^", "&", "//"};
  return names[static_cast<unsigned>(op)];
}
llvm::StringRef eval::pySpelling(CmpOp op) {
  static const char *const names[] = {"==", "!=", "<",      "<=", ">",
                                      ">=", "is", "is not", "in", "not in"};
  return names[static_cast<unsigned>(op)];
}

/// The description that marks a deferred float (DeferredFloat.h).
static constexpr llvm::StringLiteral kDeferredFloat =
    "float arithmetic on a symbolic integer";

bool eval::isDeferrableFloatOp(BinaryOp op) {
  return op == BinaryOp::Add || op == BinaryOp::Sub ||
         op == BinaryOp::Mult || op == BinaryOp::Div || op == BinaryOp::Pow;
}

Value eval::makeDeferredFloat(Heap &heap, BinaryOp op, Value lhs, Value rhs) {
  Value v = heap.opaque(kDeferredFloat);
  auto *o = v.as<OpaqueObj>();
  o->shape = {lhs, rhs, Value::integer(static_cast<int64_t>(op))};
  return v;
}

std::optional<DeferredFloat> eval::getDeferredFloat(Value v) {
  if (!v.is(ValueKind::Opaque))
    return std::nullopt;
  auto *o = v.as<OpaqueObj>();
  if (o->hasShape || o->description != kDeferredFloat || o->shape.size() != 3)
    return std::nullopt;
  return DeferredFloat{static_cast<BinaryOp>(o->shape[2].getInt()),
                       o->shape[0], o->shape[1]};
}

bool eval::isIRScalar(Value v) {
  if (v.is(ValueKind::Expr))
    return true;
  if (v.is(ValueKind::Region))
    return v.as<RegionObj>()->isElement;
  if (v.is(ValueKind::Buffer))
    return v.as<BufferObj>()->scope == lang::MemoryScope::LocalVar;
  return false;
}

Value Interpreter::binary(BinaryOp op, Value l, Value r, Node at) {
  if (l.isException())
    return l;
  if (r.isException())
    return r;
  if (l.isPoison() || r.isPoison())
    return Value::poison();
  if (isIRScalar(l) || isIRScalar(r))
    return irBinary(op, l, r, at);
  // `|`, `&`, `-`, `^` with a keys or items view take any iterable on the
  // other side and give a set (dictview.c).
  if ((isSetLikeView(l) || isSetLikeView(r)) &&
      (op == BinaryOp::BitOr || op == BinaryOp::BitAnd ||
       op == BinaryOp::Sub || op == BinaryOp::BitXor) &&
      !l.is(ValueKind::Opaque) && !r.is(ValueKind::Opaque)) {
    Value ls = setFrom(l, false, at);
    if (!ls.is(ValueKind::Set))
      return ls;
    Value rs = setFrom(r, false, at);
    if (!rs.is(ValueKind::Set))
      return rs;
    return setBinary(op, ls, rs, at);
  }
  // Float arithmetic on a deferred float stays deferred.
  if ((getDeferredFloat(l) || getDeferredFloat(r)) &&
      (l.isNumber() || l.is(ValueKind::Sym) || getDeferredFloat(l)) &&
      (r.isNumber() || r.is(ValueKind::Sym) || getDeferredFloat(r)) &&
      isDeferrableFloatOp(op))
    return makeDeferredFloat(heap, op, l, r);
  if (l.is(ValueKind::Opaque) || r.is(ValueKind::Opaque)) {
    // Elementwise arithmetic of a torch tensor with a number (or a tensor
    // of the same shape) keeps its shape: `torch.rand(m, k) * 2 - 1`.
    auto *lo = l.is(ValueKind::Opaque) ? l.as<OpaqueObj>() : nullptr;
    auto *ro = r.is(ValueKind::Opaque) ? r.as<OpaqueObj>() : nullptr;
    // Two tensors broadcast (torch's rules).
    OpaqueObj *shaped = lo && lo->hasShape ? lo : ro && ro->hasShape ? ro
                                                                     : nullptr;
    if (shaped && op != syntax::BinaryOp::MatMult) {
      if (lo && ro && lo->hasShape && ro->hasShape) {
        if (std::optional<llvm::SmallVector<Value, 4>> s =
                broadcastShapes(lo->shape, ro->shape))
          return torchTensor(*s);
      } else if ((lo ? r : l).isNumber()) {
        return torchTensor(shaped->shape);
      }
    }
    return heap.opaque("arithmetic result");
  }

  // Ints beyond 64 bits.
  if (l.is(ValueKind::BigInt) || r.is(ValueKind::BigInt)) {
    std::optional<llvm::APInt> x = toAPInt(l), y = toAPInt(r);
    if (x && y)
      return bigBinary(op, *x, *y, at);
    if ((x && r.isFloat()) || (y && l.isFloat()))
      return binary(op, x ? Value::floating(intToDouble(l)) : l,
                    y ? Value::floating(intToDouble(r)) : r, at);
    if (l.is(ValueKind::Sym) || r.is(ValueKind::Sym))
      return heap.opaque("symbolic value");
    if (op == BinaryOp::Mult &&
        (l.isSequence() || l.isStr() || r.isSequence() || r.isStr()))
      return raise("OverflowError",
                   "cannot fit 'int' into an index-sized integer", at);
  }

  // Integers (bool included).
  if (l.isIntLike() && r.isIntLike()) {
    int64_t a = l.getInt(), b = r.getInt(), res = 0;
    bool overflow = false;
    switch (op) {
    case BinaryOp::Add:
      overflow = llvm::AddOverflow(a, b, res);
      break;
    case BinaryOp::Sub:
      overflow = llvm::SubOverflow(a, b, res);
      break;
    case BinaryOp::Mult:
      overflow = llvm::MulOverflow(a, b, res);
      break;
    case BinaryOp::Div:
      if (b == 0)
        return raise("ZeroDivisionError", "division by zero", at);
      return Value::floating(double(a) / double(b));
    case BinaryOp::FloorDiv:
    case BinaryOp::Mod: {
      if (b == 0)
        return raise("ZeroDivisionError",
                     "integer division or modulo by zero", at);
      SymExpr e = op == BinaryOp::FloorDiv
                      ? syms.floorDiv(syms.constant(a), syms.constant(b))
                      : syms.mod(syms.constant(a), syms.constant(b));
      return fromSym(e, at);
    }
    case BinaryOp::Pow: {
      if (b < 0 && a == 0)
        return raise("ZeroDivisionError",
                     "0.0 cannot be raised to a negative power", at);
      if (b < 0)
        return Value::floating(std::pow(double(a), double(b)));
      // 0, 1 and -1 stay small whatever the exponent (`1 ** (1 << 62)`
      // used to loop 2^62 times); other bases overflow within 63 squarings.
      if (a == 0 || a == 1) {
        res = (a == 1 || b == 0) ? 1 : 0;
        break;
      }
      if (a == -1) {
        res = (b & 1) ? -1 : 1;
        break;
      }
      res = 1;
      int64_t base = a;
      for (int64_t k = b; k && !overflow; k >>= 1) {
        if (k & 1)
          overflow = llvm::MulOverflow(res, base, res);
        // A higher bit is set, so the square is a factor of the result.
        if (k > 1 && !overflow)
          overflow = llvm::MulOverflow(base, base, base);
      }
      break;
    }
    case BinaryOp::LShift:
      if (b < 0)
        return raise("ValueError", "negative shift count", at);
      overflow = b >= 63 || (int64_t(uint64_t(a) << b) >> b) != a;
      res = overflow ? 0 : int64_t(uint64_t(a) << b);
      break;
    case BinaryOp::RShift:
      if (b < 0)
        return raise("ValueError", "negative shift count", at);
      res = b >= 63 ? (a < 0 ? -1 : 0) : a >> b;
      break;
    case BinaryOp::BitAnd:
      res = a & b;
      break;
    case BinaryOp::BitOr:
      res = a | b;
      break;
    case BinaryOp::BitXor:
      res = a ^ b;
      break;
    case BinaryOp::MatMult:
      return raise("TypeError", "unsupported operand type(s) for @", at);
    }
    if (overflow)
      return bigBinary(op, *toAPInt(l), *toAPInt(r), at);
    if (l.isBool() && r.isBool() &&
        (op == BinaryOp::BitAnd || op == BinaryOp::BitOr ||
         op == BinaryOp::BitXor))
      return Value::boolean(res != 0);
    return Value::integer(res);
  }

  // Symbolic integers.
  if ((l.is(ValueKind::Sym) || r.is(ValueKind::Sym)) &&
      (l.isIntLike() || l.is(ValueKind::Sym)) &&
      (r.isIntLike() || r.is(ValueKind::Sym))) {
    SymExpr a = toSym(l), b = toSym(r);
    switch (op) {
    case BinaryOp::Add:
      return fromSym(syms.add(a, b), at);
    case BinaryOp::Sub:
      return fromSym(syms.sub(a, b), at);
    case BinaryOp::Mult:
      return fromSym(syms.mul(a, b), at);
    case BinaryOp::FloorDiv:
      return fromSym(syms.floorDiv(a, b), at);
    case BinaryOp::Mod:
      return fromSym(syms.mod(a, b), at);
    case BinaryOp::Pow:
      if (b.isConstant() && *b.getConstant() >= 0 && *b.getConstant() < 8) {
        SymExpr acc = syms.constant(1);
        for (int64_t i = 0; i < *b.getConstant(); ++i)
          acc = syms.mul(acc, a);
        return fromSym(acc, at);
      }
      return makeDeferredFloat(heap, op, l, r);
    case BinaryOp::Div:
      return makeDeferredFloat(heap, op, l, r);
    default:
      return heap.opaque("symbolic value");
    }
  }
  if ((l.is(ValueKind::Sym) && r.isFloat()) ||
      (r.is(ValueKind::Sym) && l.isFloat()))
    return isDeferrableFloatOp(op) ? makeDeferredFloat(heap, op, l, r)
                                   : heap.opaque("symbolic float");

  // Floats.
  if (l.isNumber() && r.isNumber()) {
    double a = l.getFloat(), b = r.getFloat();
    switch (op) {
    case BinaryOp::Add:
      return Value::floating(a + b);
    case BinaryOp::Sub:
      return Value::floating(a - b);
    case BinaryOp::Mult:
      return Value::floating(a * b);
    case BinaryOp::Div:
      if (b == 0)
        return raise("ZeroDivisionError", "float division by zero", at);
      return Value::floating(a / b);
    case BinaryOp::FloorDiv:
      if (b == 0)
        return raise("ZeroDivisionError", "float floor division by zero", at);
      return Value::floating(pyFloorDivF(a, b));
    case BinaryOp::Mod:
      if (b == 0)
        return raise("ZeroDivisionError", "float modulo", at);
      return Value::floating(pyModF(a, b));
    case BinaryOp::Pow:
      return Value::floating(std::pow(a, b));
    default:
      return raise("TypeError",
                   "unsupported operand type(s) for " + pySpelling(op) +
                       ": '" + l.getTypeName() + "' and '" + r.getTypeName() +
                       "'",
                   at);
    }
  }

  // Strings and sequences.
  if (l.isStr() && r.isStr() && op == BinaryOp::Add)
    return heap.str((getStr(l) + getStr(r)).str());
  if (l.isStr() && op == BinaryOp::Mod) {
    // printf-style formatting: substitute %-directives in order.
    llvm::SmallVector<Value, 4> vals;
    if (r.is(ValueKind::Tuple))
      vals.append(getElems(r).begin(), getElems(r).end());
    else
      vals.push_back(r);
    std::string outStr;
    llvm::raw_string_ostream os(outStr);
    llvm::StringRef fmt = getStr(l);
    unsigned vi = 0;
    for (size_t i = 0; i < fmt.size(); ++i) {
      if (fmt[i] != '%' || i + 1 >= fmt.size()) {
        os << fmt[i];
        continue;
      }
      if (fmt[i + 1] == '%') {
        os << '%';
        ++i;
        continue;
      }
      size_t j = i + 1;
      while (j < fmt.size() && !llvm::isAlpha(fmt[j]))
        ++j;
      if (vi < vals.size())
        format(vals[vi++], os, j < fmt.size() && fmt[j] == 'r');
      i = j;
    }
    return heap.str(outStr);
  }
  if (l.isStr() && r.isIntLike() && op == BinaryOp::Mult) {
    std::string s;
    for (int64_t i = 0; i < r.getInt() && s.size() < (1u << 20); ++i)
      s += getStr(l);
    return heap.str(s);
  }
  if (l.isSequence() && r.isSequence() && l.getKind() == r.getKind() &&
      op == BinaryOp::Add) {
    // As `range` and `*`: bounded, so that doubling a list in a loop cannot
    // exhaust memory between two checks of the memory budget.
    if (getElems(l).size() + getElems(r).size() > (1u << 20))
      return raise("MemoryError", "sequence too large at trace time", at);
    llvm::SmallVector<Value, 8> elems(getElems(l).begin(), getElems(l).end());
    elems.append(getElems(r).begin(), getElems(r).end());
    return l.is(ValueKind::Tuple) ? heap.tuple(elems) : heap.list(elems);
  }
  if (l.isSequence() && r.isIntLike() && op == BinaryOp::Mult) {
    llvm::SmallVector<Value, 8> elems;
    for (int64_t i = 0; i < r.getInt() && elems.size() < (1u << 16); ++i)
      elems.append(getElems(l).begin(), getElems(l).end());
    return l.is(ValueKind::Tuple) ? heap.tuple(elems) : heap.list(elems);
  }
  if (l.isIntLike() && r.isSequence() && op == BinaryOp::Mult)
    return binary(op, r, l, at);
  if (l.is(ValueKind::Set) && r.is(ValueKind::Set) &&
      (op == BinaryOp::BitOr || op == BinaryOp::BitAnd ||
       op == BinaryOp::Sub || op == BinaryOp::BitXor))
    return setBinary(op, l, r, at);
  if (l.is(ValueKind::Dict) && r.is(ValueKind::Dict) &&
      op == BinaryOp::BitOr) {
    Value d = heap.dict();
    auto &items = d.as<DictObj>()->items;
    items = l.as<DictObj>()->items;
    for (auto &kv : r.as<DictObj>()->items) {
      bool replaced = false;
      for (auto &e : items)
        if (equals(e.first, kv.first).value_or(false)) {
          e.second = kv.second;
          replaced = true;
        }
      if (!replaced)
        items.push_back(kv);
    }
    return d;
  }
  if (l.is(ValueKind::Sym) || r.is(ValueKind::Sym))
    return heap.opaque("symbolic value");
  if (l.is(ValueKind::Buffer) || r.is(ValueKind::Buffer) ||
      l.is(ValueKind::Region) || r.is(ValueKind::Region))
    return fail(at, "arithmetic on a whole buffer; index it to get elements");
  return raise("TypeError",
               "unsupported operand type(s) for " + pySpelling(op) + ": '" +
                   l.getTypeName() + "' and '" + r.getTypeName() + "'",
               at);
}

Value Interpreter::unary(UnaryOp op, Value v, Node at) {
  if (v.isAbrupt())
    return v;
  if (op == UnaryOp::Not) {
    switch (truth(v, at)) {
    case Truth::True:
      return Value::boolean(false);
    case Truth::False:
      return Value::boolean(true);
    case Truth::IR:
      return irUnary(op, v, at);
    case Truth::Abrupt:
      return v;
    case Truth::Unknown:
      // `not` keeps what made the condition unknown (Uncertain.h).
      return heap.opaque(involvesUnmodelled(v)
                             ? llvm::StringRef(kUnmodelledComparison)
                             : llvm::StringRef("unknown condition"));
    }
  }
  if (isIRScalar(v))
    return irUnary(op, v, at);
  if (v.is(ValueKind::BigInt))
    return bigUnary(op, v.as<BigIntObj>()->value, at);
  if (v.isIntLike()) {
    int64_t i = v.getInt();
    switch (op) {
    case UnaryOp::USub:
      if (i == INT64_MIN)
        return bigUnary(op, *toAPInt(v), at);
      return Value::integer(-i);
    case UnaryOp::UAdd:
      return Value::integer(i);
    case UnaryOp::Invert:
      return Value::integer(~i);
    default:
      break;
    }
  }
  if (v.isFloat()) {
    if (op == UnaryOp::USub)
      return Value::floating(-v.getFloat());
    if (op == UnaryOp::UAdd)
      return v;
  }
  if (v.is(ValueKind::Sym)) {
    if (op == UnaryOp::USub)
      return fromSym(syms.neg(v.getSym()), at);
    if (op == UnaryOp::UAdd)
      return v;
  }
  if (v.is(ValueKind::Opaque))
    return heap.opaque("unary result");
  return raise("TypeError",
               "bad operand type for unary operator: '" + v.getTypeName() +
                   "'",
               at);
}
