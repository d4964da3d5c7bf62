//===- EvalExpr.cpp - Expressions and Python operators --------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

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
// Dispatch
//===----------------------------------------------------------------------===//

Value Interpreter::eval(Node n) {
  if (!n)
    return Value::none();
  switch (n.kind()) {
  case NodeKind::Constant:
    return evalConstant(n);
  case NodeKind::Name: {
    Value v = lookup(n.identifier(), n);
    // A T.alloc_var read after the loop or branch that declared it: an
    // error at the name, not code naming an undeclared variable.
    if (v.is(ValueKind::Buffer) && tracing() &&
        !checkVarInScope(v.as<BufferObj>(), n))
      return Value::poison();
    // Likewise a loop target read after its loop.
    if (v.is(ValueKind::Expr) && tracing() &&
        !checkLoopTargetInScope(v.as<ExprObj>()->value, n.identifier(), n))
      return Value::poison();
    return v;
  }
  case NodeKind::Attribute: {
    Value obj = eval(n.child(Field::value));
    if (obj.isAbrupt())
      return obj;
    return getAttr(obj, n.identifier(), n);
  }
  case NodeKind::Subscript:
    return evalSubscriptExpr(n);
  case NodeKind::Call: {
    Node func = n.child(Field::func);
    Value fn;
    if (func.kind() == NodeKind::Attribute) {
      // `T.name(...)` of a name TileLang does not have raises its
      // AttributeError at the call, as Python does when it runs it.
      Value obj = eval(func.child(Field::value));
      if (obj.isAbrupt())
        return obj;
      if (isUnknownTName(obj, func.identifier()))
        return raiseUnknownTName(func.identifier(), n);
      fn = getAttr(obj, func.identifier(), func);
    } else {
      fn = eval(func);
    }
    if (fn.isException())
      return fn;
    CallArgs args;
    Value abrupt;
    if (!evalCallArgs(n, args, abrupt))
      return abrupt;
    if (fn.isPoison())
      return fn;
    Value result = call(fn, args, n);
    // A call of an unknown object inside a kernel, made for its effect
    // (TensorCoreIntrinEmitter.mma(A_local, B_local, C_local)) with its
    // unknown result discarded, may change the kernel's data, and nothing
    // else would notice. A call whose result is used is left to the use (a
    // condition, a stored value, a layout function), which says what it
    // assumed and keeps the kernel from being built where it must.
    if (tracing() && (fn.is(ValueKind::Opaque) || fn.is(ValueKind::Module)) &&
        result.is(ValueKind::Opaque) &&
        result.as<OpaqueObj>()->description == "call result" &&
        n.parent().kind() == NodeKind::Expr)
      recordUnmodelledCall(n, args);
    return result;
  }
  case NodeKind::BinOp: {
    Value l = eval(n.child(Field::left));
    if (l.isException())
      return l;
    Value r = eval(n.child(Field::right));
    if (r.isException())
      return r;
    return binary(n.op(), l, r, n);
  }
  case NodeKind::UnaryOp: {
    Value v = eval(n.child(Field::operand));
    if (v.isAbrupt())
      return v;
    return unary(n.unaryOp(), v, n);
  }
  case NodeKind::BoolOp:
    return evalBoolOp(n);
  case NodeKind::Compare:
    return evalCompare(n);
  case NodeKind::IfExp:
    return evalIfExp(n);
  case NodeKind::Set:
    return evalSetDisplay(n);
  case NodeKind::Tuple:
  case NodeKind::List: {
    llvm::SmallVector<Value, 8> elems;
    for (Node e : n.children(Field::elts)) {
      if (e.kind() == NodeKind::Starred) {
        Value v = eval(e.child(Field::value));
        if (v.isException())
          return v;
        if (v.isPoison() || v.is(ValueKind::Opaque))
          return v;
        if (!iterate(v, elems, e))
          return Value::exception();
        continue;
      }
      Value v = eval(e);
      if (v.isException())
        return v;
      elems.push_back(v);
    }
    return n.kind() == NodeKind::Tuple ? heap.tuple(elems) : heap.list(elems);
  }
  case NodeKind::Dict:
    return evalDict(n);
  case NodeKind::ListComp:
  case NodeKind::SetComp:
  case NodeKind::GeneratorExp:
  case NodeKind::DictComp:
    return evalComprehension(n);
  case NodeKind::Lambda:
    return evalLambda(n);
  case NodeKind::JoinedStr:
    return evalJoinedStr(n);
  case NodeKind::NamedExpr: {
    Value v = eval(n.child(Field::value));
    if (v.isException())
      return v;
    if (assign(n.child(Field::target), v) != Flow::Normal)
      return Value::exception();
    return v;
  }
  case NodeKind::Slice:
    return evalSlice(n);
  case NodeKind::Starred:
    return fail(n, "starred expression is not allowed here");
  case NodeKind::Await:
  case NodeKind::Yield:
  case NodeKind::YieldFrom:
    return heap.opaque("generator value");
  default:
    return Value::poison();
  }
}

