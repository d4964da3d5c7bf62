//===- Comparisons.cpp - Equality, comparisons, truth, iteration ----------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Python's equality, rich comparisons (`==`, `<`, `in`, `is`, dict views),
// truthiness and iteration of trace-time values, with CPython semantics.
//
//===----------------------------------------------------------------------===//

#include "DeferredFloat.h"
#include "Interpreter.h"
#include "Operators.h"
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
// Uncertain values (Uncertain.h)
//===----------------------------------------------------------------------===//

/// The lists marked by markUncertain, per evaluating thread.
static thread_local llvm::DenseSet<const void *> uncertainLists;
static thread_local unsigned assumedBranches = 0;

unsigned &tlc::eval::assumedBranchDepth() { return assumedBranches; }

void tlc::eval::markUncertain(Value list) {
  if (list.is(ValueKind::List))
    uncertainLists.insert(list.getObj());
}

bool tlc::eval::isUncertain(Value v) {
  return v.is(ValueKind::List) && !getElems(v).empty() &&
         uncertainLists.contains(v.getObj());
}

void tlc::eval::forgetUncertainValues() { uncertainLists.clear(); }

/// involvesUnmodelled, looking \p depth containers deep.
static bool involvesUnmodelledAt(Value v, unsigned depth) {
  if (v.is(ValueKind::Opaque))
    // A comparison of symbolic integers is unknown without any value
    // from outside TileLang.
    return v.as<OpaqueObj>()->description != "unknown condition";
  if (isUncertain(v))
    return true;
  if (depth == 0 || !v.isSequence())
    return false;
  return llvm::any_of(
      getElems(v), [&](Value e) { return involvesUnmodelledAt(e, depth - 1); });
}

bool tlc::eval::involvesUnmodelled(Value v) {
  return involvesUnmodelledAt(v, 3);
}

//===----------------------------------------------------------------------===//
// Equality and comparisons
//===----------------------------------------------------------------------===//

std::optional<bool> Interpreter::equals(Value a, Value b) {
  // A list that may hold fewer elements than tlc kept equals nothing
  // knowably.
  if (isUncertain(a) || isUncertain(b))
    return std::nullopt;
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
  // What an undecidable comparison gives: a comparison with a value tlc
  // does not model says so (an `assert` on it is not checked).
  auto unknownResult = [&] {
    return heap.opaque(involvesUnmodelled(l) || involvesUnmodelled(r)
                           ? llvm::StringRef(kUnmodelledComparison)
                           : llvm::StringRef("unknown condition"));
  };
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
      return unknownResult();
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
        return c.is(ValueKind::Opaque) ? unknownResult() : c;
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
      return unknownResult();
    }
    if (unknown && !found)
      return unknownResult();
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
      return unknownResult();
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
    return unknownResult();
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
        return unknownResult();
      if (!*e)
        return compare(op, a[i], b[i], at);
    }
    return result(a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0);
  }
  if (l.is(ValueKind::Opaque) || r.is(ValueKind::Opaque) ||
      l.is(ValueKind::Sym) || r.is(ValueKind::Sym))
    return unknownResult();
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
    if (isUncertain(v))
      return Truth::Unknown;
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
    // A T.alloc_* placeholder made outside any prim_func (Allocations.cpp).
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
