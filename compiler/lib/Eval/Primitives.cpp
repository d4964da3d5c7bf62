//===- Primitives.cpp - Modules, T.* dispatch, meta and math --------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Resolves modules and their attributes (tilelang through the TLCLang
// registry; math, itertools, functools, argparse natively; torch, numpy and
// anything else opaquely), checks arity of T.* calls against the registry,
// and implements the meta-level and scalar-math primitives. Kernel regions,
// allocations, loops and tile operations are in KernelOps.cpp.
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
// Modules
//===----------------------------------------------------------------------===//

static bool isModelledPythonModule(llvm::StringRef name) {
  return name == "math" || name == "itertools" || name == "functools" ||
         name == "argparse" || name == "types";
}

/// TileLang's per-backend language modules (`tilelang.cpu.language`,
/// `tilelang.rocm.language`, ...) and `tilelang.language.common`: the
/// common tile language plus one backend's names, which tlc models as one
/// `tilelang.language` (T).
static bool isDialectLanguage(llvm::StringRef name) {
  return llvm::is_contained(
      {"tilelang.cuda.language", "tilelang.cpu.language",
       "tilelang.rocm.language", "tilelang.metal.language",
       "tilelang.webgpu.language", "tilelang.language.common"},
      name);
}

bool Interpreter::isTileLangModule(llvm::StringRef name) {
  static const char *const known[] = {
      "tilelang",          "tilelang.language", "tilelang.math",
      "tilelang.layout",   "tilelang.autotuner",
      "tilelang.profiler", "tilelang.carver",   "tilelang.carver.arch",
      "tilelang.intrinsics", "tilelang.utils",  "tilelang.cuda",
      "tilelang.cuda.language", "tilelang.tools", "tilelang.transform",
      "tilelang.engine",   "tilelang.contrib",  "tilelang.env",
      "tilelang.testing",  "tilelang.language.dtypes", "tilelang.cpu",
      "tilelang.rocm",     "tilelang.metal",    "tilelang.webgpu"};
  for (const char *k : known)
    if (name == k)
      return true;
  return isDialectLanguage(name);
}

Value Interpreter::importModule(llvm::StringRef qualified) {
  auto *m = heap.make<ModuleObj>();
  m->name = heap.copyString(qualified);
  if (isDialectLanguage(qualified)) {
    m->name = "tilelang.language";
    LanguageDialect d = qualified == "tilelang.cuda.language"
                            ? LanguageDialect::Cuda
                        : qualified == "tilelang.rocm.language"
                            ? LanguageDialect::Rocm
                            : LanguageDialect::Common;
    m->dialect = uint8_t(d);
  }
  m->opaque = !(isModelledPythonModule(qualified) ||
                qualified == "tilelang" || qualified.starts_with("tilelang."));
  return Value::object(ValueKind::Module, m);
}

Value Interpreter::osEnviron() {
  if (osEnvironDict.isNone()) {
    osEnvironDict = heap.dict();
    for (const auto &[name, value] : options.environ)
      dictPut(osEnvironDict.as<DictObj>(), heap.str(name), heap.str(value));
  }
  return osEnvironDict;
}

void Interpreter::noteEnvironRead(Value dict, Value key) {
  if (!dict.is(ValueKind::Dict) || osEnvironDict.isNone() ||
      dict.as<DictObj>() != osEnvironDict.as<DictObj>())
    return;
  if (!key.isStr()) {
    environReadAll = true;
    return;
  }
  std::string name = getStr(key).str();
  if (!llvm::is_contained(environReads, name))
    environReads.push_back(std::move(name));
}

/// True when the `os.environ` of the Attribute node \p at is read by one
/// variable's name, which noteEnvironRead records: `os.environ.get(...)`,
/// `os.environ[...]` (or assigned to, not augmented) and `... in
/// os.environ`. Any other use may read every variable.
static bool isKeyedEnvironUse(Node at) {
  using syntax::CmpOp;
  using syntax::ExprContext;
  if (at.kind() != NodeKind::Attribute)
    return false;
  Node p = at.parent();
  if (p.kind() == NodeKind::Attribute && p.identifier() == "get")
    return p.parent().kind() == NodeKind::Call && p.field() == Field::func;
  if (p.kind() == NodeKind::Subscript)
    return at.field() == Field::value && p.context() != ExprContext::Del &&
           p.parent().kind() != NodeKind::AugAssign;
  if (p.kind() == NodeKind::Compare && at.field() == Field::comparators) {
    llvm::SmallVector<CmpOp, 2> ops = p.compareOps();
    return ops.size() == 1 && (ops[0] == CmpOp::In || ops[0] == CmpOp::NotIn);
  }
  return false;
}

/// True when \p name looks like a dtype spelling (`float17`, `int3`).
static bool looksLikeDType(llvm::StringRef name) {
  return name.starts_with("float") || name.starts_with("int") ||
         name.starts_with("uint") || name.starts_with("bfloat") ||
         name.starts_with("tfloat");
}

bool Interpreter::isUnknownTName(Value obj, llvm::StringRef attr) {
  if (!obj.is(ValueKind::Module))
    return false;
  ModuleObj *m = obj.as<ModuleObj>();
  if (m->globals || m->opaque || m->name != "tilelang.language")
    return false;
  std::string qualified = (m->name + "." + attr).str();
  return !findNative(qualified) && !lang::lookupBuiltin(("T." + attr).str()) &&
         !looksLikeDType(attr) && attr != "language";
}

Value Interpreter::raiseUnknownTName(llvm::StringRef attr, Node at) {
  std::string message =
      ("module 'tilelang.language' has no attribute '" + attr + "'").str();
  // The closest T.* function or class, if close enough to be a typo.
  unsigned limit = static_cast<unsigned>(attr.size() + 2) / 3 + 1;
  unsigned best = limit + 1;
  llvm::StringRef hint;
  for (const lang::BuiltinInfo *info : lang::getBuiltinMembers("T")) {
    llvm::StringRef name = llvm::StringRef(info->name).drop_front(2);
    unsigned d = attr.edit_distance(name, true, limit);
    if (d <= limit && d < best) {
      best = d;
      hint = name;
    }
  }
  if (!hint.empty())
    message += ("; did you mean 'T." + hint + "'?").str();
  return raise("AttributeError", message, at);
}