Value Interpreter::evalConstant(Node n) {
  syntax::LiteralValue lit = n.literal();
  using K = syntax::LiteralValue::Kind;
  switch (lit.kind) {
  case K::None:
    return Value::none();
  case K::True:
    return Value::boolean(true);
  case K::False:
    return Value::boolean(false);
  case K::Ellipsis:
    return Value::ellipsis();
  case K::Int:
    if (lit.overflow) {
      // Python ints are unbounded: a literal beyond the signed 64-bit range
      // (`0xffffffffffffffff`, a uint64 mask) is a BigInt.
      std::string digits;
      for (char c : lit.text)
        if (c != '_')
          digits += c;
      llvm::APInt bits;
      if (llvm::StringRef(digits).getAsInteger(0, bits))
        return fail(n, "malformed integer literal");
      return makeInt(bits.zext(bits.getBitWidth() + 1), n);
    }
    return Value::integer(lit.intValue);
  case K::Float:
    return Value::floating(lit.floatValue);
  case K::Str:
    return heap.str(lit.text);
  default:
    return heap.opaque("literal");
  }
}

Value Interpreter::evalJoinedStr(Node n) {
  std::string s;
  llvm::raw_string_ostream os(s);
  for (Node part : n.children(Field::values)) {
    if (part.kind() == NodeKind::Constant) {
      os << part.literal().text;
      continue;
    }
    if (part.kind() == NodeKind::FormattedValue) {
      Value v = eval(part.child(Field::value));
      if (v.isException())
        return v;
      if (part.isDebugFormat())
        os << part.child(Field::value).text() << '=';
      format(v, os, part.conversion() == 'r');
    }
  }
  return heap.str(s);
}

Value Interpreter::evalBoolOp(Node n) {
  bool isAnd = n.boolOp() == syntax::BoolOp::And;
  Value result = Value::none();
  bool first = true;
  for (Node operand : n.children(Field::values)) {
    Value v = eval(operand);
    if (v.isAbrupt())
      return v;
    if (first) {
      result = v;
      first = false;
    } else if (result.isIR() || v.isIR()) {
      result = irBinary(isAnd ? BinaryOp::BitAnd : BinaryOp::BitOr, result, v,
                        n);
      if (result.isAbrupt())
        return result;
      continue;
    } else {
      result = v;
    }
    Truth t = truth(result, operand);
    if (t == Truth::Abrupt)
      return result;
    if (t == Truth::IR || t == Truth::Unknown)
      continue;
    if (isAnd ? t == Truth::False : t == Truth::True)
      return result;
  }
  return result;
}

Value Interpreter::evalCompare(Node n) {
  Value left = eval(n.child(Field::left));
  if (left.isAbrupt())
    return left;
  llvm::SmallVector<CmpOp, 2> ops = n.compareOps();
  Value result;
  unsigned i = 0;
  for (Node rn : n.children(Field::comparators)) {
    Value right = eval(rn);
    if (right.isAbrupt())
      return right;
    Value c = compare(ops[i++], left, right, n);
    if (c.isAbrupt())
      return c;
    if (i == 1) {
      result = c;
    } else if (result.isIR() || c.isIR()) {
      result = irBinary(BinaryOp::BitAnd, result, c, n);
    } else {
      Truth t = truth(result, n);
      if (t == Truth::False)
        return result;
      result = c;
    }
    left = right;
  }
  return result;
}

