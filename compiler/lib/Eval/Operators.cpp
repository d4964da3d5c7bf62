//===- Operators.cpp - Python operators and formatting ----------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Binary and unary operators, comparisons, equality, truthiness, iteration
// and str()/repr() of trace-time values, with CPython semantics.
//
//===----------------------------------------------------------------------===//

#include "DeferredFloat.h"
#include "Interpreter.h"

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

/// The operator as Python spells it in its TypeError messages.
static llvm::StringRef pySpelling(BinaryOp op) {
  static const char *const names[] = {"+",  "-",  "*", "@", "/", "%",  "**",
                                      "<<", ">>", "|", "^", "&", "//"};
  return names[static_cast<unsigned>(op)];
}
static llvm::StringRef pySpelling(CmpOp op) {
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

/// True for values taking part in IR arithmetic.
static bool isIRScalar(Value v) {
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
      return heap.opaque("unknown condition");
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

std::optional<bool> Interpreter::equals(Value a, Value b) {
  if (a.is(ValueKind::BigInt) || b.is(ValueKind::BigInt)) {
    std::optional<llvm::APInt> x = toAPInt(a), y = toAPInt(b);
    if (x && y)
      return compareInts(*x, *y) == 0;
    if ((x && b.isFloat()) || (y && a.isFloat()))
      return intToDouble(a) == intToDouble(b);
    if (a.is(ValueKind::Opaque) || b.is(ValueKind::Opaque) ||
        a.is(ValueKind::Sym) || b.is(ValueKind::Sym))
      return std::nullopt;
    return false;
  }
  if (a.isNumber() && b.isNumber()) {
    if (a.isFloat() || b.isFloat())
      return a.getFloat() == b.getFloat();
    return a.getInt() == b.getInt();
  }
  if ((a.is(ValueKind::Sym) || a.isIntLike()) &&
      (b.is(ValueKind::Sym) || b.isIntLike()))
    return syms.equal(toSym(a), toSym(b));
  if (a.isStr() && b.isStr())
    return getStr(a) == getStr(b);
  // The same attribute of the torch module is the same object
  // (`torch.float16` as a dict key and in a lookup); other names may be
  // aliases (`torch.half`), so they stay unknown.
  if (a.is(ValueKind::Opaque) && b.is(ValueKind::Opaque)) {
    auto *oa = a.as<OpaqueObj>(), *ob = b.as<OpaqueObj>();
    llvm::StringRef d = oa->description;
    if (!oa->hasShape && !ob->hasShape && d == ob->description &&
        d.starts_with("torch.") && llvm::all_of(d, [](char c) {
          return llvm::isAlnum(c) || c == '_' || c == '.';
        }))
      return true;
  }
  if (a.is(ValueKind::DType) && b.is(ValueKind::DType))
    return a.getDType() == b.getDType();
  if (a.is(ValueKind::DType) && b.isStr())
    return a.getDType().equalsString(getStr(b));
  if (a.isStr() && b.is(ValueKind::DType))
    return b.getDType().equalsString(getStr(a));
  if (a.is(ValueKind::Opaque) || b.is(ValueKind::Opaque))
    return std::nullopt;
  if (a.getKind() != b.getKind())
    return false;
  switch (a.getKind()) {
  case ValueKind::None:
  case ValueKind::Ellipsis:
    return true;
  case ValueKind::Tuple:
  case ValueKind::List: {
    auto ea = getElems(a), eb = getElems(b);
    if (ea.size() != eb.size())
      return false;
    for (size_t i = 0; i < ea.size(); ++i) {
      std::optional<bool> e = equals(ea[i], eb[i]);
      if (!e || !*e)
        return e;
    }
    return true;
  }
  case ValueKind::Set:
    return setEquals(a, b);
  case ValueKind::Primitive:
    return &a.getPrimitive()->getCanonical() ==
           &b.getPrimitive()->getCanonical();
  case ValueKind::NativeFn:
    return a.getNativeId() == b.getNativeId();
  case ValueKind::Object:
    if (a.getObjKind() == ObjKind::EnumMember &&
        b.getObjKind() == ObjKind::EnumMember)
      return a.as<EnumMemberObj>()->info == b.as<EnumMemberObj>()->info;
    return a.getObj() == b.getObj();
  default:
    return a.getObj() == b.getObj();
  }
}

void Interpreter::dictPut(DictObj *d, Value k, Value v) {
  for (auto &kv : d->items)
    if (equals(kv.first, k).value_or(false)) {
      kv.second = v;
      return;
    }
  d->items.push_back({k, v});
}

bool Interpreter::isSetLikeView(Value v) {
  return v.isObj(ObjKind::DictView) &&
         v.as<DictViewObj>()->which != DictViewObj::Values;
}

std::optional<Value> Interpreter::compareDictView(CmpOp op, Value l, Value r,
                                                  Node at) {
  if (op == CmpOp::Is || op == CmpOp::IsNot)
    return std::nullopt;
  if (op == CmpOp::In || op == CmpOp::NotIn) {
    if (!r.isObj(ObjKind::DictView))
      return std::nullopt;
    auto *view = r.as<DictViewObj>();
    Value dict = Value::object(ValueKind::Dict, view->dict);
    if (view->which == DictViewObj::Keys)
      return compare(op, l, dict, at);
    llvm::SmallVector<Value, 16> elems;
    if (view->which == DictViewObj::Values) {
      iterate(r, elems, at);
      return compare(op, l, heap.list(elems), at);
    }
    // An item is in the view when its key is and the values are equal.
    bool pair = l.is(ValueKind::Tuple) && getElems(l).size() == 2;
    if (!pair)
      return Value::boolean(op == CmpOp::NotIn);
    Value has = compare(CmpOp::In, getElems(l)[0], dict, at);
    if (!has.isBool() || !has.getBool())
      return has.isBool() ? Value::boolean(op == CmpOp::NotIn) : has;
    for (auto &kv : view->dict->items)
      if (equals(kv.first, getElems(l)[0]).value_or(false))
        return compare(op == CmpOp::In ? CmpOp::Eq : CmpOp::NotEq,
                       getElems(l)[1], kv.second, at);
    return Value::boolean(op == CmpOp::NotIn);
  }
  // Keys and items views compare as sets; a values view only by identity.
  bool lv = isSetLikeView(l), rv = isSetLikeView(r);
  if (!lv && !rv)
    return std::nullopt;
  auto setLike = [&](Value v) {
    return isSetLikeView(v) || v.is(ValueKind::Set);
  };
  if (!setLike(l) || !setLike(r)) {
    if (l.is(ValueKind::Opaque) || r.is(ValueKind::Opaque))
      return std::nullopt;
    if (op == CmpOp::Eq || op == CmpOp::NotEq)
      return Value::boolean(op == CmpOp::NotEq);
    return std::nullopt; // The TypeError below.
  }
  Value ls = lv ? setFrom(l, false, at) : l;
  if (!ls.is(ValueKind::Set))
    return ls;
  Value rs = rv ? setFrom(r, false, at) : r;
  if (!rs.is(ValueKind::Set))
    return rs;
  return compare(op, ls, rs, at);
}

Value Interpreter::compare(CmpOp op, Value l, Value r, Node at) {
  if (l.isException())
    return l;
  if (r.isException())
    return r;
  if (l.isPoison() || r.isPoison())
    return Value::poison();
  // An IR value is never None (`pid_m is not None` of a block index).
  if ((op == CmpOp::Is || op == CmpOp::IsNot) && (l.isNone() || r.isNone()) &&
      (isIRScalar(l) || isIRScalar(r)))
    return Value::boolean(op == CmpOp::IsNot);
  if (isIRScalar(l) || isIRScalar(r))
    return irCompare(op, l, r, at);
  // An elementwise comparison of torch tensors: a tensor of the broadcast
  // shape (a mask), as their arithmetic.
  if (op != CmpOp::Is && op != CmpOp::IsNot && op != CmpOp::In &&
      op != CmpOp::NotIn) {
    auto shapeOf = [](Value v) -> OpaqueObj * {
      return v.is(ValueKind::Opaque) && v.as<OpaqueObj>()->hasShape
                 ? v.as<OpaqueObj>()
                 : nullptr;
    };
    OpaqueObj *ls = shapeOf(l), *rs = shapeOf(r);
    if (ls && rs) {
      if (std::optional<llvm::SmallVector<Value, 4>> s =
              broadcastShapes(ls->shape, rs->shape))
        return torchTensor(*s);
    } else if ((ls && r.isNumber()) || (rs && l.isNumber())) {
      return torchTensor((ls ? ls : rs)->shape);
    }
  }
  if (std::optional<Value> v = compareDictView(op, l, r, at))
    return *v;
  switch (op) {
  case CmpOp::Is:
  case CmpOp::IsNot: {
    bool same;
    // What a call of an object outside TileLang returned may be None (a
    // `weakref.ref(x)()` whose referent was collected): unknown.
    auto mayBeNone = [](Value v) {
      return v.is(ValueKind::Opaque) &&
             v.as<OpaqueObj>()->description == "call result";
    };
    if ((l.isNone() && mayBeNone(r)) || (r.isNone() && mayBeNone(l)))
      return heap.opaque("identity");
    if (l.isNone() || r.isNone())
      same = l.isNone() && r.isNone();
    else if (l.is(ValueKind::Opaque) || r.is(ValueKind::Opaque))
      return heap.opaque("identity");
    else if (l.getKind() == r.getKind() &&
             (l.is(ValueKind::List) || l.is(ValueKind::Dict) ||
              l.is(ValueKind::Set)))
      same = l.getObj() == r.getObj(); // Mutable containers: identity.
    else
      same = equals(l, r).value_or(false);
    return Value::boolean(op == CmpOp::Is ? same : !same);
  }
  case CmpOp::Eq:
  case CmpOp::NotEq: {
    std::optional<bool> e = equals(l, r);
    if (!e) {
      if (traced && tracing() &&
          (l.is(ValueKind::Sym) || r.is(ValueKind::Sym)))
        return irCompare(op, l, r, at);
      return heap.opaque("unknown condition");
    }
    return Value::boolean(op == CmpOp::Eq ? *e : !*e);
  }
  case CmpOp::In:
  case CmpOp::NotIn: {
    bool found = false;
    // An element whose equality to `l` is not known (an object outside
    // TileLang): unless another is equal, whether `l` is in is unknown.
    bool unknown = false;
    auto match = [&](Value e) {
      std::optional<bool> eq = equals(l, e);
      found |= eq.value_or(false);
      unknown |= !eq;
    };
    if (r.is(ValueKind::Set)) {
      Value c = setContains(r, l, at);
      if (!c.isBool())
        return c.is(ValueKind::Opaque) ? heap.opaque("unknown condition") : c;
      found = c.getBool();
    } else if (r.isStr() && l.isStr()) {
      found = getStr(r).contains(getStr(l));
    } else if (r.isSequence()) {
      for (Value e : getElems(r))
        match(e);
    } else if (r.is(ValueKind::Dict)) {
      noteEnvironRead(r, l);
      for (auto &kv : r.as<DictObj>()->items)
        match(kv.first);
    } else if (r.is(ValueKind::Range) && l.isIntLike()) {
      RangeObj *rg = r.as<RangeObj>();
      int64_t i = l.getInt();
      found = rg->step > 0 ? (i >= rg->start && i < rg->stop &&
                              (i - rg->start) % rg->step == 0)
                           : (i <= rg->start && i > rg->stop &&
                              (rg->start - i) % -rg->step == 0);
    } else if (r.is(ValueKind::Primitive) || r.is(ValueKind::Function) ||
               r.is(ValueKind::NativeFn) || r.isIntLike() ||
               r.is(ValueKind::Float) || r.isNone()) {
      // Neither a container nor iterable: Python's TypeError (a T.*
      // primitive is a function).
      return raise("TypeError",
                   "argument of type '" + r.getTypeName() + "' is not iterable",
                   at);
    } else {
      return heap.opaque("unknown condition");
    }
    if (unknown && !found)
      return heap.opaque("unknown condition");
    return Value::boolean(op == CmpOp::In ? found : !found);
  }
  default:
    break;
  }
  // Ordering.
  auto result = [&](int c) {
    switch (op) {
    case CmpOp::Lt:
      return Value::boolean(c < 0);
    case CmpOp::LtE:
      return Value::boolean(c <= 0);
    case CmpOp::Gt:
      return Value::boolean(c > 0);
    default:
      return Value::boolean(c >= 0);
    }
  };
  if (l.is(ValueKind::BigInt) || r.is(ValueKind::BigInt)) {
    std::optional<llvm::APInt> x = toAPInt(l), y = toAPInt(r);
    if (x && y)
      return result(compareInts(*x, *y));
    if ((x && r.isFloat()) || (y && l.isFloat())) {
      double a = intToDouble(l), b = intToDouble(r);
      return result(a < b ? -1 : a > b ? 1 : 0);
    }
    if (l.is(ValueKind::Sym) || r.is(ValueKind::Sym))
      return heap.opaque("unknown condition");
  }
  if (l.isNumber() && r.isNumber()) {
    if (l.isFloat() || r.isFloat()) {
      double a = l.getFloat(), b = r.getFloat();
      return result(a < b ? -1 : a > b ? 1 : 0);
    }
    int64_t a = l.getInt(), b = r.getInt();
    return result(a < b ? -1 : a > b ? 1 : 0);
  }
  if ((l.is(ValueKind::Sym) || l.isIntLike()) &&
      (r.is(ValueKind::Sym) || r.isIntLike())) {
    SymExpr d = syms.sub(toSym(l), toSym(r));
    if (d.isConstant()) {
      int64_t c = *d.getConstant();
      return result(c < 0 ? -1 : c > 0 ? 1 : 0);
    }
    if (traced && tracing())
      return irCompare(op, l, r, at);
    return heap.opaque("unknown condition");
  }
  if (l.isStr() && r.isStr())
    return result(getStr(l).compare(getStr(r)));
  if (l.is(ValueKind::DType) && r.is(ValueKind::DType)) {
    // Not meaningful in Python, but bits comparisons are common.
    int a = l.getDType().getBits(), b = r.getDType().getBits();
    return result(a < b ? -1 : a > b ? 1 : 0);
  }
  if (l.is(ValueKind::Set) && r.is(ValueKind::Set))
    return setCompare(op, l, r, at);
  if (l.isSequence() && r.isSequence()) {
    auto a = getElems(l), b = getElems(r);
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
      std::optional<bool> e = equals(a[i], b[i]);
      if (!e)
        return heap.opaque("unknown condition");
      if (!*e)
        return compare(op, a[i], b[i], at);
    }
    return result(a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0);
  }
  if (l.is(ValueKind::Opaque) || r.is(ValueKind::Opaque) ||
      l.is(ValueKind::Sym) || r.is(ValueKind::Sym))
    return heap.opaque("unknown condition");
  return raise("TypeError",
               "'" + pySpelling(op) + "' not supported between instances of '" +
                   l.getTypeName() + "' and '" + r.getTypeName() + "'",
               at);
}

void Interpreter::warnUnknownCondition(Value c, Node test,
                                       llvm::StringRef assumption) {
  if (!tracing() || !c.is(ValueKind::Opaque))
    return;
  std::string text = test.text().str();
  if (text.size() > 60 || text.find('\n') != std::string::npos)
    text = "this condition";
  else
    text = "`" + text + "`";
  llvm::StringRef what = c.as<OpaqueObj>()->description;
  warning(test, "tlc cannot evaluate " + text + " (a " +
                    (what.empty() ? "value" : what.str()) +
                    " outside TileLang); " + assumption);
}

Truth Interpreter::truth(Value v, Node at) {
  switch (v.getKind()) {
  case ValueKind::Poison:
  case ValueKind::Exception:
    return Truth::Abrupt;
  case ValueKind::None:
    return Truth::False;
  case ValueKind::Bool:
  case ValueKind::Int:
    return v.getInt() ? Truth::True : Truth::False;
  case ValueKind::BigInt:
    return Truth::True;
  case ValueKind::Float:
    return v.getFloat() != 0 ? Truth::True : Truth::False;
  case ValueKind::Str:
    return getStr(v).empty() ? Truth::False : Truth::True;
  case ValueKind::Tuple:
  case ValueKind::List:
    return getElems(v).empty() ? Truth::False : Truth::True;
  case ValueKind::Dict:
    return v.as<DictObj>()->items.empty() ? Truth::False : Truth::True;
  case ValueKind::Set:
    return v.as<SetObj>()->used == 0 ? Truth::False : Truth::True;
  case ValueKind::Object:
    if (v.getObjKind() == ObjKind::DictView)
      return v.as<DictViewObj>()->dict->items.empty() ? Truth::False
                                                      : Truth::True;
    return Truth::True;
  case ValueKind::Range: {
    RangeObj *r = v.as<RangeObj>();
    bool nonEmpty = r->step > 0 ? r->start < r->stop : r->start > r->stop;
    return nonEmpty ? Truth::True : Truth::False;
  }
  case ValueKind::Sym:
  case ValueKind::Opaque:
    return Truth::Unknown;
  case ValueKind::Expr:
    return Truth::IR;
  case ValueKind::Region:
    return v.as<RegionObj>()->isElement ? Truth::IR : Truth::True;
  case ValueKind::Buffer:
    return v.as<BufferObj>()->scope == lang::MemoryScope::LocalVar
               ? Truth::IR
               : Truth::True;
  default:
    return Truth::True;
  }
}

bool Interpreter::iterate(Value v, llvm::SmallVectorImpl<Value> &out,
                          Node at) {
  switch (v.getKind()) {
  case ValueKind::Tuple:
  case ValueKind::List:
    out.append(getElems(v).begin(), getElems(v).end());
    return true;
  case ValueKind::Str:
    for (char c : getStr(v))
      out.push_back(heap.str(llvm::StringRef(&c, 1)));
    return true;
  case ValueKind::Dict:
    for (auto &kv : v.as<DictObj>()->items)
      out.push_back(kv.first);
    return true;
  case ValueKind::Set:
    for (const SetObj::Entry &e : v.as<SetObj>()->table)
      if (e.state == SetObj::Entry::Active)
        out.push_back(e.key);
    return true;
  case ValueKind::Range: {
    RangeObj *r = v.as<RangeObj>();
    for (int64_t i = r->start; r->step > 0 ? i < r->stop : i > r->stop;
         i += r->step) {
      if (out.size() > (1u << 20)) {
        raise("MemoryError", "range too large to iterate at trace time", at);
        return false;
      }
      out.push_back(Value::integer(i));
    }
    return true;
  }
  case ValueKind::Opaque:
    // A T.alloc_* placeholder made outside any prim_func (KernelOps.cpp).
    if (llvm::StringRef d = v.as<OpaqueObj>()->description;
        d.starts_with("T.alloc") && d.ends_with(" placeholder")) {
      raise("TypeError", "'" + d + "' object is not iterable", at);
      return false;
    }
    return true;
  case ValueKind::Poison:
    return true;
  case ValueKind::Object:
    if (v.getObjKind() == ObjKind::Iterator) {
      // Reads what is left: the iterator is exhausted afterwards.
      IteratorObj *it = v.as<IteratorObj>();
      out.append(it->items.begin() + it->pos, it->items.end());
      it->pos = it->items.size();
      return true;
    }
    if (v.getObjKind() != ObjKind::DictView)
      break;
    for (auto &kv : v.as<DictViewObj>()->dict->items)
      switch (v.as<DictViewObj>()->which) {
      case DictViewObj::Keys:
        out.push_back(kv.first);
        break;
      case DictViewObj::Values:
        out.push_back(kv.second);
        break;
      case DictViewObj::Items:
        out.push_back(heap.tuple({kv.first, kv.second}));
        break;
      }
    return true;
  case ValueKind::Buffer: {
    BufferObj *b = v.as<BufferObj>();
    raise("TypeError", "cannot iterate over buffer '" + b->name + "'", at);
    return false;
  }
  default:
    break;
  }
  raise("TypeError", "'" + v.getTypeName() + "' object is not iterable", at);
  return false;
}

//===----------------------------------------------------------------------===//
// Formatting
//===----------------------------------------------------------------------===//

static void formatFloat(double d, llvm::raw_ostream &os) {
  if (std::isinf(d)) {
    os << (d > 0 ? "inf" : "-inf");
    return;
  }
  if (std::isnan(d)) {
    os << "nan";
    return;
  }
  if (d == std::floor(d) && std::fabs(d) < 1e16) {
    os << llvm::format("%.1f", d);
    return;
  }
  for (int prec = 1; prec <= 17; ++prec) {
    char buf[64];
    snprintf(buf, sizeof(buf), "%.*g", prec, d);
    if (std::strtod(buf, nullptr) == d) {
      os << buf;
      return;
    }
  }
  os << llvm::format("%.17g", d);
}

/// CPython's repr of a str: single quotes unless the text has a single
/// quote and no double one; backslashes, the quote and control characters
/// escaped (unicode_repr). Bytes of UTF-8 text at or past 0x80 are kept.
static void formatStrRepr(llvm::StringRef text, llvm::raw_ostream &os) {
  char quote = text.contains('\'') && !text.contains('"') ? '"' : '\'';
  os << quote;
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == quote || c == '\\')
      os << '\\' << c;
    else if (c == '\n')
      os << "\\n";
    else if (c == '\r')
      os << "\\r";
    else if (c == '\t')
      os << "\\t";
    else if (u < 0x20 || u == 0x7f)
      os << llvm::format("\\x%02x", u);
    else
      os << c;
  }
  os << quote;
}