Value Interpreter::moduleAttr(ModuleObj *m, llvm::StringRef attr, Node at) {
  if (m->globals) {
    auto it = m->globals->vars.find(attr);
    if (it != m->globals->vars.end())
      return it->second;
    return raise("AttributeError",
                 "module '" + m->name + "' has no attribute '" + attr + "'",
                 at);
  }
  if (m->opaque) {
    if (m->name == "os" && attr == "environ") {
      if (!isKeyedEnvironUse(at))
        environReadAll = true;
      return osEnviron();
    }
    std::string d = (m->name + "." + attr).str();
    // Functions modelled in modules that are otherwise not
    // (`dataclasses.dataclass`).
    if (std::optional<NativeId> id = findNative(d))
      return Value::native(uint32_t(*id));
    // TileLang's quantization helpers under its examples tree.
    if (std::optional<Value> modelled = quantizeAttr(m->name, attr, at))
      return *modelled;
    return heap.opaque(heap.copyString(d));
  }
  std::string qualified = (m->name + "." + attr).str();
  if (m->name == "math") {
    if (attr == "pi")
      return Value::floating(M_PI);
    if (attr == "e")
      return Value::floating(M_E);
    if (attr == "inf")
      return Value::floating(std::numeric_limits<double>::infinity());
    if (attr == "nan")
      return Value::floating(std::numeric_limits<double>::quiet_NaN());
  }
  if (std::optional<NativeId> id = findNative(qualified))
    return Value::native(uint32_t(*id));
  if (m->name == "argparse") {
    // Values scripts pass to the parser: an action is only compared with
    // the `store_true`/`store_false` spellings, formatters only affect
    // --help.
    if (attr == "SUPPRESS")
      return heap.str("==SUPPRESS==");
    if (attr == "BooleanOptionalAction" || attr == "Action" ||
        attr == "HelpFormatter" || attr.ends_with("HelpFormatter") ||
        attr == "Namespace" || attr == "FileType")
      return heap.opaque(heap.copyString(qualified));
  }
  if (isModelledPythonModule(m->name))
    return raise("AttributeError",
                 "module '" + m->name + "' has no attribute '" + attr + "'",
                 at);
  // tilelang.*
  if (std::optional<Value> modelled = intrinsicsAttr(m->name, attr, at))
    return *modelled;
  if (std::optional<Value> modelled = quantizeAttr(m->name, attr, at))
    return *modelled;
  if (isTileLangModule(qualified) && m->name != "tilelang.language")
    return importModule(qualified);
  bool isT = m->name == "tilelang.language";
  std::string lookupName = isT ? ("T." + attr).str() : qualified;
  if (const lang::BuiltinInfo *info = lang::lookupBuiltin(lookupName)) {
    if (info->dtype)
      return Value::dtype(*info->dtype);
    if (info->kind == lang::BuiltinKind::Value && !info->aliasOf) {
      auto *e = heap.make<EnumMemberObj>();
      e->info = info;
      return heap.obj(ObjKind::EnumMember, e);
    }
    return Value::primitive(info, m->dialect);
  }
  if (isT) {
    if (looksLikeDType(attr))
      return fail(at, "unknown dtype 'T." + attr + "'");
    // Reading a name tilelang.language does not have raises Python's
    // AttributeError at the attribute (`f = T.atomic_ad`), as a direct call
    // does: the builtin registry lists TileLang's names.
    return raiseUnknownTName(attr, at);
  }
  if (m->name == "tilelang" && attr == "language")
    return importModule("tilelang.language");
  return heap.opaque(heap.copyString(qualified));
}

