//===- NativeFns.cpp - Python builtins, math, itertools -------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"
#include "Uncertain.h"

#include "llvm/ADT/StringExtras.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <numeric>

using namespace tlc;
using namespace tlc::eval;

//===----------------------------------------------------------------------===//
// Lookup
//===----------------------------------------------------------------------===//

std::optional<NativeId> Interpreter::findNative(llvm::StringRef qualified) {
  static const llvm::StringMap<NativeId> table = [] {
    llvm::StringMap<NativeId> m;
#define NATIVE(Id, Name) m[Name] = NativeId::Id;
#include "NativeFns.def"
    return m;
  }();
  auto it = table.find(qualified);
  if (it == table.end())
    return std::nullopt;
  return it->second;
}

llvm::StringRef Interpreter::nativeName(NativeId id) {
  static const llvm::DenseMap<unsigned, llvm::StringRef> names = [] {
    llvm::DenseMap<unsigned, llvm::StringRef> m;
#define NATIVE(Id, Name) m[unsigned(NativeId::Id)] = Name;
#include "NativeFns.def"
    return m;
  }();
  auto it = names.find(unsigned(id));
  if (it == names.end())
    return "";
  llvm::StringRef q = it->second;
  return q.substr(q.rfind('.') + 1);
}

Value Interpreter::findMethod(Value self, llvm::StringRef name) {
  static const llvm::StringMap<NativeId> methods = [] {
    llvm::StringMap<NativeId> m;
#define METHOD(Id, Name) m[Name] = NativeId::Id;
#include "NativeFns.def"
    return m;
  }();
  auto it = methods.find(name);
  if (it == methods.end())
    return Value::poison();
  auto *bm = heap.make<BoundMethodObj>();
  bm->self = self;
  bm->method = uint32_t(it->second);
  bm->name = it->first();
  return heap.obj(ObjKind::BoundMethod, bm);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The element list of a sequence-like value materialised for iteration.
/// What `isinstance(v, T.PrimExpr)` answers: run-time scalars (IR
/// expressions, symbols, element loads, T.alloc_var variables, which
/// TileLang reads as loads) are PrimExprs, Python numbers are not.
static bool isPrimExpr(Value v) {
  if (v.is(ValueKind::Expr) || v.is(ValueKind::Sym))
    return true;
  if (v.is(ValueKind::Region))
    return v.as<RegionObj>()->isElement;
  if (v.is(ValueKind::Buffer))
    return v.as<BufferObj>()->scope == lang::MemoryScope::LocalVar;
  return false;
}

static bool items(Interpreter &in, Value v, llvm::SmallVectorImpl<Value> &out,
                  Node at) {
  return in.iterate(v, out, at);
}

//===----------------------------------------------------------------------===//
// Builtin functions
//===----------------------------------------------------------------------===//

Value Interpreter::callNative(NativeId id, CallArgs &args, Node at) {
  for (Value v : args.pos)
    if (v.isAbrupt())
      return v;
  size_t n = args.pos.size();
  Value a0 = args.positional(0);
  switch (id) {
  case NativeId::SchedInit:
  case NativeId::SchedValid:
  case NativeId::SchedNextTile:
  case NativeId::SchedCoord:
    return callSchedulerMethod(id, args, at);
  case NativeId::FragRepeat:
  case NativeId::FragReplicate:
  case NativeId::FragCondenseRepVar:
  case NativeId::FragGetThreadSize:
  case NativeId::FragBindThreadRange:
    return callFragmentMethod(id, args, at);
  case NativeId::LayoutRepeat:
  case NativeId::LayoutIsEqual:
  case NativeId::LayoutGetInputShape:
  case NativeId::LayoutGetOutputShape:
    return callLayoutMethod(id, args, at);
  case NativeId::LayoutInverse:
  case NativeId::LayoutMapForwardIndex:
  case NativeId::LayoutGetForwardVars:
  case NativeId::LayoutGetForwardIndex:
  case NativeId::LayoutExpand:
  case NativeId::LayoutReshape:
  case NativeId::LayoutCall:
  case NativeId::FragMapForwardThread:
    return callLayoutMapMethod(id, args, at);
  case NativeId::Len: {
    if (n != 1)
      return raise("TypeError", "len() takes exactly one argument", at);
    if (isUncertain(a0))
      return heap.opaque("len");
    if (a0.isSequence())
      return Value::integer(getElems(a0).size());
    if (a0.isStr())
      return Value::integer(getStr(a0).size());
    if (a0.is(ValueKind::Dict))
      return Value::integer(a0.as<DictObj>()->items.size());
    if (a0.is(ValueKind::Set))
      return Value::integer(a0.as<SetObj>()->used);
    if (a0.isObj(ObjKind::DictView))
      return Value::integer(a0.as<DictViewObj>()->dict->items.size());
    if (a0.is(ValueKind::Range)) {
      llvm::SmallVector<Value, 16> tmp;
      if (!iterate(a0, tmp, at))
        return Value::exception();
      return Value::integer(tmp.size());
    }
    if (a0.is(ValueKind::Buffer))
      return fromSym(a0.as<BufferObj>()->shape.empty()
                         ? syms.constant(0)
                         : a0.as<BufferObj>()->shape[0],
                     at);
    // len() of a torch tensor: its first size.
    if (a0.is(ValueKind::Opaque) && a0.as<OpaqueObj>()->hasShape &&
        !a0.as<OpaqueObj>()->shape.empty())
      return a0.as<OpaqueObj>()->shape[0];
    if (a0.is(ValueKind::Opaque))
      return heap.opaque("len");
    return raise("TypeError",
                 "object of type '" + a0.getTypeName() + "' has no len()", at);
  }
  case NativeId::Range: {
    if (n == 0 || n > 3)
      return raise("TypeError", "range expected 1 to 3 arguments", at);
    for (Value v : args.pos) {
      if (v.is(ValueKind::Sym) || v.isIR()) {
        if (tracing() && traced) {
          // range() over symbolic bounds inside a kernel: T.serial.
          auto *loop = heap.make<LoopFrameObj>();
          loop->loopKind = LoopKind::Serial;
          loop->call = at;
          loop->starts.push_back(n >= 2 ? args.pos[0] : Value::integer(0));
          loop->stops.push_back(n >= 2 ? args.pos[1] : args.pos[0]);
          loop->steps.push_back(n == 3 ? args.pos[2] : Value::integer(1));
          return heap.obj(ObjKind::LoopFrame, loop);
        }
        return heap.opaque("symbolic range");
      }
      if (v.is(ValueKind::Opaque))
        return heap.opaque("range");
      if (!v.isIntLike())
        return raise("TypeError",
                     "'" + v.getTypeName() +
                         "' object cannot be interpreted as an integer",
                     at);
    }
    auto *r = heap.make<RangeObj>();
    r->start = n >= 2 ? args.pos[0].getInt() : 0;
    r->stop = n >= 2 ? args.pos[1].getInt() : args.pos[0].getInt();
    r->step = n == 3 ? args.pos[2].getInt() : 1;
    if (r->step == 0)
      return raise("ValueError", "range() arg 3 must not be zero", at);
    return Value::object(ValueKind::Range, r);
  }
  case NativeId::Min:
  case NativeId::Max: {
    bool isMax = id == NativeId::Max;
    llvm::SmallVector<Value, 8> vals;
    if (n == 1) {
      if (a0.is(ValueKind::Opaque))
        return heap.opaque("min/max");
      if (!items(*this, a0, vals, at))
        return Value::exception();
    } else {
      vals.append(args.pos.begin(), args.pos.end());
    }
    if (vals.empty()) {
      if (const Value *d = args.keyword("default"))
        return *d;
      return raise("ValueError", "min()/max() arg is an empty sequence", at);
    }
    const Value *key = args.keyword("key");
    Value best = vals[0];
    Value bestKey = best;
    if (key) {
      CallArgs ka;
      ka.pos.push_back(best);
      ka.posNodes.push_back(at);
      bestKey = call(*key, ka, at);
      if (bestKey.isAbrupt())
        return bestKey;
    }
    for (size_t i = 1; i < vals.size(); ++i) {
      Value k = vals[i];
      if (key) {
        CallArgs ka;
        ka.pos.push_back(vals[i]);
        ka.posNodes.push_back(at);
        k = call(*key, ka, at);
        if (k.isAbrupt())
          return k;
      }
      if (!key && (k.is(ValueKind::Sym) || bestKey.is(ValueKind::Sym) ||
                   k.isIR() || bestKey.isIR())) {
        bestKey = best = minMax(best, k, isMax, at);
        continue;
      }
      Value c = compare(isMax ? syntax::CmpOp::Gt : syntax::CmpOp::Lt, k,
                        bestKey, at);
      if (c.isAbrupt())
        return c;
      Truth t = truth(c, at);
      if (t == Truth::Unknown)
        return heap.opaque("min/max");
      if (t == Truth::True) {
        best = vals[i];
        bestKey = k;
      }
    }
    return best;
  }
  case NativeId::Abs:
    if (a0.isFloat())
      return Value::floating(std::fabs(a0.getFloat()));
    if (a0.is(ValueKind::BigInt) ||
        (a0.isIntLike() && a0.getInt() == INT64_MIN))
      return a0.is(ValueKind::BigInt) && !toAPInt(a0)->isNegative()
                 ? a0
                 : bigUnary(syntax::UnaryOp::USub, *toAPInt(a0), at);
    if (a0.isIntLike())
      return Value::integer(std::llabs(a0.getInt()));
    if (a0.isIR()) {
      CallArgs a2 = args;
      return callPrimitive(*lang::lookupBuiltin("T.abs"), a2, at);
    }
    return heap.opaque("abs");
  case NativeId::Int:
    if (n == 0)
      return Value::integer(0);
    if (a0.isIntLike())
      return Value::integer(a0.getInt());
    if (a0.is(ValueKind::BigInt))
      return a0;
    if (a0.isFloat()) {
      double d = a0.getFloat();
      if (!std::isfinite(d) || std::fabs(d) > 9.2e18)
        return raise("OverflowError", "cannot convert float to int", at);
      return Value::integer(int64_t(d));
    }
    if (a0.isStr()) {
      // Python's int(str): optional sign, decimal digits, underscores
      // between digits; any size.
      llvm::StringRef text = getStr(a0).trim();
      bool negative = text.consume_front("-");
      if (!negative)
        text.consume_front("+");
      std::string digits;
      for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '_' && i > 0 && i + 1 < text.size() &&
            llvm::isDigit(text[i - 1]) && llvm::isDigit(text[i + 1]))
          continue;
        digits += text[i];
      }
      llvm::APInt v;
      if (digits.empty() ||
          !llvm::all_of(digits, [](char c) { return llvm::isDigit(c); }) ||
          llvm::StringRef(digits).getAsInteger(10, v))
        return raise("ValueError", "invalid literal for int() with base 10",
                     at);
      v = v.zext(v.getBitWidth() + 1);
      return makeInt(negative ? -v : v, at);
    }
    if (a0.is(ValueKind::Sym))
      return a0;
    if (a0.isIR())
      return castTo(a0, lang::DType(lang::ScalarType::Int32), at);
    return heap.opaque("int");
  case NativeId::Float:
    if (n == 0)
      return Value::floating(0);
    if (a0.isNumber() || a0.is(ValueKind::BigInt))
      return Value::floating(intToDouble(a0));
    if (a0.isStr()) {
      llvm::StringRef s = getStr(a0).trim();
      if (s == "inf" || s == "+inf")
        return Value::floating(INFINITY);
      if (s == "-inf")
        return Value::floating(-INFINITY);
      double d;
      if (s.getAsDouble(d))
        return raise("ValueError", "could not convert string to float", at);
      return Value::floating(d);
    }
    if (a0.isIR())
      return castTo(a0, lang::DType(lang::ScalarType::Float32), at);
    return heap.opaque("float");
  case NativeId::Bool: {
    if (n == 0)
      return Value::boolean(false);
    Truth t = truth(a0, at);
    if (t == Truth::True || t == Truth::False)
      return Value::boolean(t == Truth::True);
    return heap.opaque("bool");
  }
  case NativeId::Str:
  case NativeId::Repr:
    if (n == 0)
      return heap.strNoCopy("");
    // The text of an object tlc does not model is not known: a placeholder
    // would be sliced and compared as if it were the real text.
    if (a0.is(ValueKind::Opaque) && !torchDTypeName(a0))
      return heap.opaque(id == NativeId::Repr ? "repr" : "str");
    return heap.str(toString(a0, id == NativeId::Repr));
  case NativeId::Round: {
    if (!a0.isNumber())
      return heap.opaque("round");
    Value nd = args.positional(1, Value::none());
    if (nd.isNone())
      return Value::integer(int64_t(std::nearbyint(a0.getFloat())));
    double scale = std::pow(10.0, double(nd.getInt()));
    return Value::floating(std::nearbyint(a0.getFloat() * scale) / scale);
  }
  case NativeId::Enumerate: {
    llvm::SmallVector<Value, 16> vals;
    if (a0.is(ValueKind::Opaque))
      return heap.opaque("enumerate");
    if (!items(*this, a0, vals, at))
      return Value::exception();
    int64_t start = args.positional(1, Value::integer(0)).getInt();
    if (const Value *s = args.keyword("start"))
      start = s->getInt();
    llvm::SmallVector<Value, 16> out;
    for (size_t i = 0; i < vals.size(); ++i)
      out.push_back(heap.tuple({Value::integer(start + i), vals[i]}));
    return heap.list(out);
  }
  case NativeId::Zip: {
    llvm::SmallVector<llvm::SmallVector<Value, 16>, 4> lists(n);
    size_t len = SIZE_MAX;
    for (size_t i = 0; i < n; ++i) {
      if (args.pos[i].is(ValueKind::Opaque))
        return heap.opaque("zip");
      if (!items(*this, args.pos[i], lists[i], at))
        return Value::exception();
      len = std::min(len, lists[i].size());
    }
    if (n == 0)
      len = 0;
    llvm::SmallVector<Value, 16> out;
    for (size_t j = 0; j < len; ++j) {
      llvm::SmallVector<Value, 4> t;
      for (size_t i = 0; i < n; ++i)
        t.push_back(lists[i][j]);
      out.push_back(heap.tuple(t));
    }
    return heap.list(out);
  }
  case NativeId::IsInstance: {
    Value cls = args.positional(1);
    auto matches = [&](Value c) -> std::optional<bool> {
      if (c.is(ValueKind::NativeFn)) {
        // What an object outside TileLang is (a kernel call's outputs: one
        // tensor, or TileLang's list of them; a profiler's timing) is not
        // known; a torch tensor is none of the builtin types.
        if (a0.is(ValueKind::Opaque) && !a0.as<OpaqueObj>()->hasShape)
          return std::nullopt;
        switch (NativeId(c.getNativeId())) {
        case NativeId::Int:
          return a0.isIntLike() || a0.is(ValueKind::BigInt);
        case NativeId::Float:
          return a0.isFloat();
        case NativeId::Bool:
          return a0.isBool();
        case NativeId::Str:
          return a0.isStr();
        case NativeId::List:
          return a0.is(ValueKind::List);
        case NativeId::Tuple:
          return a0.is(ValueKind::Tuple);
        case NativeId::Dict:
          return a0.is(ValueKind::Dict);
        case NativeId::Set:
        case NativeId::FrozenSet:
          return a0.is(ValueKind::Set) &&
                 a0.as<SetObj>()->frozen == (c.getNativeId() ==
                                             uint32_t(NativeId::FrozenSet));
        default:
          return std::nullopt;
        }
      }
      if (c.is(ValueKind::Primitive)) {
        switch (c.getPrimitive()->getCanonical().id) {
        case lang::BuiltinId::PrimExprType:
          return isPrimExpr(a0);
        case lang::BuiltinId::PrimFuncType:
          return a0.isObj(ObjKind::PrimFunc);
        default:
          return std::nullopt;
        }
      }
      // `isinstance(e, ValueError)` for a caught exception.
      if (c.isObj(ObjKind::Exception) && a0.isObj(ObjKind::Exception))
        return isExceptionSubclass(a0.as<NamespaceObj>()->name,
                                   c.as<NamespaceObj>()->name);
      if (c.isObj(ObjKind::Class))
        return isInstanceOf(a0, c.as<NamespaceObj>());
      if (a0.is(ValueKind::Opaque) || a0.is(ValueKind::Sym))
        return std::nullopt;
      return false;
    };
    if (cls.is(ValueKind::Tuple)) {
      for (Value c : getElems(cls)) {
        std::optional<bool> m = matches(c);
        if (!m)
          return heap.opaque("isinstance");
        if (*m)
          return Value::boolean(true);
      }
      return Value::boolean(false);
    }
    std::optional<bool> m = matches(cls);
    if (!m)
      return heap.opaque("isinstance");
    return Value::boolean(*m);
  }
  case NativeId::Print:
  case NativeId::Input:
    return Value::none();
  case NativeId::Set:
  case NativeId::FrozenSet:
    if (n > 1)
      return raiseDefinite("TypeError",
                           (id == NativeId::Set ? "set" : "frozenset") +
                               llvm::Twine(" expected at most 1 argument, "
                                           "got ") +
                               llvm::Twine(n),
                           at);
    return setFrom(n ? a0 : Value::poison(), id == NativeId::FrozenSet, at);
  case NativeId::Hash: {
    if (n != 1)
      return raise("TypeError", "hash() takes exactly one argument", at);
    int64_t hash;
    Value abrupt;
    if (!hashValue(a0, hash, abrupt, at))
      return abrupt.is(ValueKind::Opaque) ? heap.opaque("hash") : abrupt;
    return Value::integer(hash);
  }
  case NativeId::List:
  case NativeId::Tuple: {
    llvm::SmallVector<Value, 16> vals;
    if (n > 0) {
      // An object tlc does not know is some sequence; a T.alloc_*
      // placeholder is not iterable (iterate raises).
      if (a0.is(ValueKind::Opaque) &&
          !a0.as<OpaqueObj>()->description.ends_with(" placeholder"))
        return heap.opaque("sequence");
      if (!items(*this, a0, vals, at))
        return Value::exception();
    }
    return id == NativeId::Tuple ? heap.tuple(vals) : heap.list(vals);
  }
  case NativeId::Dict: {
    Value d = heap.dict();
    auto &it = d.as<DictObj>()->items;
    if (n > 0) {
      if (a0.is(ValueKind::Dict)) {
        it = a0.as<DictObj>()->items;
      } else {
        llvm::SmallVector<Value, 16> pairs;
        if (a0.is(ValueKind::Opaque) || !items(*this, a0, pairs, at))
          return heap.opaque("dict");
        for (Value p : pairs) {
          if (!p.isSequence() || getElems(p).size() != 2)
            return raise("ValueError", "dictionary update sequence element "
                                       "has wrong length", at);
          dictPut(d.as<DictObj>(), getElems(p)[0], getElems(p)[1]);
        }
      }
    }
    for (auto &kv : args.kw)
      dictPut(d.as<DictObj>(), heap.str(kv.first), kv.second);
    return d;
  }
  case NativeId::Sorted:
  case NativeId::Reversed: {
    llvm::SmallVector<Value, 16> vals;
    if (a0.is(ValueKind::Opaque) || !items(*this, a0, vals, at))
      return a0.is(ValueKind::Opaque) ? heap.opaque("sorted")
                                      : Value::exception();
    if (id == NativeId::Reversed) {
      std::reverse(vals.begin(), vals.end());
      return heap.list(vals);
    }
    // Sorted by `key(v)` when given; `reverse=True` is a stable sort in
    // descending order (equal elements keep their order), as CPython's.
    llvm::SmallVector<Value, 16> keys(vals.begin(), vals.end());
    if (const Value *key = args.keyword("key"); key && !key->isNone()) {
      for (Value &k : keys) {
        CallArgs one;
        one.pos.push_back(k);
        one.posNodes.push_back(at);
        k = call(*key, one, at);
        if (k.isException())
          return k;
        if (k.isPoison() || k.is(ValueKind::Opaque))
          return heap.opaque("sorted");
      }
    }
    bool descending = false;
    if (const Value *rev = args.keyword("reverse"))
      descending = rev->isIntLike() && rev->getInt();
    llvm::SmallVector<size_t, 16> order(vals.size());
    std::iota(order.begin(), order.end(), 0);
    bool ok = true;
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
      Value c = descending ? compare(syntax::CmpOp::Lt, keys[y], keys[x], at)
                           : compare(syntax::CmpOp::Lt, keys[x], keys[y], at);
      Truth t = truth(c, at);
      if (t != Truth::True && t != Truth::False)
        ok = false;
      return t == Truth::True;
    });
    if (!ok)
      return heap.opaque("sorted");
    llvm::SmallVector<Value, 16> out;
    for (size_t i : order)
      out.push_back(vals[i]);
    return heap.list(out);
  }
  case NativeId::Sum: {
    llvm::SmallVector<Value, 16> vals;
    if (a0.is(ValueKind::Opaque) || !items(*this, a0, vals, at))
      return a0.is(ValueKind::Opaque) ? heap.opaque("sum") : Value::exception();
    Value acc = args.positional(1, Value::integer(0));
    for (Value v : vals) {
      acc = binary(syntax::BinaryOp::Add, acc, v, at);
      if (acc.isAbrupt())
        return acc;
    }
    return acc;
  }
  case NativeId::Any:
  case NativeId::All: {
    llvm::SmallVector<Value, 16> vals;
    if (a0.is(ValueKind::Opaque) || !items(*this, a0, vals, at))
      return a0.is(ValueKind::Opaque) ? heap.opaque("any/all")
                                      : Value::exception();
    bool isAny = id == NativeId::Any;
    for (Value v : vals) {
      Truth t = truth(v, at);
      if (t != Truth::True && t != Truth::False)
        return heap.opaque("any/all");
      if ((t == Truth::True) == isAny)
        return Value::boolean(isAny);
    }
    return Value::boolean(!isAny);
  }
  case NativeId::Map:
  case NativeId::Filter: {
    llvm::SmallVector<Value, 16> vals;
    Value seq = args.positional(1);
    if (seq.is(ValueKind::Opaque) || !items(*this, seq, vals, at))
      return seq.is(ValueKind::Opaque) ? heap.opaque("map")
                                       : Value::exception();
    llvm::SmallVector<Value, 16> out;
    for (Value v : vals) {
      CallArgs ca;
      ca.pos.push_back(v);
      ca.posNodes.push_back(at);
      Value r = a0.isNone() ? v : call(a0, ca, at);
      if (r.isAbrupt())
        return r;
      if (id == NativeId::Map) {
        out.push_back(r);
        continue;
      }
      Truth t = truth(r, at);
      if (t == Truth::True)
        out.push_back(v);
    }
    return heap.list(out);
  }
  case NativeId::GetAttr: {
    Value name = args.positional(1);
    if (!name.isStr())
      return heap.opaque("getattr");
    Value r = getAttr(a0, heap.copyString(getStr(name)), at);
    if (r.isException() && n > 2) {
      pending = {};
      return args.pos[2];
    }
    return r;
  }
  case NativeId::HasAttr: {
    Value name = args.positional(1);
    if (!name.isStr())
      return heap.opaque("hasattr");
    Value r = getAttr(a0, heap.copyString(getStr(name)), at);
    if (r.isException()) {
      pending = {};
      return Value::boolean(false);
    }
    if (r.is(ValueKind::Opaque))
      return heap.opaque("hasattr");
    return Value::boolean(!r.isPoison());
  }
  case NativeId::SetAttr:
    if (a0.is(ValueKind::Object) && args.positional(1).isStr() &&
        (a0.getObjKind() == ObjKind::Namespace ||
         a0.getObjKind() == ObjKind::Instance))
      a0.as<NamespaceObj>()->set(heap.copyString(getStr(args.pos[1])),
                                 args.positional(2, Value::none()));
    return Value::none();
  case NativeId::Type:
    if (n == 1)
      return typeOf(a0);
    return heap.opaque("type");
  case NativeId::Slice: {
    // slice(stop) / slice(start, stop[, step]), as `a[start:stop:step]`.
    if (n < 1 || n > 3)
      return raise("TypeError",
                   "slice expected 1 to 3 arguments, got " + std::to_string(n),
                   at);
    auto *s = heap.make<SliceObj>();
    if (n == 1) {
      s->upper = a0;
    } else {
      s->lower = a0;
      s->upper = args.positional(1);
      if (n == 3)
        s->step = args.positional(2);
    }
    return Value::object(ValueKind::Slice, s);
  }
  case NativeId::DivMod: {
    Value q = binary(syntax::BinaryOp::FloorDiv, a0, args.positional(1), at);
    if (q.isAbrupt())
      return q;
    Value r = binary(syntax::BinaryOp::Mod, a0, args.positional(1), at);
    if (r.isAbrupt())
      return r;
    return heap.tuple({q, r});
  }
  case NativeId::Pow:
    return binary(syntax::BinaryOp::Pow, a0, args.positional(1), at);
  case NativeId::Iter: {
    // An iterator keeps its position: `next()` and loops resume it.
    if (a0.isObj(ObjKind::Iterator) || a0.is(ValueKind::Opaque))
      return a0;
    auto *it = heap.make<IteratorObj>();
    if (!iterate(a0, it->items, at))
      return Value::exception();
    return heap.obj(ObjKind::Iterator, it);
  }
  case NativeId::Next: {
    if (a0.isObj(ObjKind::Iterator)) {
      IteratorObj *it = a0.as<IteratorObj>();
      if (it->pos < it->items.size())
        return it->items[it->pos++];
      return n > 1 ? args.pos[1] : raise("StopIteration", "", at);
    }
    // Values the evaluator holds as sequences although Python's are
    // iterators (zip, map, generator expressions): their first value.
    llvm::SmallVector<Value, 4> vals;
    if (a0.is(ValueKind::Opaque) || !items(*this, a0, vals, at))
      return heap.opaque("next");
    if (vals.empty())
      return n > 1 ? args.pos[1]
                   : raise("StopIteration", "iterator is exhausted", at);
    return vals[0];
  }
  case NativeId::Callable:
    return Value::boolean(a0.is(ValueKind::Function) ||
                          a0.is(ValueKind::NativeFn) ||
                          a0.is(ValueKind::Primitive));
  case NativeId::Open:
  case NativeId::Super:
    return makeSuper(args, at);
  case NativeId::Object:
    return heap.opaque("object");
  case NativeId::Dataclass:
    return applyDataclass(args);
  case NativeId::DataclassField:
    return makeField(args);
  case NativeId::Exception: {
    auto *o = heap.make<NamespaceObj>();
    o->name = "Exception";
    o->set("args", heap.tuple(args.pos));
    return heap.obj(ObjKind::Exception, o);
  }

  //===------------------------------------------------------------------===//
  // math
  //===------------------------------------------------------------------===//
  case NativeId::MathCeil:
  case NativeId::MathFloor:
  case NativeId::MathTrunc: {
    if (a0.isIntLike())
      return Value::integer(a0.getInt());
    if (!a0.isFloat())
      return heap.opaque("math");
    double d = a0.getFloat();
    d = id == NativeId::MathCeil    ? std::ceil(d)
        : id == NativeId::MathFloor ? std::floor(d)
                                    : std::trunc(d);
    if (!std::isfinite(d))
      return raise("OverflowError", "cannot convert float infinity to integer",
                   at);
    return Value::integer(int64_t(d));
  }
  case NativeId::MathLog2:
  case NativeId::MathLog:
  case NativeId::MathLog10:
  case NativeId::MathSqrt:
  case NativeId::MathExp: {
    if (!a0.isNumber())
      return heap.opaque("math");
    double d = a0.getFloat();
    if ((id != NativeId::MathExp && d < 0) ||
        ((id == NativeId::MathLog2 || id == NativeId::MathLog ||
          id == NativeId::MathLog10) &&
         d == 0))
      return raise("ValueError", "math domain error", at);
    switch (id) {
    case NativeId::MathLog2:
      return Value::floating(std::log2(d));
    case NativeId::MathLog10:
      return Value::floating(std::log10(d));
    case NativeId::MathSqrt:
      return Value::floating(std::sqrt(d));
    case NativeId::MathExp:
      return Value::floating(std::exp(d));
    default: {
      double r = std::log(d);
      if (n > 1 && args.pos[1].isNumber())
        r /= std::log(args.pos[1].getFloat());
      return Value::floating(r);
    }
    }
  }
  case NativeId::MathGcd:
  case NativeId::MathLcm: {
    int64_t acc = id == NativeId::MathGcd ? 0 : 1;
    for (Value v : args.pos) {
      if (!v.isIntLike())
        return heap.opaque("math");
      int64_t x = std::llabs(v.getInt());
      acc = id == NativeId::MathGcd ? std::gcd(acc, x) : std::lcm(acc, x);
    }
    return Value::integer(acc);
  }
  case NativeId::MathPow:
    if (!a0.isNumber() || !args.positional(1).isNumber())
      return heap.opaque("math");
    return Value::floating(std::pow(a0.getFloat(), args.pos[1].getFloat()));
  case NativeId::MathIsqrt:
    if (!a0.isIntLike() || a0.getInt() < 0)
      return heap.opaque("math");
    return Value::integer(int64_t(std::sqrt(double(a0.getInt()))));
  case NativeId::MathIsClose: {
    if (!a0.isNumber() || !args.positional(1).isNumber())
      return heap.opaque("math");
    double x = a0.getFloat(), y = args.pos[1].getFloat();
    return Value::boolean(std::fabs(x - y) <=
                          1e-9 * std::max(std::fabs(x), std::fabs(y)));
  }
  case NativeId::MathProd: {
    llvm::SmallVector<Value, 16> vals;
    if (a0.is(ValueKind::Opaque) || !items(*this, a0, vals, at))
      return heap.opaque("prod");
    Value acc = Value::integer(1);
    for (Value v : vals) {
      acc = binary(syntax::BinaryOp::Mult, acc, v, at);
      if (acc.isAbrupt())
        return acc;
    }
    return acc;
  }

  //===------------------------------------------------------------------===//
  // itertools / functools / argparse / types
  //===------------------------------------------------------------------===//
  case NativeId::IterProduct: {
    llvm::SmallVector<llvm::SmallVector<Value, 8>, 4> lists;
    int64_t repeat = 1;
    if (const Value *r = args.keyword("repeat"))
      if (r->isIntLike())
        repeat = r->getInt();
    for (int64_t rep = 0; rep < repeat; ++rep)
      for (Value v : args.pos) {
        lists.emplace_back();
        if (v.is(ValueKind::Opaque))
          return heap.opaque("product");
        if (!items(*this, v, lists.back(), at))
          return Value::exception();
      }
    llvm::SmallVector<Value, 32> out;
    llvm::SmallVector<size_t, 4> idx(lists.size(), 0);
    if (llvm::any_of(lists, [](auto &l) { return l.empty(); }))
      return heap.list({});
    while (true) {
      if (out.size() > 100000)
        return raise("MemoryError", "itertools.product is too large", at);
      llvm::SmallVector<Value, 4> t;
      for (size_t i = 0; i < lists.size(); ++i)
        t.push_back(lists[i][idx[i]]);
      out.push_back(heap.tuple(t));
      size_t k = lists.size();
      while (k > 0) {
        --k;
        if (++idx[k] < lists[k].size())
          break;
        idx[k] = 0;
        if (k == 0)
          return heap.list(out);
      }
      if (lists.empty())
        return heap.list(out);
    }
  }
  case NativeId::IterChain: {
    llvm::SmallVector<Value, 16> out;
    for (Value v : args.pos)
      if (v.is(ValueKind::Opaque) || !items(*this, v, out, at))
        return heap.opaque("chain");
    return heap.list(out);
  }
  case NativeId::FuncPartial: {
    if (n == 0)
      return raise("TypeError", "partial() needs a callable", at);
    auto *p = heap.make<PartialObj>();
    p->fn = a0;
    p->args.append(args.pos.begin() + 1, args.pos.end());
    p->kwargs.append(args.kw.begin(), args.kw.end());
    return heap.obj(ObjKind::Partial, p);
  }
  case NativeId::FuncReduce: {
    llvm::SmallVector<Value, 16> vals;
    Value seq = args.positional(1);
    if (seq.is(ValueKind::Opaque) || !items(*this, seq, vals, at))
      return heap.opaque("reduce");
    size_t i = 0;
    Value acc;
    if (n > 2) {
      acc = args.pos[2];
    } else {
      if (vals.empty())
        return raise("TypeError", "reduce() of empty iterable", at);
      acc = vals[i++];
    }
    for (; i < vals.size(); ++i) {
      CallArgs ca;
      ca.pos = {acc, vals[i]};
      ca.posNodes = {at, at};
      acc = call(a0, ca, at);
      if (acc.isAbrupt())
        return acc;
    }
    return acc;
  }
  case NativeId::FuncWraps:
  case NativeId::FuncLruCache:
  case NativeId::FuncCache:
    // Used as decorators: return an identity decorator / the function.
    if (n == 1 && a0.is(ValueKind::Function) && id != NativeId::FuncWraps)
      return a0;
    return Value::native(uint32_t(NativeId::FuncCache));
  case NativeId::ArgumentParser: {
    auto *p = heap.make<ArgParserObj>();
    return heap.obj(ObjKind::ArgParser, p);
  }
  case NativeId::SimpleNamespace: {
    auto *ns = heap.make<NamespaceObj>();
    ns->name = "namespace";
    for (auto &kv : args.kw)
      ns->set(kv.first, kv.second);
    return heap.obj(ObjKind::Namespace, ns);
  }
  case NativeId::OpAdd:
  case NativeId::OpSub:
  case NativeId::OpMul:
  case NativeId::OpTrueDiv:
  case NativeId::OpFloorDiv:
  case NativeId::OpMod:
  case NativeId::OpPow:
  case NativeId::OpLShift:
  case NativeId::OpRShift:
  case NativeId::OpAnd:
  case NativeId::OpOr:
  case NativeId::OpXor:
  case NativeId::OpMatMul: {
    using syntax::BinaryOp;
    if (n != 2 || !args.kw.empty())
      return raise("TypeError", "expected 2 positional arguments", at);
    static const std::pair<NativeId, BinaryOp> table[] = {
        {NativeId::OpAdd, BinaryOp::Add},
        {NativeId::OpSub, BinaryOp::Sub},
        {NativeId::OpMul, BinaryOp::Mult},
        {NativeId::OpTrueDiv, BinaryOp::Div},
        {NativeId::OpFloorDiv, BinaryOp::FloorDiv},
        {NativeId::OpMod, BinaryOp::Mod},
        {NativeId::OpPow, BinaryOp::Pow},
        {NativeId::OpLShift, BinaryOp::LShift},
        {NativeId::OpRShift, BinaryOp::RShift},
        {NativeId::OpAnd, BinaryOp::BitAnd},
        {NativeId::OpOr, BinaryOp::BitOr},
        {NativeId::OpXor, BinaryOp::BitXor},
        {NativeId::OpMatMul, BinaryOp::MatMult}};
    for (const auto &[key, op] : table)
      if (key == id)
        return binary(op, a0, args.pos[1], at);
    return heap.opaque("operator");
  }
  case NativeId::OpEq:
  case NativeId::OpNe:
  case NativeId::OpLt:
  case NativeId::OpLe:
  case NativeId::OpGt:
  case NativeId::OpGe: {
    using syntax::CmpOp;
    if (n != 2 || !args.kw.empty())
      return raise("TypeError", "expected 2 positional arguments", at);
    CmpOp op = id == NativeId::OpEq   ? CmpOp::Eq
               : id == NativeId::OpNe ? CmpOp::NotEq
               : id == NativeId::OpLt ? CmpOp::Lt
               : id == NativeId::OpLe ? CmpOp::LtE
               : id == NativeId::OpGt ? CmpOp::Gt
                                      : CmpOp::GtE;
    return compare(op, a0, args.pos[1], at);
  }
  case NativeId::OpNeg:
  case NativeId::OpPos:
  case NativeId::OpInvert:
  case NativeId::OpNot: {
    using syntax::UnaryOp;
    if (n != 1 || !args.kw.empty())
      return raise("TypeError", "expected 1 positional argument", at);
    UnaryOp op = id == NativeId::OpNeg      ? UnaryOp::USub
                 : id == NativeId::OpPos    ? UnaryOp::UAdd
                 : id == NativeId::OpInvert ? UnaryOp::Invert
                                            : UnaryOp::Not;
    return unary(op, a0, at);
  }
  case NativeId::NextPowerOf2:
  case NativeId::CDiv:
  default:
    return heap.opaque("native");
  }
}