Value Interpreter::evalIfExp(Node n) {
  Node test = n.child(Field::test);
  Value c = eval(test);
  switch (truth(c, test)) {
  case Truth::Unknown:
    warnUnknownCondition(c, test, "the first alternative is assumed");
    [[fallthrough]];
  case Truth::True:
    return eval(n.child(Field::body));
  case Truth::False:
    return eval(n.child(Field::orelse));
  case Truth::IR: {
    Value a = eval(n.child(Field::body));
    if (a.isAbrupt())
      return a;
    Value b = eval(n.child(Field::orelse));
    if (b.isAbrupt())
      return b;
    CallArgs args;
    args.pos = {c, a, b};
    args.posNodes = {test, n.child(Field::body), n.child(Field::orelse)};
    return callPrimitive(*lang::lookupBuiltin("T.if_then_else"), args, n);
  }
  case Truth::Abrupt:
    return c;
  }
  return Value::poison();
}

Value Interpreter::evalSlice(Node n) {
  auto *s = heap.make<SliceObj>();
  for (auto [field, slot] : {std::pair{Field::lower, &s->lower},
                             std::pair{Field::upper, &s->upper},
                             std::pair{Field::step, &s->step}}) {
    if (Node c = n.child(field)) {
      Value v = eval(c);
      if (v.isException())
        return v;
      *slot = v;
    }
  }
  return Value::object(ValueKind::Slice, s);
}

Value Interpreter::evalSubscriptExpr(Node n) {
  Value obj = eval(n.child(Field::value));
  if (obj.isAbrupt())
    return obj;
  Value idx = eval(n.child(Field::slice));
  if (idx.isAbrupt())
    return idx;
  return subscript(obj, idx, n);
}

Value Interpreter::evalDict(Node n) {
  Value d = heap.dict();
  llvm::SmallVector<Node, 8> keys(n.children(Field::keys).begin(),
                                  n.children(Field::keys).end());
  unsigned i = 0;
  for (Node vn : n.children(Field::values)) {
    Node kn = i < keys.size() ? keys[i] : Node();
    ++i;
    Value v = eval(vn);
    if (v.isException())
      return v;
    if (!kn) {
      if (v.is(ValueKind::Dict))
        for (auto &kv : v.as<DictObj>()->items)
          dictPut(d.as<DictObj>(), kv.first, kv.second);
      continue;
    }
    Value k = eval(kn);
    if (k.isException())
      return k;
    dictPut(d.as<DictObj>(), k, v);
  }
  return d;
}

