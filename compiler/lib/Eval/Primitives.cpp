//===- Primitives.cpp - T.* argument binding and dispatch -----------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Binds the arguments of T.* calls (PArgs), converts values to dtypes and
// shapes, checks arity against the registry and dispatches each primitive
// to its implementation: meta-level ones (MetaPrimitives.cpp, ScalarMath.cpp),
// kernel ones (KernelOps.cpp). Modules are resolved in ModuleAttrs.cpp.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>

using namespace tlc;
using namespace tlc::eval;
using lang::BuiltinId;

//===----------------------------------------------------------------------===//
// PArgs
//===----------------------------------------------------------------------===//

std::optional<Value> PArgs::get(llvm::StringRef param) const {
  int i = info.findParam(param);
  if (i < 0)
    return std::nullopt;
  const lang::ParamBinding &b = match.bindings[i];
  switch (b.source) {
  case lang::ParamBinding::Source::Positional:
    return args.pos[b.index];
  case lang::ParamBinding::Source::Keyword:
    return args.kw[b.index].second;
  default:
    return std::nullopt;
  }
}

Value PArgs::getOr(llvm::StringRef param, Value dflt) const {
  std::optional<Value> v = get(param);
  return v ? *v : dflt;
}

Node PArgs::node(llvm::StringRef param) const {
  int i = info.findParam(param);
  if (i < 0)
    return call;
  const lang::ParamBinding &b = match.bindings[i];
  if (b.source == lang::ParamBinding::Source::Positional)
    return args.posNodes[b.index];
  if (b.source == lang::ParamBinding::Source::Keyword)
    return args.kwNodes[b.index];
  return call;
}

llvm::ArrayRef<Value> PArgs::rest(llvm::StringRef param) const {
  int i = info.findParam(param);
  for (unsigned k = 0; k < info.params.size(); ++k)
    if (info.params[k].kind == lang::ParamKind::VarPositional) {
      const lang::ParamBinding &b = match.bindings[k];
      if (b.source == lang::ParamBinding::Source::VarPositional)
        return llvm::ArrayRef<Value>(args.pos).drop_front(b.index);
      return {};
    }
  (void)i;
  return {};
}

bool PArgs::flag(llvm::StringRef param, bool dflt) const {
  std::optional<Value> v = get(param);
  if (!v || v->isNone())
    return dflt;
  if (v->isIntLike())
    return v->getInt() != 0;
  return dflt;
}


//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

std::optional<lang::DType> Interpreter::toDType(Value v, Node at) {
  switch (v.getKind()) {
  case ValueKind::DType:
    return v.getDType();
  case ValueKind::Primitive:
    // `T.Tensor([n], T.ptr)`: a table of addresses, stored as int64.
    if (v.getPrimitive()->getCanonical().id == BuiltinId::Ptr)
      return lang::DType(lang::ScalarType::Int64);
    return std::nullopt;
  case ValueKind::Sym:
    // A dtype parameter no call site binds (a default instance). TileLang
    // traces a factory only when it is called, so the instance of one that
    // nothing calls says nothing of a value only a call supplies; one that
    // --kernel asks for says what it assumed (-D gives the value).
    if (at && v.getSym().isSymbol()) {
      if (instance)
        instance->assumedDType = true;
      bool uncalled = tracingDefaults && defaultsSymbolic &&
                      options.kernelFilter.empty();
      if (!uncalled)
        warning(at, "dtype '" + v.getSym().str() +
                        "' has no value in this instance; analysed as "
                        "float32");
      return lang::DType(lang::ScalarType::Float32);
    }
    return std::nullopt;
  case ValueKind::Str:
    return lang::DType::parse(getStr(v));
  case ValueKind::Opaque: {
    llvm::StringRef d = v.as<OpaqueObj>()->description;
    if (d.starts_with("torch."))
      return lang::DType::parseTorch(d);
    if (d.starts_with("numpy.") || d.starts_with("np."))
      return lang::DType::parse(d.split('.').second);
    // A value tlc could not compute (`table[x.dtype]` of a torch tensor's
    // dtype) is not an error of the program: analysed as float32, as a
    // dtype parameter no call binds.
    if (at && !d.contains('.')) {
      std::string text = at.text().str();
      if (text.size() > 40 || text.find('\n') != std::string::npos)
        text = "this dtype";
      else
        text = "dtype '" + text + "'";
      if (instance)
        instance->assumedDType = true;
      warning(at, "tlc cannot evaluate " + text +
                      " (a value from outside TileLang); analysed as float32");
      return lang::DType(lang::ScalarType::Float32);
    }
    return std::nullopt;
  }
  case ValueKind::NativeFn:
    switch (NativeId(v.getNativeId())) {
    case NativeId::Bool:
      return lang::DType::fromPythonType("bool");
    case NativeId::Int:
      return lang::DType::fromPythonType("int");
    case NativeId::Float:
      return lang::DType::fromPythonType("float");
    default:
      return std::nullopt;
    }
  default:
    return std::nullopt;
  }
}