void Interpreter::format(Value v, llvm::raw_ostream &os, bool repr) {
  switch (v.getKind()) {
  case ValueKind::None:
    os << "None";
    return;
  case ValueKind::Bool:
    os << (v.getBool() ? "True" : "False");
    return;
  case ValueKind::Int:
    os << v.getInt();
    return;
  case ValueKind::BigInt:
    os << intToString(v);
    return;
  case ValueKind::Float:
    formatFloat(v.getFloat(), os);
    return;
  case ValueKind::Str:
    if (repr)
      formatStrRepr(getStr(v), os);
    else
      os << getStr(v);
    return;
  case ValueKind::Tuple:
  case ValueKind::List: {
    bool tuple = v.is(ValueKind::Tuple);
    os << (tuple ? '(' : '[');
    llvm::interleaveComma(getElems(v), os,
                          [&](Value e) { format(e, os, true); });
    if (tuple && getElems(v).size() == 1)
      os << ',';
    os << (tuple ? ')' : ']');
    return;
  }
  case ValueKind::Dict:
    os << '{';
    llvm::interleaveComma(v.as<DictObj>()->items, os, [&](auto &kv) {
      format(kv.first, os, true);
      os << ": ";
      format(kv.second, os, true);
    });
    os << '}';
    return;
  case ValueKind::Set: {
    auto *s = v.as<SetObj>();
    if (s->used == 0) {
      os << (s->frozen ? "frozenset()" : "set()");
      return;
    }
    llvm::SmallVector<Value, 16> elems;
    iterate(v, elems, Node());
    os << (s->frozen ? "frozenset({" : "{");
    llvm::interleaveComma(elems, os, [&](Value e) { format(e, os, true); });
    os << (s->frozen ? "})" : "}");
    return;
  }
  case ValueKind::Sym:
    v.getSym().print(os);
    return;
  case ValueKind::DType: {
    lang::DType t = v.getDType();
    // TVM registers the unpacked floats as custom types: `str()` spells them
    // `custom[float4_e2m1_unpacked]8` (and `...]8x2` for vectors).
    if (t.isUnpackedFloat()) {
      os << "custom[" << t.getScalarName() << "]8";
      if (t.isVector())
        os << "x" << t.getLanes();
      return;
    }
    os << t.getName();
    return;
  }
  case ValueKind::Buffer:
    os << v.as<BufferObj>()->name;
    return;
  case ValueKind::Function:
    os << "<function " << v.as<FunctionObj>()->name << ">";
    return;
  case ValueKind::Opaque:
    // A torch dtype prints as torch does (`str(torch.float16)` is
    // "torch.float16"); scripts slice the name off to get TileLang's.
    if (std::optional<std::string> name = torchDTypeName(v)) {
      os << *name;
      return;
    }
    os << '<' << v.getTypeName() << '>';
    return;
  case ValueKind::Range: {
    RangeObj *r = v.as<RangeObj>();
    os << "range(" << r->start << ", " << r->stop;
    if (r->step != 1)
      os << ", " << r->step;
    os << ')';
    return;
  }
  case ValueKind::Object:
    if (v.getObjKind() == ObjKind::EnumMember) {
      os << v.as<EnumMemberObj>()->info->name;
      return;
    }
    if (v.getObjKind() == ObjKind::DictView) {
      llvm::SmallVector<Value, 16> elems;
      iterate(v, elems, Node());
      os << v.getTypeName() << "([";
      llvm::interleaveComma(elems, os, [&](Value e) { format(e, os, true); });
      os << "])";
      return;
    }

    // str(e) of a caught exception: its one argument, or its arguments.
    if (v.getObjKind() == ObjKind::Exception && !repr)
      if (Value *args = v.as<NamespaceObj>()->find("args");
          args && args->is(ValueKind::Tuple)) {
        if (getElems(*args).size() == 1)
          format(getElems(*args)[0], os, false);
        else if (!getElems(*args).empty())
          format(*args, os, true);
        return;
      }
    os << '<' << v.getTypeName() << '>';
    return;
  default:
    os << '<' << v.getTypeName() << '>';
    return;
  }
}

std::optional<std::string> Interpreter::torchDTypeName(Value v) {
  if (!v.is(ValueKind::Opaque))
    return std::nullopt;
  llvm::StringRef d = v.as<OpaqueObj>()->description;
  if (!d.consume_front("torch.") || !lang::DType::parseTorch(d))
    return std::nullopt;
  // torch prints its aliases by their canonical names (torch.half is
  // "torch.float16").
  llvm::StringRef canonical = llvm::StringSwitch<llvm::StringRef>(d)
                                  .Case("half", "float16")
                                  .Case("float", "float32")
                                  .Case("double", "float64")
                                  .Case("short", "int16")
                                  .Case("int", "int32")
                                  .Case("long", "int64")
                                  .Default(d);
  return ("torch." + canonical).str();
}

std::string Interpreter::toString(Value v, bool repr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  format(v, os, repr);
  return s;
}