Value Interpreter::evalComprehension(Node n) {
  llvm::SmallVector<Node, 2> gens(n.children(Field::generators).begin(),
                                  n.children(Field::generators).end());
  Env *compEnv = heap.make<Env>();
  compEnv->parent = env;
  Env *saved = env;
  env = compEnv;
  bool isDict = n.kind() == NodeKind::DictComp;
  llvm::SmallVector<Value, 16> results;
  llvm::SmallVector<std::pair<Value, Value>, 8> dictItems;
  Value abrupt;
  // Whether an element was kept on a condition tlc could not evaluate.
  bool keptUnknown = false;
  std::function<bool(unsigned)> loop = [&](unsigned level) -> bool {
    if (level == gens.size()) {
      if (isDict) {
        Value k = eval(n.child(Field::key));
        if (k.isException()) {
          abrupt = k;
          return false;
        }
        Value v = eval(n.child(Field::value));
        if (v.isException()) {
          abrupt = v;
          return false;
        }
        dictItems.push_back({k, v});
      } else {
        Value v = eval(n.child(Field::elt));
        if (v.isException()) {
          abrupt = v;
          return false;
        }
        results.push_back(v);
      }
      return true;
    }
    Node gen = gens[level];
    // The first iterable is evaluated in the enclosing scope.
    if (level == 0)
      env = saved;
    Value iter = eval(gen.child(Field::iter));
    env = compEnv;
    if (iter.isAbrupt() || iter.is(ValueKind::Opaque)) {
      abrupt = iter.isAbrupt() ? iter : heap.opaque("comprehension");
      return false;
    }
    llvm::SmallVector<Value, 16> items;
    if (!iterate(iter, items, gen.child(Field::iter))) {
      abrupt = Value::exception();
      return false;
    }
    for (Value item : items) {
      if (!step(gen)) {
        abrupt = Value::exception();
        return false;
      }
      if (assign(gen.child(Field::target), item) != Flow::Normal) {
        abrupt = Value::exception();
        return false;
      }
      bool keep = true, unknown = false;
      for (Node cond : gen.children(Field::ifs)) {
        Value c = eval(cond);
        Truth t = truth(c, cond);
        if (t == Truth::Abrupt) {
          abrupt = c;
          return false;
        }
        // A condition on kernel data: which elements the list holds would
        // only be known when the kernel runs (TileLang raises this
        // TypeError, starting with these words, where the prim_func is
        // defined).
        if (t == Truth::IR) {
          abrupt =
              raise("TypeError",
                    "Comprehension filters must be evaluable at trace time: "
                    "this condition depends on a value the kernel computes, so "
                    "the elements the comprehension keeps are not known when "
                    "it is traced (test the condition with an `if` in the "
                    "kernel instead)",
                    cond);
          return false;
        }
        if (t == Truth::Unknown) {
          warnUnknownCondition(c, cond, "the element is assumed kept");
          unknown = true;
        }
        if (t == Truth::False) {
          keep = false;
          break;
        }
      }
      keptUnknown |= keep && unknown;
      if (keep && !loop(level + 1))
        return false;
    }
    return true;
  };
  bool ok = loop(0);
  env = saved;
  if (!ok)
    return abrupt;
  if (isDict) {
    Value d = heap.dict();
    for (auto &kv : dictItems)
      dictPut(d.as<DictObj>(), kv.first, kv.second);
    return d;
  }
  if (n.kind() == NodeKind::SetComp)
    return makeSet(results, n);
  // A generator expression is an iterator: a loop that breaks leaves the
  // rest for its next reader (`for i in gen: ... break` then `for i in
  // gen:` resumes), and reading it through exhausts it.
  if (n.kind() == NodeKind::GeneratorExp) {
    auto *it = heap.make<IteratorObj>();
    it->items.append(results.begin(), results.end());
    return heap.obj(ObjKind::Iterator, it);
  }
  Value list = heap.list(results);
  // Elements kept on conditions tlc could not evaluate: the list may hold
  // more than Python's (Uncertain.h).
  if (keptUnknown)
    markUncertain(list);
  return list;
}

Value Interpreter::evalLambda(Node n) {
  FunctionObj *fn = makeFunction(n, "<lambda>");
  if (!fn)
    return Value::exception();
  return Value::object(ValueKind::Function, fn);
}

//===----------------------------------------------------------------------===//
// Attributes and subscripts
//===----------------------------------------------------------------------===//

/// `kernel.params` or `kernel.result_idx` of a compiled kernel whose
/// signature is \p sig.
static Value compiledKernelInfo(Heap &heap, const KernelSig &sig,
                                llvm::StringRef attr) {
  llvm::SmallVector<Value, 4> items;
  if (attr == "result_idx") {
    for (unsigned i : sig.outputs)
      items.push_back(Value::integer(i));
    return heap.list(items);
  }
  for (const KernelParamSig &p : sig.params) {
    auto *ns = heap.make<NamespaceObj>();
    ns->name = "KernelParam";
    if (p.tensor) {
      llvm::SmallVector<Value, 4> dims;
      for (const std::optional<int64_t> &d : p.shape)
        dims.push_back(d ? Value::integer(*d) : heap.opaque("dimension"));
      ns->set("shape", heap.list(dims));
      std::string torchName = "torch." + p.dtype.getName();
      ns->set("dtype", !p.assumedDType && lang::DType::parseTorch(torchName)
                           ? heap.opaque(heap.copyString(torchName))
                           : heap.opaque("dtype"));
    } else {
      ns->set("shape", heap.list({}));
      ns->set("dtype", heap.opaque("dtype"));
    }
    items.push_back(heap.obj(ObjKind::Namespace, ns));
  }
  return heap.list(items);
}