bool Interpreter::toShape(Value v, llvm::SmallVectorImpl<SymExpr> &dims,
                          Node at) {
  llvm::ArrayRef<Value> elems;
  Value single[1] = {v};
  if (v.isSequence())
    elems = getElems(v);
  else
    elems = single;
  for (Value e : elems) {
    if (e.isIntLike()) {
      if (e.getInt() < 0) {
        error(at, "negative extent " + llvm::Twine(e.getInt()) +
                      " in a shape");
        return false;
      }
      dims.push_back(syms.constant(e.getInt()));
    } else if (e.is(ValueKind::Sym)) {
      dims.push_back(e.getSym());
    } else if (e.is(ValueKind::Expr)) {
      dims.push_back(e.as<ExprObj>()->sym);
    } else if (e.isAbrupt() || e.is(ValueKind::Opaque) ||
               (e.is(ValueKind::NativeFn) &&
                NativeId(e.getNativeId()) == NativeId::Int) ||
               (e.isObj(ObjKind::EnumMember) &&
                e.as<EnumMemberObj>()->info->id == BuiltinId::Dyn)) {
      // `int` and `T.dyn` in a generic annotation (`T.Tensor[[int, int],
      // Any]` of a tilelang.lazy_jit function): an extent the argument
      // gives.
      dims.push_back(SymExpr());
    } else if (e.is(ValueKind::BigInt)) {
      llvm::SmallString<32> digits;
      e.as<BigIntObj>()->value.toStringSigned(digits);
      error(at, "extent " + digits + " in a shape does not fit in 64 bits");
      return false;
    } else {
      error(at, "shape entries must be integers, not '" + e.getTypeName() +
                    "'");
      return false;
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

/// Whether \p v can be a decorated function (what tilelang.autotune's first
/// argument is in its current form).
static bool isDecoratable(Value v) {
  return v.is(ValueKind::Function) || v.is(ValueKind::NativeFn) ||
         v.is(ValueKind::Primitive) || v.isObj(ObjKind::JitFunction) ||
         v.isObj(ObjKind::Partial) || v.isObj(ObjKind::PrimFunc);
}

/// TileLang's older decorator, `tilelang.autotune(configs, keys, warmup,
/// rep, timeout)` (configs first; `keys` names the tuned parameters, which
/// the configurations give anyway): \p args rewritten as the current
/// form's call, `configs=` and no `keys`. A TypeError where the positional
/// arguments fit neither form; nullopt otherwise.
static std::optional<Value> legacyAutotune(Interpreter &in, CallArgs &args,
                                           Node at) {
  auto keywordAt = [&](llvm::StringRef name) -> int {
    for (auto [i, kv] : llvm::enumerate(args.kw))
      if (kv.first == name)
        return int(i);
    return -1;
  };
  Value first = args.positional(0, Value::none());
  // A value from outside TileLang is the configs when the rest of the call
  // is the older form's.
  if (!first.isNone() && !isDecoratable(first) && !first.isAbrupt() &&
      (!first.is(ValueKind::Opaque) || args.pos.size() > 1 ||
       keywordAt("keys") >= 0)) {
    static constexpr llvm::StringLiteral names[] = {"configs", "keys", "warmup",
                                                    "rep", "timeout"};
    if (args.pos.size() > std::size(names))
      return in.raiseDefinite(
          "TypeError",
          "autotune() takes from 1 to 5 positional arguments "
          "but " +
              llvm::Twine(args.pos.size()) + " were given",
          at);
    for (auto [i, v] : llvm::enumerate(args.pos)) {
      if (keywordAt(names[i]) >= 0)
        return in.raiseDefinite(
            "TypeError",
            "autotune() got multiple values for argument '" + names[i] + "'",
            at);
      args.kw.push_back({names[i], v});
      args.kwNodes.push_back(i < args.posNodes.size() ? args.posNodes[i] : at);
    }
    args.pos.clear();
    args.posNodes.clear();
  }
  int keys = keywordAt("keys");
  if (keys >= 0) {
    args.kw.erase(args.kw.begin() + keys);
    if (size_t(keys) < args.kwNodes.size())
      args.kwNodes.erase(args.kwNodes.begin() + keys);
  }
  return std::nullopt;
}

Value Interpreter::callPrimitive(const lang::BuiltinInfo &info,
                                 CallArgs &args, Node at) {
  const lang::BuiltinInfo &canon = info.getCanonical();
  if (canon.id == BuiltinId::Autotune)
    if (std::optional<Value> r = legacyAutotune(*this, args, at))
      return *r;
  // Decorators used as plain calls: T.prim_func(f), T.macro(f).
  if (canon.id == BuiltinId::PrimFunc || canon.id == BuiltinId::Macro) {
    // Called with options only (`@T.prim_func(generator=True)`,
    // `@T.macro(hygienic=False)`): the decorator itself, options ignored
    // (they change how TileLang builds the function, not its meaning).
    if (args.pos.empty() && !args.kw.empty())
      return Value::primitive(&info);
    if (args.pos.size() != 1 || !args.pos[0].is(ValueKind::Function))
      return fail(at, info.name + " expects a function");
    return applyDecorator(Value::primitive(&info), args.pos[0], at, Node());
  }
  if (info.dtype)
    return fail(at, "dtype attributes cannot be called this way");
  llvm::SmallVector<llvm::StringRef, 4> kwNames;
  for (auto &kv : args.kw)
    kwNames.push_back(kv.first);
  lang::ArgumentMatch match =
      lang::matchArguments(canon, args.pos.size(), kwNames, info.name);
  if (!match.succeeded()) {
    Node where = at;
    if (match.errorArg.kind == lang::ArgumentRef::Kind::Positional &&
        match.errorArg.index < args.posNodes.size())
      where = args.posNodes[match.errorArg.index];
    else if (match.errorArg.kind == lang::ArgumentRef::Kind::Keyword &&
             match.errorArg.index < args.kwNodes.size())
      where = args.kwNodes[match.errorArg.index];
    return fail(where, match.error);
  }
  if (!canon.isSupported())
    return fail(at, lang::getNotSupportedMessage(info));
  PArgs p{canon, match, args, at};
  if (std::optional<Value> r = callKernelPrimitive(p))
    return *r;
  if (std::optional<Value> r = callIntrinsicPrimitive(p))
    return *r;
  if (std::optional<Value> r = callFramePrimitive(p))
    return *r;
  if (std::optional<Value> r = callBufferPrimitive(p))
    return *r;
  if (std::optional<Value> r = callObjectPrimitive(p))
    return *r;
  return callMetaPrimitive(p);
}