Value Interpreter::primitiveAttr(const lang::BuiltinInfo &info,
                                 llvm::StringRef attr, Node at) {
  std::string member = (info.name + "." + attr).str();
  if (const lang::BuiltinInfo *m = lang::lookupBuiltin(member)) {
    // A function reached through its class (`T.Tensor.from_ptr`).
    if (m->kind != lang::BuiltinKind::Value)
      return Value::primitive(m);
    auto *e = heap.make<EnumMemberObj>();
    e->info = m;
    return heap.obj(ObjKind::EnumMember, e);
  }
  if (info.kind == lang::BuiltinKind::Namespace)
    return heap.opaque(heap.copyString(member));
  return heap.opaque("attribute");
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

Value Interpreter::callPrimitive(const lang::BuiltinInfo &info,
                                 CallArgs &args, Node at) {
  const lang::BuiltinInfo &canon = info.getCanonical();
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

//===----------------------------------------------------------------------===//
// Meta-level and math primitives
//===----------------------------------------------------------------------===//

/// Declares T.const / T.dynamic names.
Value Interpreter::declareSymbols(const PArgs &p, int kind) {
  Value names = p.getOr("names", p.getOr("name", Value::none()));
  if (!names.isStr())
    return fail(p.node("names"), p.info.name + " expects a string of names");
  llvm::SmallVector<llvm::StringRef, 4> parts;
  getStr(names).split(parts, ',', -1, false);
  llvm::SmallVector<Value, 4> values;
  for (llvm::StringRef part : parts) {
    llvm::SmallVector<llvm::StringRef, 2> words;
    part.split(words, ' ', -1, false);
    for (llvm::StringRef w : words) {
      w = w.trim();
      if (w.empty())
        continue;
      llvm::StringRef name = heap.copyString(w);
      Value v;
      if (instance) {
        auto it = instance->constBindings.find(name);
        if (it != instance->constBindings.end()) {
          v = it->second;
          if (llvm::any_of(options.defines,
                           [&](const auto &d) { return d.first == name; }))
            usedDefines.insert(name);
        }
      }
      if (v.isNone())
        if (std::optional<Value> d = defineFor(name))
          v = *d;
      if (v.isNone()) {
        symbolKinds[name] = kind;
        v = Value::sym(syms.symbol(name));
      }
      values.push_back(v);
    }
  }
  if (values.size() == 1)
    return values[0];
  return heap.tuple(values);
}

/// A unary math function on an IR value, folding Python numbers.
Value Interpreter::unaryMath(const PArgs &p) {
  Value x = p.getOr("x", Value::poison());
  Node xn = p.node("x");
  BuiltinId id = p.info.id;
  if (x.isAbrupt())
    return x;
  if (x.isNumber()) {
    double d = x.getFloat();
    switch (id) {
    case BuiltinId::Exp:
      return Value::floating(std::exp(d));
    case BuiltinId::Exp2:
      return Value::floating(std::exp2(d));
    case BuiltinId::Log:
      return Value::floating(std::log(d));
    case BuiltinId::Log2:
      return Value::floating(std::log2(d));
    case BuiltinId::Sqrt:
      return Value::floating(std::sqrt(d));
    case BuiltinId::Rsqrt:
      return Value::floating(1.0 / std::sqrt(d));
    case BuiltinId::Abs:
      return x.isFloat() ? Value::floating(std::fabs(d))
                         : Value::integer(std::llabs(x.getInt()));
    default:
      break;
    }
  }
  if (!tracing())
    return fail(p.call, p.info.name + " on IR values needs a kernel");
  Scalar s = toScalar(x, xn);
  if (!s)
    return Value::poison();
  mlir::Location l = ir->loc(p.call);
  auto &B = ir->b;
  mlir::Value v = s.value;
  bool isF = mlir::isa<mlir::FloatType>(v.getType());
  if (id == BuiltinId::Abs) {
    mlir::Value r = isF ? mlir::math::AbsFOp::create(B, l, v).getResult()
                        : mlir::math::AbsIOp::create(B, l, v).getResult();
    return wrapScalar({r, s.dtype, SymExpr()});
  }
  if (!isF) {
    v = ir->convert(v, B.getF32Type(), l);
    s.dtype = lang::DType(lang::ScalarType::Float32);
  }
  mlir::Value r;
  switch (id) {
  case BuiltinId::Exp:
    r = mlir::math::ExpOp::create(B, l, v);
    break;
  case BuiltinId::Exp2:
    r = mlir::math::Exp2Op::create(B, l, v);
    break;
  case BuiltinId::Exp10:
    r = mlir::math::PowFOp::create(B, l, ir->constFloat(10, v.getType(), l),
                                     v);
    break;
  case BuiltinId::Log:
    r = mlir::math::LogOp::create(B, l, v);
    break;
  case BuiltinId::Log2:
    r = mlir::math::Log2Op::create(B, l, v);
    break;
  case BuiltinId::Log10:
    r = mlir::math::Log10Op::create(B, l, v);
    break;
  case BuiltinId::Log1p:
    r = mlir::math::Log1pOp::create(B, l, v);
    break;
  case BuiltinId::Sqrt:
    r = mlir::math::SqrtOp::create(B, l, v);
    break;
  case BuiltinId::Rsqrt:
    r = mlir::math::RsqrtOp::create(B, l, v);
    break;
  case BuiltinId::Sigmoid: {
    mlir::Value one = ir->constFloat(1, v.getType(), l);
    mlir::Value e =
        mlir::math::ExpOp::create(B, l, mlir::arith::NegFOp::create(B, l, v));
    r = mlir::arith::DivFOp::create(B, l, one,
                                      mlir::arith::AddFOp::create(B, l, one, e));
    break;
  }
  case BuiltinId::Tanh:
    r = mlir::math::TanhOp::create(B, l, v);
    break;
  case BuiltinId::Sinh:
    r = mlir::math::SinhOp::create(B, l, v);
    break;
  case BuiltinId::Cosh:
    r = mlir::math::CoshOp::create(B, l, v);
    break;
  case BuiltinId::Sin:
    r = mlir::math::SinOp::create(B, l, v);
    break;
  case BuiltinId::Cos:
    r = mlir::math::CosOp::create(B, l, v);
    break;
  case BuiltinId::Tan:
    r = mlir::math::TanOp::create(B, l, v);
    break;
  case BuiltinId::Atan:
    r = mlir::math::AtanOp::create(B, l, v);
    break;
  case BuiltinId::Erf:
    r = mlir::math::ErfOp::create(B, l, v);
    break;
  case BuiltinId::Floor:
    r = mlir::math::FloorOp::create(B, l, v);
    break;
  case BuiltinId::Ceil:
    r = mlir::math::CeilOp::create(B, l, v);
    break;
  case BuiltinId::Trunc:
    r = mlir::math::TruncOp::create(B, l, v);
    break;
  case BuiltinId::Nearbyint:
    r = mlir::math::RoundEvenOp::create(B, l, v);
    break;
  case BuiltinId::Isfinite:
    return wrapScalar({mlir::math::IsFiniteOp::create(B, l, v),
                       lang::DType(lang::ScalarType::Bool), SymExpr()});
  case BuiltinId::Isnan:
    return wrapScalar({mlir::math::IsNaNOp::create(B, l, v),
                       lang::DType(lang::ScalarType::Bool), SymExpr()});
  case BuiltinId::Isinf:
    return wrapScalar({mlir::math::IsInfOp::create(B, l, v),
                       lang::DType(lang::ScalarType::Bool), SymExpr()});
  default:
    return fail(p.call, p.info.name + " is not implemented by tlc yet");
  }
  return wrapScalar({r, s.dtype, SymExpr()});
}

/// Picks one of two IR values: arith.select after unifying types.
Value Interpreter::selectValue(Value c, Value t, Value f, Node at) {
  if (c.isAbrupt())
    return c;
  Truth truthC = truth(c, at);
  if (truthC == Truth::True)
    return t;
  if (truthC == Truth::False)
    return f;
  // Outside any kernel (TVM IR a script builds with `tirx.Select`, say)
  // TileLang only makes the expression node, and tlc builds no IR there:
  // a value it does not model, not an error.
  if (!tracing())
    return heap.opaque("T.Select of IR values");
  Scalar cs = toScalar(c, at);
  if (!cs)
    return Value::poison();
  mlir::Location l = ir->loc(at);
  bool tIR = !t.isNumber() && !t.is(ValueKind::Sym);
  Scalar a, b;
  if (tIR) {
    a = toScalar(t, at);
    if (!a)
      return Value::poison();
    b = toScalar(f, at, mlir::getElementTypeOrSelf(a.value.getType()));
  } else {
    b = toScalar(f, at);
    if (!b)
      return Value::poison();
    a = toScalar(t, at, mlir::getElementTypeOrSelf(b.value.getType()));
  }
  if (!a || !b)
    return Value::poison();
  // Vectors select lane by lane; a scalar value or condition is in every
  // lane.
  if (!matchLanes(*ir, a, b, l) || !matchLanes(*ir, cs, a, l) ||
      !matchLanes(*ir, cs, b, l))
    return fail(at, "select between " + a.dtype.getName() + " and " +
                        b.dtype.getName() + " values on a " +
                        cs.dtype.getName() +
                        " condition (vectors of different lane counts)");
  if (a.value.getType() != b.value.getType())
    b.value = ir->convert(b.value, a.value.getType(), l);
  mlir::Type boolType = ir->b.getI1Type();
  if (auto vt = mlir::dyn_cast<mlir::VectorType>(a.value.getType()))
    boolType = mlir::VectorType::get(vt.getShape(), boolType);
  mlir::Value pred = ir->convert(cs.value, boolType, l);
  mlir::Value r = mlir::arith::SelectOp::create(ir->b, l, pred, a.value, b.value);
  return wrapScalar({r, a.dtype, SymExpr()});
}

/// min/max of two values: folds Python numbers and symbols.
Value Interpreter::minMax(Value a, Value b, bool isMax, Node at) {
  if (a.isAbrupt())
    return a;
  if (b.isAbrupt())
    return b;
  if (a.isNumber() && b.isNumber()) {
    if (a.isFloat() || b.isFloat()) {
      double x = a.getFloat(), y = b.getFloat();
      return Value::floating(isMax ? std::max(x, y) : std::min(x, y));
    }
    return Value::integer(isMax ? std::max(a.getInt(), b.getInt())
                                : std::min(a.getInt(), b.getInt()));
  }
  if ((a.isIntLike() || a.is(ValueKind::Sym)) &&
      (b.isIntLike() || b.is(ValueKind::Sym)))
    return fromSym(isMax ? syms.max(toSym(a), toSym(b))
                         : syms.min(toSym(a), toSym(b)),
                   at);
  if (!tracing())
    return heap.opaque("min/max");
  mlir::Location l = ir->loc(at);
  bool aIR = !a.isNumber() && !a.is(ValueKind::Sym);
  Scalar x, y;
  if (aIR) {
    x = toScalar(a, at);
    if (!x)
      return Value::poison();
    y = toScalar(b, at, mlir::getElementTypeOrSelf(x.value.getType()));
  } else {
    y = toScalar(b, at);
    if (!y)
      return Value::poison();
    x = toScalar(a, at, mlir::getElementTypeOrSelf(y.value.getType()));
  }
  if (!x || !y)
    return Value::poison();
  // Vectors: lane by lane, a scalar in every lane.
  if (!matchLanes(*ir, x, y, l))
    return fail(at, std::string(isMax ? "T.max" : "T.min") + " of " +
                        x.dtype.getName() + " and " + y.dtype.getName() +
                        " values (vectors of different lane counts)");
  if (x.value.getType() != y.value.getType()) {
    if (mlir::isa<mlir::FloatType>(
            mlir::getElementTypeOrSelf(y.value.getType())))
      x.value = ir->convert(x.value, y.value.getType(), l);
    else
      y.value = ir->convert(y.value, x.value.getType(), l);
  }
  auto &B = ir->b;
  mlir::Value r;
  // The operands now share a type: the float one when either is float,
  // else x's; an integer comparison is unsigned when either dtype of that
  // width is (TVM's promotion of uint with int keeps the uint).
  bool isFloat = mlir::isa<mlir::FloatType>(
      mlir::getElementTypeOrSelf(x.value.getType()));
  lang::DType dtype = isFloat && !x.dtype.isFloat() ? y.dtype : x.dtype;
  if (!isFloat && !x.dtype.isUnsignedInteger() &&
      y.dtype.isUnsignedInteger() && y.dtype.getBits() == x.dtype.getBits())
    dtype = y.dtype;
  if (isFloat)
    r = isMax ? mlir::arith::MaximumFOp::create(B, l, x.value, y.value)
                    .getResult()
              : mlir::arith::MinimumFOp::create(B, l, x.value, y.value)
                    .getResult();
  else if (dtype.isUnsignedInteger())
    r = isMax ? mlir::arith::MaxUIOp::create(B, l, x.value, y.value).getResult()
              : mlir::arith::MinUIOp::create(B, l, x.value, y.value).getResult();
  else
    r = isMax ? mlir::arith::MaxSIOp::create(B, l, x.value, y.value).getResult()
              : mlir::arith::MinSIOp::create(B, l, x.value, y.value).getResult();
  SymExpr sym;
  if (x.sym && y.sym && !dtype.isUnsignedInteger())
    sym = isMax ? syms.max(x.sym, y.sym) : syms.min(x.sym, y.sym);
  return wrapScalar({r, dtype, sym});
}

/// `T.truncmod(a, b)`: the remainder with the sign of \p a (C's `%`), where
/// Python's `%` on IR values is floormod.
Value Interpreter::truncMod(Value a, Value b, Node at) {
  if (a.isAbrupt())
    return a;
  if (b.isAbrupt())
    return b;
  if (a.isIntLike() && b.isIntLike()) {
    if (b.getInt() == 0)
      return raise("ZeroDivisionError", "integer modulo by zero", at);
    return Value::integer(a.getInt() % b.getInt());
  }
  if (!tracing())
    return binary(syntax::BinaryOp::Mod, a, b, at);
  Scalar x = toScalar(a, at);
  if (!x)
    return Value::poison();
  Scalar y = toScalar(b, at, x.value.getType());
  if (!y)
    return Value::poison();
  if (x.value.getType() != y.value.getType() ||
      !x.value.getType().isIntOrIndex())
    return binary(syntax::BinaryOp::Mod, a, b, at);
  mlir::Location l = ir->loc(at);
  mlir::Value r =
      x.dtype.isUnsignedInteger()
          ? mlir::arith::RemUIOp::create(ir->b, l, x.value, y.value).getResult()
          : mlir::arith::RemSIOp::create(ir->b, l, x.value, y.value)
                .getResult();
  return wrapScalar({r, x.dtype, SymExpr()});
}

/// Integer division helpers on Python ints, symbols and IR values.
Value Interpreter::intDiv(Value a, Value b, SymKind kind, Node at) {
  if ((a.isIntLike() || a.is(ValueKind::Sym)) &&
      (b.isIntLike() || b.is(ValueKind::Sym))) {
    SymExpr x = toSym(a), y = toSym(b);
    if (y.isConstant() && *y.getConstant() == 0)
      return raise("ZeroDivisionError", "integer division by zero", at);
    switch (kind) {
    case SymKind::CeilDiv:
      return fromSym(syms.ceilDiv(x, y), at);
    case SymKind::Mod:
      return fromSym(syms.mod(x, y), at);
    default:
      return fromSym(syms.floorDiv(x, y), at);
    }
  }
  if (kind == SymKind::FloorDiv)
    return binary(syntax::BinaryOp::FloorDiv, a, b, at);
  if (kind == SymKind::Mod)
    return binary(syntax::BinaryOp::Mod, a, b, at);
  // ceildiv(a, b) == (a + b - 1) // b on IR values.
  Value sum = binary(syntax::BinaryOp::Add, a, b, at);
  Value m1 = binary(syntax::BinaryOp::Sub, sum, Value::integer(1), at);
  return binary(syntax::BinaryOp::FloorDiv, m1, b, at);
}

llvm::SmallVector<Value, 4> Interpreter::unflatten(Value linear,
                                                   llvm::ArrayRef<Value> dims,
                                                   Node at) {
  llvm::SmallVector<Value, 4> coords(dims.size());
  Value rest = linear;
  for (size_t d = dims.size(); d-- > 0;) {
    coords[d] = d == 0 ? rest : intDiv(rest, dims[d], SymKind::Mod, at);
    if (d != 0)
      rest = intDiv(rest, dims[d], SymKind::FloorDiv, at);
  }
  return coords;
}

/// Converts \p v to \p dtype (T.cast).
Value Interpreter::castTo(Value v, lang::DType dtype, Node at) {
  if (v.isAbrupt())
    return v;
  if (v.isNumber() && !tracing())
    return dtype.isFloat() ? Value::floating(v.getFloat())
                           : Value::integer(int64_t(v.getFloat()));
  if (!tracing())
    return heap.opaque("cast");
  mlir::Type want = ir->valueType(dtype);
  mlir::Type f32 = ir->b.getF32Type();
  // Unpacked 4/6-bit float codes convert through float32 (decoded from
  // and encoded into the byte's low bits, UnpackedFloats.cpp).
  mlir::Type hint =
      dtype.isUnpackedFloat() ? f32 : mlir::getElementTypeOrSelf(want);
  Scalar s = toScalar(v, at, hint);
  if (!s)
    return Value::poison();
  if (s.dtype == dtype && dtype.isUnpackedFloat())
    return wrapScalar(s);
  if ((s.dtype.isUnpackedFloat() || dtype.isUnpackedFloat()) &&
      (s.dtype.isVector() || dtype.isVector()))
    return fail(at, "cannot cast " + s.dtype.getName() + " to " +
                        dtype.getName() +
                        " (unpacked float codes are scalars)");
  if (s.dtype.isUnpackedFloat()) {
    s.value = decodeUnpackedFloat(*ir, s.value, s.dtype, ir->loc(at));
    s.dtype = lang::DType(lang::ScalarType::Float32);
    s.sym = SymExpr();
  }
  if (dtype.isUnpackedFloat()) {
    mlir::Value x = ir->convert(s.value, f32, ir->loc(at),
                                s.dtype.isUnsignedInteger());
    return wrapScalar(
        {encodeUnpackedFloat(*ir, x, dtype, ir->loc(at)), dtype, SymExpr()});
  }
  // Vectors convert lane by lane; a scalar cast to a vector type is in
  // every lane (TVM's cast); other lane counts do not convert.
  auto vt = mlir::dyn_cast<mlir::VectorType>(want);
  auto from = mlir::dyn_cast<mlir::VectorType>(s.value.getType());
  if (from && (!vt || vt.getNumElements() != from.getNumElements()))
    return fail(at, "cannot cast " + s.dtype.getName() + " to " +
                        dtype.getName() + " (a different number of lanes)");
  if (vt && !from) {
    mlir::Type elem = vt.getElementType();
    mlir::Value x = ir->convert(s.value, elem, ir->loc(at),
                                s.dtype.isUnsignedInteger());
    auto op = tile::IntrinsicOp::create(
        ir->b, ir->loc(at), mlir::TypeRange{want},
        ir->b.getStringAttr("T.Broadcast"), mlir::ValueRange{x},
        ir->b.getStrArrayAttr({"value"}), mlir::DictionaryAttr());
    return wrapScalar({op->getResult(0), dtype, SymExpr()});
  }
  mlir::Value r = ir->convert(s.value, want, ir->loc(at),
                              s.dtype.isUnsignedInteger());
  return wrapScalar({r, dtype, from ? SymExpr() : s.sym});
}

Value Interpreter::callMetaPrimitive(const PArgs &p) {
  Node at = p.call;
  switch (p.info.id) {
  case BuiltinId::Const:
    return declareSymbols(p, /*Const=*/1);
  case BuiltinId::Dynamic:
    return declareSymbols(p, /*Dynamic=*/0);
  case BuiltinId::DTypeCtor: {
    Value v = p.getOr("value", Value::none());
    if (std::optional<lang::DType> t = toDType(v))
      return Value::dtype(*t);
    if (v.is(ValueKind::Opaque) || v.isAbrupt())
      return v;
    return fail(p.node("value"), "unknown dtype " + toString(v, true));
  }
  case BuiltinId::AnnotatePassConfigs:
    if (instance)
      readPassConfigs(p.getOr("configs", Value::none()), instance->annotated);
    return Value::none();
  case BuiltinId::FuncAttr: {
    Value attrs = p.getOr("attrs", Value::none());
    if (attrs.is(ValueKind::Opaque) || attrs.isAbrupt())
      return attrs.isAbrupt() ? attrs : Value::none();
    if (!attrs.is(ValueKind::Dict))
      return fail(p.node("attrs"), "T.func_attr expects a dict of attributes, "
                                   "got " + toString(attrs, true));
    for (auto &kv : attrs.as<DictObj>()->items)
      if (!kv.first.is(ValueKind::Str))
        return fail(p.node("attrs"), "T.func_attr: attribute names are "
                                     "strings, got " +
                                         toString(kv.first, true));
    return Value::none();
  }
  case BuiltinId::AnnotateCompileFlags:
    if (instance)
      readCompileFlags(p.getOr("flags", Value::none()), instance->annotated);
    return Value::none();
  case BuiltinId::ImportSource:
    return importSource(p.getOr("source", Value::none()), p.node("source"));
  case BuiltinId::BuildPrimFunc:
    return buildPrimFunc(p);
  case BuiltinId::DisableCache:
    return Value::none();
  case BuiltinId::Layout:
  case BuiltinId::Fragment:
    return makeLayoutObject(p);
  case BuiltinId::MakeSwizzledLayout:
  case BuiltinId::MakeLinearLayout: {
    auto *o = heap.make<LayoutObj>();
    o->description = p.info.getShortName();
    return heap.obj(ObjKind::Layout, o);
  }
  case BuiltinId::Jit:
  case BuiltinId::Autotune: {
    std::optional<Value> fn = p.get("func");
    if (!fn || fn->isNone()) {
      // @tilelang.jit(out_idx=...) returns a decorator.
      auto *part = heap.make<PartialObj>();
      part->fn = Value::primitive(&p.info);
      for (auto &kv : p.args.kw)
        part->kwargs.push_back(kv);
      return heap.obj(ObjKind::Partial, part);
    }
    return applyDecoratorValue(p, *fn);
  }
  case BuiltinId::Compile: {
    Value fn = p.getOr("func", Value::none());
    std::string tgt = fileTarget(p.getOr("target", Value::none()));
    // Its pass_configs and compile_flags win over the function's own.
    BuildConfigs build;
    readPassConfigs(p.getOr("pass_configs", Value::none()), build);
    readCompileFlags(p.getOr("compile_flags", Value::none()), build);
    if (fn.isObj(ObjKind::JitFunction)) {
      CallArgs none;
      JitFunctionObj *jit = fn.as<JitFunctionObj>();
      std::string saved = jit->target;
      BuildConfigs savedBuild = jit->build;
      if (!tgt.empty())
        jit->target = tgt;
      jit->build.merge(build);
      Value r = callJit(jit, none, at, true);
      jit->target = saved;
      jit->build = std::move(savedBuild);
      return r;
    }
    if (fn.isObj(ObjKind::PrimFunc) && !build.empty()) {
      int idx = fn.as<PrimFuncObj>()->instance;
      if (idx >= 0 && size_t(idx) < instances.size() && instances[idx]->func) {
        instances[idx]->external.merge(build);
        applyBuildConfigs(*instances[idx]);
      }
    }
    // An already traced prim_func: its layouts are inferred for the
    // target it is compiled for.
    if (fn.isObj(ObjKind::PrimFunc) && !tgt.empty() &&
        !options.targetExplicit) {
      int idx = fn.as<PrimFuncObj>()->instance;
      if (idx >= 0 && size_t(idx) < instances.size() && instances[idx]->func)
        instances[idx]->func->setAttr(
            "tile.target", mlir::StringAttr::get(&mlirContext, tgt));
    }
    Value kernel = compiledKernel(fn, p.getOr("out_idx", Value::none()), "");
    Value backend = p.getOr("execution_backend", Value::none());
    if (backend.isStr() && getStr(backend) != "tvm_ffi" &&
        getStr(backend) != "auto" && kernel.is(ValueKind::Opaque))
      nonFfiKernels.insert(kernel.getObj());
    return kernel;
  }
  case BuiltinId::ParCompile:
  case BuiltinId::DoBench:
    return heap.opaque("tilelang result");
  case BuiltinId::Cdiv:
  case BuiltinId::Ceildiv:
    return intDiv(p.getOr("a", Value::poison()), p.getOr("b", Value::poison()),
                  SymKind::CeilDiv, at);
  case BuiltinId::Floordiv:
    return intDiv(p.getOr("a", Value::poison()), p.getOr("b", Value::poison()),
                  SymKind::FloorDiv, at);
  case BuiltinId::Floormod:
    return intDiv(p.getOr("a", Value::poison()), p.getOr("b", Value::poison()),
                  SymKind::Mod, at);
  case BuiltinId::Truncdiv:
    return binary(syntax::BinaryOp::Div, p.getOr("a", Value::poison()),
                  p.getOr("b", Value::poison()), at);
  case BuiltinId::Truncmod:
    return truncMod(p.getOr("a", Value::poison()),
                    p.getOr("b", Value::poison()), at);
  case BuiltinId::NextPowerOf2: {
    Value x = p.getOr("x", Value::poison());
    if (!x.isIntLike())
      return x.is(ValueKind::Sym) ? heap.opaque("next_power_of_2") : x;
    int64_t v = x.getInt(), r = 1;
    while (r < v && r < (int64_t(1) << 62))
      r <<= 1;
    return Value::integer(r);
  }
  case BuiltinId::ShiftLeft:
    return binary(syntax::BinaryOp::LShift, p.getOr("a", Value::poison()),
                  p.getOr("b", Value::poison()), at);
  case BuiltinId::ShiftRight:
    return binary(syntax::BinaryOp::RShift, p.getOr("a", Value::poison()),
                  p.getOr("b", Value::poison()), at);
  case BuiltinId::BitwiseAnd:
    return binary(syntax::BinaryOp::BitAnd, p.getOr("a", Value::poison()),
                  p.getOr("b", Value::poison()), at);
  case BuiltinId::BitwiseOr:
    return binary(syntax::BinaryOp::BitOr, p.getOr("a", Value::poison()),
                  p.getOr("b", Value::poison()), at);
  case BuiltinId::BitwiseXor:
    return binary(syntax::BinaryOp::BitXor, p.getOr("a", Value::poison()),
                  p.getOr("b", Value::poison()), at);
  case BuiltinId::BitwiseNot:
    return unary(syntax::UnaryOp::Invert, p.getOr("a", Value::poison()), at);
  case BuiltinId::Not:
    return unary(syntax::UnaryOp::Not, p.getOr("a", Value::poison()), at);
  case BuiltinId::Clz:
  case BuiltinId::Popcount: {
    // Bit counts of an integer in its own width, as int32 (TileLang's
    // tl.clz / popcount).
    Value x = p.getOr("x", Value::poison());
    if (x.isAbrupt())
      return x;
    if (!tracing())
      return fail(at, p.info.name + " on IR values needs a kernel");
    Scalar s = toScalar(x, p.node("x"));
    if (!s)
      return Value::poison();
    if (!mlir::isa<mlir::IntegerType>(s.value.getType()) ||
        s.value.getType().isInteger(1))
      return raise("TypeError",
                   p.info.name + " expects an integer, got " +
                       s.dtype.getName(),
                   p.node("x"));
    mlir::Location l = ir->loc(at);
    mlir::Value r =
        p.info.id == BuiltinId::Clz
            ? mlir::math::CountLeadingZerosOp::create(ir->b, l, s.value)
                  .getResult()
            : mlir::math::CtPopOp::create(ir->b, l, s.value).getResult();
    lang::DType i32(lang::ScalarType::Int32);
    return wrapScalar({ir->convert(r, ir->b.getI32Type(), l), i32, SymExpr()});
  }
  case BuiltinId::Max:
  case BuiltinId::Min:
    return minMax(p.getOr("a", Value::poison()), p.getOr("b", Value::poison()),
                  p.info.id == BuiltinId::Max, at);
  case BuiltinId::Clamp: {
    Value lo = minMax(p.getOr("x", Value::poison()),
                      p.getOr("min_val", Value::poison()), true, at);
    return minMax(lo, p.getOr("max_val", Value::poison()), false, at);
  }
  case BuiltinId::IfThenElse:
    return selectValue(p.getOr("cond", Value::poison()),
                       p.getOr("t", Value::poison()),
                       p.getOr("f", Value::poison()), at);
  case BuiltinId::Select:
    return selectValue(p.getOr("condition", Value::poison()),
                       p.getOr("true_value", Value::poison()),
                       p.getOr("false_value", Value::poison()), at);
  case BuiltinId::Cast:
  case BuiltinId::CastNode:
  case BuiltinId::Reinterpret: {
    Value dt = p.getOr("dtype", Value::poison());
    Value v = p.getOr("value", Value::poison());
    // T.cast's rounding hints, checked as TileLang checks them. tlc's
    // conversions round to nearest (TileLang lowers only "rs" differently).
    if (p.info.id == BuiltinId::Cast) {
      Value round = p.getOr("round", Value::none());
      Value sat = p.getOr("sat", Value::boolean(true));
      Value rbits = p.getOr("rbits", Value::none());
      static const char *const modes[] = {"", "rn", "rz", "rp", "rm", "rs"};
      bool known = round.isNone();
      if (round.isStr())
        known = llvm::is_contained(modes, getStr(round));
      if (!known)
        return fail(p.node("round"),
                    "Invalid round " + toString(round, true) +
                        " for T.cast: one of '', 'rn', 'rz', 'rp', 'rm', 'rs'");
      if (!sat.isBool() && !sat.isAbrupt())
        return fail(p.node("sat"), "Invalid sat " + toString(sat, true) +
                                       " for T.cast: a bool");
      bool rs = round.isStr() && getStr(round) == "rs";
      if (rs && rbits.isNone())
        return fail(p.node("round"), "rbits is required when round='rs' "
                                     "(stochastic rounding)");
      if (!rs && !rbits.isNone())
        return fail(p.node("rbits"),
                    "rbits is only valid with round='rs' (stochastic "
                    "rounding)");
      if (rs) {
        std::optional<lang::DType> t = toDType(dt, p.node("dtype"));
        if (!t)
          return dt.isAbrupt() ? dt
                               : fail(p.node("dtype"),
                                      "unknown dtype " + toString(dt, true));
        return castStochastic(v, *t, rbits, p);
      }
    }
    // T.reinterpret accepts the old (dtype, value) order too.
    if (p.info.id == BuiltinId::Reinterpret && toDType(v) && !toDType(dt))
      std::swap(v, dt);
    std::optional<lang::DType> t = toDType(dt, p.node("dtype"));
    if (!t) {
      if (dt.isAbrupt())
        return dt;
      return fail(p.node("dtype"), "unknown dtype " + toString(dt, true));
    }
    if (p.info.id == BuiltinId::Reinterpret && tracing()) {
      mlir::Type want = ir->valueType(*t);
      // A Python int (`T.uint8(0)` is one) is an integer of the target's
      // width.
      mlir::Type hint;
      if (v.isIntLike() && want.isIntOrFloat())
        hint = ir->b.getIntegerType(want.getIntOrFloatBitWidth());
      Scalar s = toScalar(v, p.node("value"), hint);
      if (!s)
        return Value::poison();
      // A handle is an address: an integer reinterpreted as one keeps its
      // value (`T.reinterpret(T.uint64(0), dtype="handle")`).
      if (t->getScalarType() == lang::ScalarType::Handle &&
          mlir::isa<mlir::IntegerType>(s.value.getType()))
        return wrapScalar({ir->convert(s.value, want, ir->loc(at),
                                       s.dtype.isUnsignedInteger()),
                           *t, SymExpr()});
      auto bits = [](mlir::Type ty) -> int64_t {
        if (auto vec = mlir::dyn_cast<mlir::VectorType>(ty))
          return vec.getNumElements() *
                 int64_t(vec.getElementType().getIntOrFloatBitWidth());
        return ty.isIntOrFloat() ? int64_t(ty.getIntOrFloatBitWidth()) : -1;
      };
      if (bits(s.value.getType()) != bits(want) || bits(want) < 0)
        return fail(at, "T.reinterpret needs types of the same width");
      // Bytes reinterpreted as bytes (uint8 <-> float4_e2m1_unpacked, whose
      // values are all i8) keep their value.
      if (s.value.getType() == want)
        return wrapScalar({s.value, *t, SymExpr()});
      auto lanes = [](mlir::Type ty) -> int64_t {
        auto vec = mlir::dyn_cast<mlir::VectorType>(ty);
        return vec ? vec.getNumElements() : 0;
      };
      // arith.bitcast keeps the lane count; other reinterpretations
      // (uint32 -> float16x2) are one T.reinterpret intrinsic.
      if (lanes(s.value.getType()) != lanes(want)) {
        auto op = tile::IntrinsicOp::create(
            ir->b, ir->loc(at), mlir::TypeRange{want},
            ir->b.getStringAttr("T.reinterpret"), mlir::ValueRange{s.value},
            ir->b.getStrArrayAttr({"value"}), mlir::DictionaryAttr());
        return wrapScalar({op->getResult(0), *t, SymExpr()});
      }
      return wrapScalar({mlir::arith::BitcastOp::create(ir->b, ir->loc(at),
                                                              want, s.value),
                         *t, SymExpr()});
    }
    return castTo(v, *t, at);
  }
  case BuiltinId::Infinity:
  case BuiltinId::MaxValue:
  case BuiltinId::MinValue: {
    Value dt = p.getOr("dtype", Value::poison());
    std::optional<lang::DType> t = toDType(dt, p.node("dtype"));
    if (!t) {
      if (dt.isAbrupt())
        return dt;
      return fail(p.node("dtype"), "unknown dtype " + toString(dt, true));
    }
    mlir::Type vt = ir->valueType(*t);
    mlir::Location l = ir->loc(at);
    if (auto ft = mlir::dyn_cast<mlir::FloatType>(vt)) {
      llvm::APFloat f =
          p.info.id == BuiltinId::Infinity
              ? llvm::APFloat::getInf(ft.getFloatSemantics())
              : llvm::APFloat::getLargest(ft.getFloatSemantics(),
                                          p.info.id == BuiltinId::MinValue);
      // At trace time outside a kernel: the number itself.
      if (!tracing())
        return Value::floating(f.convertToDouble());
      mlir::Value c = mlir::arith::ConstantOp::create(ir->b, 
          l, ft, ir->b.getFloatAttr(ft, f));
      return wrapScalar({c, *t, SymExpr()});
    }
    if (p.info.id == BuiltinId::Infinity)
      return fail(at, "T.infinity needs a floating-point dtype");
    unsigned bits = vt.getIntOrFloatBitWidth();
    bool u = t->isUnsignedInteger();
    llvm::APInt v = p.info.id == BuiltinId::MaxValue
                        ? (u ? llvm::APInt::getMaxValue(bits)
                             : llvm::APInt::getSignedMaxValue(bits))
                        : (u ? llvm::APInt::getMinValue(bits)
                             : llvm::APInt::getSignedMinValue(bits));
    if (!tracing())
      return bits <= 63 || !u ? Value::integer(u ? int64_t(v.getZExtValue())
                                                 : v.getSExtValue())
                              : heap.opaque("typed constant");
    mlir::Value c = mlir::arith::ConstantOp::create(ir->b, 
        l, vt, ir->b.getIntegerAttr(vt, v));
    return wrapScalar({c, *t, SymExpr()});
  }
  case BuiltinId::Round:
  case BuiltinId::Pow:
  case BuiltinId::Fmod: {
    if (p.info.id == BuiltinId::Pow)
      return binary(syntax::BinaryOp::Pow, p.getOr("x", Value::poison()),
                    p.getOr("y", Value::poison()), at);
    if (p.info.id == BuiltinId::Fmod) {
      Value x = p.getOr("x", Value::poison()), y = p.getOr("y", Value::poison());
      if (x.isNumber() && y.isNumber())
        return Value::floating(std::fmod(x.getFloat(), y.getFloat()));
      return binary(syntax::BinaryOp::Mod, x, y, at);
    }
    Value x = p.getOr("x", Value::poison());
    if (x.isNumber())
      return Value::floating(std::nearbyint(x.getFloat()));
    if (!tracing())
      return heap.opaque("round");
    Scalar s = toScalar(x, p.node("x"));
    if (!s)
      return Value::poison();
    return wrapScalar(
        {mlir::math::RoundEvenOp::create(ir->b, ir->loc(at), s.value), s.dtype,
         SymExpr()});
  }
  case BuiltinId::Assume: {
    // A promise about IR values inside a kernel becomes tile.assume (the
    // bounds pass and the printers read it); one the trace decides, or one
    // outside a kernel, is no code.
    Value c = p.getOr("cond", Value::none());
    Truth t = truth(c, p.node("cond"));
    if (t == Truth::Abrupt)
      return c;
    if (t != Truth::IR || !kernel || !tracing())
      return Value::none();
    Scalar s = toScalar(c, p.node("cond"));
    if (!s)
      return Value::poison();
    tile::AssumeOp::create(
        ir->b, ir->loc(at),
        ir->convert(s.value, ir->b.getI1Type(), ir->loc(at)));
    return Value::none();
  }
  case BuiltinId::Likely:
    return p.getOr("cond", Value::none());
  case BuiltinId::Ldg: {
    // T.__ldg(x[i]) is the load x[i]; T.__ldg(buf, i) loads element i of a
    // 1-D buffer (TileLang's flat index, one index or a one-index list).
    Value v = p.getOr("load_or_buf", Value::poison());
    Value idx = p.getOr("index", Value::none());
    if (v.isAbrupt())
      return v;
    if (idx.isAbrupt())
      return idx;
    if (v.is(ValueKind::Region) && v.as<RegionObj>()->isElement) {
      if (!idx.isNone())
        return fail(p.node("index"), "T.__ldg takes an index only with a "
                                     "buffer; x[i] is already one element");
      return v;
    }
    if (!v.is(ValueKind::Buffer))
      return fail(p.node("load_or_buf"),
                  "T.__ldg expects an element load (x[i]) or a buffer, not " +
                      v.getTypeName());
    if (idx.isNone())
      return fail(at, "T.__ldg(buffer, index) needs an index when given a "
                      "buffer");
    if (idx.is(ValueKind::Tuple) || idx.is(ValueKind::List)) {
      if (getElems(idx).size() != 1)
        return fail(p.node("index"), "T.__ldg takes one flat index, got " +
                                         std::to_string(getElems(idx).size()));
      idx = getElems(idx)[0];
    }
    if (v.as<BufferObj>()->shape.size() != 1)
      return fail(p.node("load_or_buf"),
                  "T.__ldg(buffer, index) takes a 1-D buffer; index an "
                  "element instead (T.__ldg(x[i, j]))");
    return subscript(v, idx, p.node("index"));
  }
  default:
    if (p.info.category == lang::BuiltinCategory::Math &&
        p.info.findParam("x") == 0 && p.info.params.size() == 1)
      return unaryMath(p);
    if (p.info.kind == lang::BuiltinKind::Namespace ||
        p.info.kind == lang::BuiltinKind::Value)
      return fail(at, "'" + p.info.name + "' is not callable");
    return fail(at, "'" + p.info.name + "' is not implemented by tlc yet");
  }
}