Value Interpreter::getAttr(Value obj, llvm::StringRef attr, Node at) {
  if (attr == "__class__" && !obj.isAbrupt() && !obj.isObj(ObjKind::Super))
    return typeOf(obj);
  switch (obj.getKind()) {
  case ValueKind::Poison:
  case ValueKind::Exception:
    return obj;
  case ValueKind::Module:
    if (attr == "__name__" && !obj.as<ModuleObj>()->opaque)
      return heap.str(obj.as<ModuleObj>()->name);
    return moduleAttr(obj.as<ModuleObj>(), attr, at);
  case ValueKind::NativeFn:
    if (attr == "__name__" || attr == "__qualname__")
      return heap.str(nativeName(NativeId(obj.getNativeId())));
    return heap.opaque("attribute");
  case ValueKind::Opaque: {
    auto *o = obj.as<OpaqueObj>();
    // A torch tensor's shape, and its methods whose results' shapes are
    // known (TorchShapes.cpp).
    if (o->hasShape)
      if (std::optional<Value> v = tensorAttr(o, attr))
        return *v;
    // A compiled kernel's adapter. TileLang's default tvm_ffi adapter
    // allocates outputs in the callee (the TVM-FFI ABI) and so keeps no
    // map from dynamic symbols to the arguments they are read from: its
    // `dynamic_symbolic_map` is None. The cython and ctypes adapters keep
    // one (a dict, unknown here).
    if (o->description == "JITKernel" && attr == "adapter")
      return heap.opaque(nonFfiKernels.count(o) ? "kernel adapter"
                                                : "tvm_ffi kernel adapter");
    if (o->description == "tvm_ffi kernel adapter" &&
        attr == "dynamic_symbolic_map")
      return Value::none();
    // A compiled kernel's parameters (TileLang's `KernelParam`s: `shape`,
    // `dtype` a torch dtype) and `result_idx`, the parameters out_idx made
    // outputs, as scripts read them to allocate inputs.
    if (o->description == "JITKernel" &&
        (attr == "params" || attr == "result_idx")) {
      auto it = compiledKernels.find(o);
      if (it != compiledKernels.end())
        return compiledKernelInfo(heap, *it->second, attr);
    }
    // Keep the qualified name of module members (`torch.cuda`,
    // `tilelang.carver.arch.driver`) so that device queries are recognised
    // when called.
    llvm::StringRef d = o->description;
    bool qualified = (d == "torch" || d.starts_with("torch.") || d == "tvm" ||
                      d.starts_with("tvm.") || d == "pytest" ||
                      d.starts_with("pytest.") || d.starts_with("tilelang.")) &&
                     llvm::all_of(d, [](char c) {
                       return llvm::isAlnum(c) || c == '_' || c == '.';
                     });
    return heap.opaque(qualified ? heap.copyString((d + "." + attr).str())
                                 : llvm::StringRef("attribute"));
  }
  case ValueKind::Primitive:
    return primitiveAttr(*obj.getPrimitive(), attr, at);
  case ValueKind::DType: {
    lang::DType t = obj.getDType();
    if (attr == "bits")
      return Value::integer(t.getBits());
    if (attr == "lanes")
      return Value::integer(t.getLanes());
    if (attr == "itemsize")
      return Value::integer(t.getItemSize());
    if (attr == "name" || attr == "dtype")
      return heap.str(t.getName());
    // `T.float16.torch()` is `as_torch()`.
    Value m = findMethod(obj, attr == "torch" ? "as_torch" : attr);
    if (!m.isPoison())
      return m;
    return heap.opaque("dtype attribute");
  }
  case ValueKind::Buffer: {
    BufferObj *b = obj.as<BufferObj>();
    if (attr == "shape") {
      llvm::SmallVector<Value, 4> dims;
      for (SymExpr d : b->shape)
        dims.push_back(fromSym(d, at));
      return heap.tuple(dims);
    }
    if (attr == "dtype")
      return Value::dtype(b->dtype);
    if (attr == "ndim")
      return Value::integer(b->shape.size());
    if (attr == "scope")
      return heap.str(lang::getScopeString(b->scope));
    if (attr == "name")
      return heap.str(b->name);
    // The buffer's memory, for T.Tensor(shape, dtype, data=buf.data).
    if (attr == "data")
      return obj;
    if (attr == "access_ptr")
      return findMethod(obj, attr);
    return heap.opaque("buffer attribute");
  }
  case ValueKind::Region:
    if (attr == "buffer")
      return Value::object(ValueKind::Buffer, obj.as<RegionObj>()->buffer);
    if (attr == "dtype")
      return Value::dtype(obj.as<RegionObj>()->buffer->dtype);
    // An element reference is a scalar: A[i].astype(dtype) casts its load.
    if (attr == "astype" && obj.as<RegionObj>()->isElement)
      return findMethod(obj, attr);
    return heap.opaque("region attribute");
  case ValueKind::Expr:
    if (attr == "dtype")
      return Value::dtype(obj.as<ExprObj>()->dtype);
    if (attr == "astype")
      return findMethod(obj, attr);
    return heap.opaque("expression attribute");
  case ValueKind::Str:
  case ValueKind::List:
  case ValueKind::Tuple:
  case ValueKind::Dict:
  case ValueKind::Set: {
    if (obj.is(ValueKind::Tuple)) {
      auto *seq = obj.as<SeqObj>();
      for (auto [i, f] : llvm::enumerate(seq->fieldNames))
        if (f == attr && i < seq->elems.size())
          return seq->elems[i];
    }
    Value m = findMethod(obj, attr);
    if (!m.isPoison())
      return m;
    return raise("AttributeError",
                 "'" + obj.getTypeName() + "' object has no attribute '" +
                     attr + "'",
                 at);
  }
  case ValueKind::Function:
    if (attr == "__name__" || attr == "__qualname__")
      return heap.str(obj.as<FunctionObj>()->name);
    return heap.opaque("function attribute");
  case ValueKind::Object: {
    switch (obj.getObjKind()) {
    case ObjKind::Class:
      return classAttr(obj, attr, at);
    case ObjKind::Instance:
      return instanceAttr(obj, attr, at);
    case ObjKind::Super:
      return superAttr(obj.as<SuperObj>(), attr, at);
    case ObjKind::Namespace:
    case ObjKind::Exception: {
      if (Value *v = obj.as<NamespaceObj>()->find(attr))
        return *v;
      if (obj.getObjKind() == ObjKind::Exception &&
          (attr == "__name__" || attr == "__qualname__"))
        return heap.str(obj.as<NamespaceObj>()->name);
      if (obj.getObjKind() == ObjKind::Namespace)
        return raise("AttributeError",
                     "'Namespace' object has no attribute '" + attr + "'", at);
      return heap.opaque("attribute");
    }
    case ObjKind::Layout:
      return layoutAttr(obj, attr, at);
    case ObjKind::EnumMember:
      if (attr == "value" || attr == "name")
        return heap.str(obj.as<EnumMemberObj>()->info->getShortName());
      return heap.opaque("attribute");
    default: {
      Value m = findMethod(obj, attr);
      if (!m.isPoison())
        return m;
      return heap.opaque("attribute");
    }
    }
  }
  default:
    return heap.opaque("attribute");
  }
}

/// Normalises a Python index into [0, size); false when out of range.
static bool normalizeIndex(int64_t &i, int64_t size) {
  if (i < 0)
    i += size;
  return i >= 0 && i < size;
}

/// Resolves a slice against a sequence length (Python semantics).
static bool sliceIndices(SliceObj *s, int64_t size, int64_t &start,
                         int64_t &stop, int64_t &stepOut) {
  int64_t step = s->step.isIntLike() ? s->step.getInt() : 1;
  if (step == 0)
    return false;
  auto clamp = [&](Value v, int64_t dflt) {
    if (!v.isIntLike())
      return dflt;
    int64_t i = v.getInt();
    if (i < 0)
      i += size;
    if (step > 0)
      return std::clamp<int64_t>(i, 0, size);
    return std::clamp<int64_t>(i, -1, size - 1);
  };
  start = clamp(s->lower, step > 0 ? 0 : size - 1);
  stop = clamp(s->upper, step > 0 ? size : -1);
  stepOut = step;
  return true;
}

bool tlc::eval::sliceBounds(SliceObj *s, int64_t size, int64_t &start,
                            int64_t &stop, int64_t &step) {
  return sliceIndices(s, size, start, stop, step);
}

bool Interpreter::deleteTarget(Node t) {
  switch (t.kind()) {
  case NodeKind::Name:
    env->vars.erase(t.identifier());
    return true;
  case NodeKind::Tuple:
  case NodeKind::List:
    for (Node e : t.children(Field::elts))
      if (!deleteTarget(e))
        return false;
    return true;
  case NodeKind::Attribute: {
    Value obj = eval(t.child(Field::value));
    if (obj.isException())
      return false;
    llvm::StringRef attr = t.identifier();
    if (obj.isObj(ObjKind::Instance) || obj.isObj(ObjKind::Namespace) ||
        obj.isObj(ObjKind::Class)) {
      auto &attrs = obj.as<NamespaceObj>()->attrs;
      auto it = llvm::find_if(attrs, [&](auto &kv) { return kv.first == attr; });
      if (it != attrs.end()) {
        attrs.erase(it);
      } else if (!obj.isObj(ObjKind::Instance)) {
        raise("AttributeError", attr, t);
        return false;
      }
    }
    return true;
  }
  case NodeKind::Subscript: {
    Value obj = eval(t.child(Field::value));
    if (obj.isException())
      return false;
    Value idx = eval(t.child(Field::slice));
    if (idx.isException())
      return false;
    if (obj.is(ValueKind::Dict)) {
      auto &items = obj.as<DictObj>()->items;
      for (auto *it = items.begin(); it != items.end(); ++it) {
        std::optional<bool> e = equals(it->first, idx);
        if (!e)
          return true; // An unknown key: what goes is unknown.
        if (*e) {
          items.erase(it);
          return true;
        }
      }
      raise("KeyError", toString(idx, true), t);
      return false;
    }
    if (obj.is(ValueKind::List)) {
      auto &elems = obj.as<SeqObj>()->elems;
      int64_t size = elems.size();
      if (idx.isIntLike()) {
        int64_t i = idx.getInt();
        if (!normalizeIndex(i, size)) {
          raise("IndexError", "list assignment index out of range", t);
          return false;
        }
        elems.erase(elems.begin() + i);
        return true;
      }
      int64_t start, stop, step;
      if (!idx.is(ValueKind::Slice) ||
          !sliceIndices(idx.as<SliceObj>(), size, start, stop, step))
        return true;
      llvm::SmallVector<bool, 16> drop(size, false);
      for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
        drop[i] = true;
      llvm::SmallVector<Value, 16> kept;
      for (int64_t i = 0; i < size; ++i)
        if (!drop[i])
          kept.push_back(elems[i]);
      elems.assign(kept.begin(), kept.end());
      return true;
    }
    if (obj.is(ValueKind::Tuple) || obj.isStr()) {
      raise("TypeError",
            "'" + obj.getTypeName() + "' object doesn't support item deletion",
            t);
      return false;
    }
    return true;
  }
  default:
    return true;
  }
}

Value Interpreter::subscript(Value obj, Value idx, Node at) {
  if (obj.isAbrupt())
    return obj;
  if (idx.isAbrupt())
    return idx;
  switch (obj.getKind()) {
  case ValueKind::Tuple:
  case ValueKind::List:
  case ValueKind::Str: {
    int64_t size = obj.isStr() ? int64_t(getStr(obj).size())
                               : int64_t(getElems(obj).size());
    if (idx.is(ValueKind::Slice)) {
      int64_t start, stop, stp;
      if (!sliceIndices(idx.as<SliceObj>(), size, start, stop, stp))
        return raise("ValueError", "slice step cannot be zero", at);
      if (obj.isStr()) {
        std::string s;
        for (int64_t i = start; stp > 0 ? i < stop : i > stop; i += stp)
          s.push_back(getStr(obj)[i]);
        return heap.str(s);
      }
      llvm::SmallVector<Value, 8> elems;
      for (int64_t i = start; stp > 0 ? i < stop : i > stop; i += stp)
        elems.push_back(getElems(obj)[i]);
      return obj.is(ValueKind::Tuple) ? heap.tuple(elems) : heap.list(elems);
    }
    if (idx.is(ValueKind::Sym) || idx.is(ValueKind::Opaque))
      return heap.opaque("element");
    if (!idx.isIntLike())
      return raise("TypeError",
                   obj.getTypeName() + " indices must be integers, not " +
                       idx.getTypeName(),
                   at);
    int64_t i = idx.getInt();
    if (!normalizeIndex(i, size))
      return raise("IndexError", obj.getTypeName() + " index out of range",
                   at);
    if (obj.isStr())
      return heap.str(getStr(obj).substr(i, 1));
    return getElems(obj)[i];
  }
  case ValueKind::Dict: {
    noteEnvironRead(obj, idx);
    bool unknown = false;
    for (auto &kv : obj.as<DictObj>()->items) {
      std::optional<bool> e = equals(kv.first, idx);
      if (e && *e)
        return kv.second;
      unknown |= !e;
    }
    // A key tlc cannot compare (a torch dtype) may be any of them.
    if (unknown)
      return heap.opaque("element");
    return raise("KeyError", toString(idx, true), at);
  }
  case ValueKind::Range: {
    RangeObj *r = obj.as<RangeObj>();
    int64_t len = r->step > 0 ? std::max<int64_t>(0, (r->stop - r->start +
                                                      r->step - 1) / r->step)
                              : std::max<int64_t>(0, (r->start - r->stop -
                                                      r->step - 1) / -r->step);
    if (!idx.isIntLike())
      return heap.opaque("range slice");
    int64_t i = idx.getInt();
    if (!normalizeIndex(i, len))
      return raise("IndexError", "range object index out of range", at);
    return Value::integer(r->start + i * r->step);
  }
  case ValueKind::Buffer:
    return makeRegion(obj.as<BufferObj>(), idx, at);
  case ValueKind::Region: {
    RegionObj *r = obj.as<RegionObj>();
    if (!r->isElement)
      return makeRegion(r->buffer, idx, at);
    return fail(at, "cannot subscript a buffer element");
  }
  case ValueKind::Primitive: {
    // T.Tensor[(M, K), dtype] is T.Tensor((M, K), dtype).
    CallArgs args;
    if (idx.is(ValueKind::Tuple)) {
      for (Value e : getElems(idx)) {
        args.pos.push_back(e);
        args.posNodes.push_back(at);
      }
    } else {
      args.pos.push_back(idx);
      args.posNodes.push_back(at);
    }
    return callPrimitive(*obj.getPrimitive(), args, at);
  }
  case ValueKind::Opaque:
    if (obj.as<OpaqueObj>()->hasShape)
      return tensorItem(obj.as<OpaqueObj>(), idx);
    // An item of a library result keeps its provenance (see Calls.cpp).
    if (llvm::StringRef d = obj.as<OpaqueObj>()->description;
        d.ends_with("(...)") && idx.isStr())
      return heap.opaque(
          heap.copyString((d + "['" + getStr(idx) + "']").str()));
    return heap.opaque("element");
  case ValueKind::Module:
    return heap.opaque("element");
  case ValueKind::Object:
    if (obj.getObjKind() == ObjKind::Class)
      return obj; // typing generics: list[int], Tuple[...] ...
    return heap.opaque("element");
  default:
    return raise("TypeError",
                 "'" + obj.getTypeName() + "' object is not subscriptable",
                 at);
  }
}
