//===- Instances.cpp - Kernel instances: jit, prim_func, -D, defaults -----===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A kernel instance is a function plus bound meta parameters. Instances come
// from running the module (call sites such as `matmul(1024, 1024, 1024)`,
// `matmul.compile(M=...)`, `tilelang.compile(func)`, calls in main() fed by
// argparse defaults), from -D bindings, and, for kernels nothing called,
// from defaults with unbound parameters kept as symbols.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

#include "tlc/Dialect/Tile/IR/PassConfigs.h"
#include "tlc/Syntax/StringLiteral.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>

using namespace tlc;
using namespace tlc::eval;

namespace tlc::eval {
/// True when the body of \p owner reads \p name only inside `with
/// pytest.raises` blocks, at least once (Interpreter.cpp).
bool usedOnlyWhereExpectedToFail(syntax::Node owner, llvm::StringRef name,
                                 unsigned bindings = 0);
/// True when \p name is read only as a parametrize value of a test that
/// uses it only inside `with pytest.raises` blocks (Interpreter.cpp).
bool passedOnlyWhereExpectedToFail(syntax::Node module, llvm::StringRef name);
} // namespace tlc::eval
using lang::BuiltinId;

//===----------------------------------------------------------------------===//
// -D bindings and labels
//===----------------------------------------------------------------------===//

/// Splits the inside of a `(...)` / `[...]` -D value at its top-level commas
/// (commas inside nested brackets or quotes belong to an element). A
/// trailing comma, as in `(4,)`, adds no element.
static llvm::SmallVector<llvm::StringRef, 4>
splitDefineElements(llvm::StringRef inner) {
  llvm::SmallVector<llvm::StringRef, 4> elems;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t k = 0; k < inner.size(); ++k) {
    char c = inner[k];
    if (quote) {
      if (c == '\\')
        ++k; // an escaped character, a quote among them
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '\'' || c == '"')
      quote = c;
    else if (c == '(' || c == '[')
      ++depth;
    else if (c == ')' || c == ']')
      --depth;
    else if (c == ',' && depth == 0) {
      elems.push_back(inner.slice(start, k).trim());
      start = k + 1;
    }
  }
  llvm::StringRef last = inner.drop_front(start).trim();
  if (!last.empty())
    elems.push_back(last);
  return elems;
}

/// Whether \p text is a Python identifier.
static bool isDefineIdentifier(llvm::StringRef text) {
  if (text.empty() || !(llvm::isAlpha(text.front()) || text.front() == '_'))
    return false;
  return llvm::all_of(text, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// Whether a module global a -D value names is a value it may bind: a
/// callable (a user function or lambda, a functools.partial, a macro, a T.*
/// primitive, a builtin: `range`, `min`; `-Dloop=NAME` where the package
/// appended `NAME = range`) or a layout (`-Dloop_layout=NAME` where the
/// package appended `NAME = T.Fragment(...)` for a layout made in Python).
static bool isDefineCallable(Value v) {
  return v.is(ValueKind::Function) || v.is(ValueKind::Primitive) ||
         v.is(ValueKind::NativeFn) || v.isObj(ObjKind::Partial) ||
         v.isObj(ObjKind::Macro) || v.isObj(ObjKind::JitFunction) ||
         v.isObj(ObjKind::Layout);
}

Value Interpreter::parseDefine(llvm::StringRef text) {
  text = text.trim();
  // `iter((1, 2))`: an iterator over a -D tuple or list (the Python
  // package passes a generator or zip object a kernel body reads this way,
  // so that loops resume it as Python's do).
  if (text.size() > 6 && text.starts_with("iter(") && text.ends_with(")")) {
    llvm::StringRef inner = text.drop_front(5).drop_back().trim();
    if (inner.size() >= 2 &&
        ((inner.front() == '(' && inner.back() == ')') ||
         (inner.front() == '[' && inner.back() == ']'))) {
      Value seq = parseDefine(inner);
      if (seq.isSequence()) {
        auto *it = heap.make<IteratorObj>();
        it->items.append(getElems(seq).begin(), getElems(seq).end());
        return heap.obj(ObjKind::Iterator, it);
      }
    }
  }
  // A tuple or list of -D values, as Python prints one: `(4, 128)`,
  // `[0, 1, 2]`, `(T.float16, 'max')`, nested ones.
  if (text.size() >= 2 &&
      ((text.front() == '(' && text.back() == ')') ||
       (text.front() == '[' && text.back() == ']'))) {
    llvm::StringRef inner = text.drop_front().drop_back().trim();
    llvm::SmallVector<Value, 4> elems;
    for (llvm::StringRef e : splitDefineElements(inner))
      elems.push_back(parseDefine(e));
    // `(4)` is 4, as in Python; `(4,)` is a tuple.
    if (text.front() == '(' && elems.size() == 1 && !inner.ends_with(","))
      return elems.front();
    return text.front() == '(' ? heap.tuple(elems) : heap.list(elems);
  }
  int64_t i;
  if (!text.getAsInteger(0, i))
    return Value::integer(i);
  double d;
  if (!text.getAsDouble(d))
    return Value::floating(d);
  if (text == "True" || text == "true")
    return Value::boolean(true);
  if (text == "False" || text == "false")
    return Value::boolean(false);
  if (text == "None")
    return Value::none();
  // A quoted value is a Python string literal: `'a\nb'`, `"it's"`,
  // `'\x00'` (the package passes a str as its repr()).
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
      text.back() == text.front()) {
    std::string decoded;
    if (syntax::decodeStringLiteral(text, decoded))
      return heap.str(decoded);
    return heap.str(text.drop_front().drop_back());
  }
  if (text.consume_front("T."))
    if (std::optional<lang::DType> t = lang::DType::parseAttribute(text))
      return Value::dtype(*t);
  // The name of a module-level callable or layout (`-Dscore_mod=causal_mask`;
  // the Python package appends a function, lambda, functools.partial or
  // layout passed to a factory to a copy of the script under such a name)
  // is that value. Read when the instance is traced, after the module ran.
  if (moduleEnv && isDefineIdentifier(text)) {
    auto it = moduleEnv->vars.find(text);
    if (it != moduleEnv->vars.end() && isDefineCallable(it->second))
      return it->second;
  }
  return heap.str(text);
}

std::optional<Value> Interpreter::defineFor(llvm::StringRef name) {
  for (auto &[k, v] : options.defines)
    if (k == name) {
      usedDefines.insert(k);
      return parseDefine(v);
    }
  return std::nullopt;
}

/// The label of a call's instance is also its identity: two calls with
/// the same label share one instance (the second is not traced), so the
/// label must tell apart every pair of calls whose traces differ.
std::string Interpreter::makeLabel(llvm::StringRef fnName, CallArgs &args) {
  std::string s = fnName.str() + "(";
  bool first = true;
  auto item = [&](Value v) {
    std::string t;
    if (v.is(ValueKind::Opaque)) {
      // A tensor the call site created with literal sizes (an eager
      // kernel's argument): its shape is what the trace reads. Other
      // opaque objects read nothing, so they trace alike.
      auto *o = v.as<OpaqueObj>();
      if (!o->hasShape)
        return std::string("...");
      t = "tensor[";
      for (auto [i, d] : llvm::enumerate(o->shape))
        t += (i ? ", " : "") + toString(d, true);
      t += "]";
    } else {
      t = toString(v, true);
    }
    // A long value is shortened for display, with a hash of the whole text
    // so that values that differ past the cut keep distinct labels.
    if (t.size() > 40)
      t = t.substr(0, 28) + "...#" +
          llvm::utohexstr(llvm::xxh3_64bits(t) & 0xffffffff, true, 8);
    return t;
  };
  for (Value v : args.pos) {
    if (!first)
      s += ", ";
    s += item(v);
    first = false;
  }
  for (auto &kv : args.kw) {
    if (!first)
      s += ", ";
    s += kv.first.str() + "=" + item(kv.second);
    first = false;
  }
  return s + ")";
}

std::string Interpreter::closureLabel(FunctionObj *fn,
                                      const std::string &label) {
  // The names the definition reads (its nested prim_func's included), in
  // order of first use.
  llvm::SmallVector<llvm::StringRef, 8> names;
  syntax::walk(fn->def, [&](Node n) {
    if (n.kind() == NodeKind::Name && n.context() == syntax::ExprContext::Load &&
        !llvm::is_contained(names, n.identifier()))
      names.push_back(n.identifier());
    return syntax::WalkResult::Advance;
  });
  // Their values in the function scopes around the definition (the
  // module's are the same for every definition).
  std::string sig;
  llvm::SmallVector<llvm::StringRef, 8> seen;
  for (Env *e = fn->closure; e && e->parent; e = e->parent)
    for (llvm::StringRef name : names) {
      auto it = e->vars.find(name);
      if (it == e->vars.end() || llvm::is_contained(seen, name))
        continue;
      seen.push_back(name);
      std::string t = toString(it->second, true);
      if (t.size() > 40)
        t = t.substr(0, 28) + "...#" +
            llvm::utohexstr(llvm::xxh3_64bits(t) & 0xffffffff, true, 8);
      sig += (sig.empty() ? "" : ", ") + name.str() + "=" + t;
    }
  if (sig.empty())
    return label;
  auto &sigs = closureSignatures[(fn->name + "\x1f" + label).str()];
  auto it = llvm::find(sigs, sig);
  size_t index = it - sigs.begin();
  if (it == sigs.end())
    sigs.push_back(sig);
  // The first definition keeps the plain label.
  return index == 0 ? label : label + " [" + sig + "]";
}

//===----------------------------------------------------------------------===//
// Instance bookkeeping
//===----------------------------------------------------------------------===//

/// True when \p label would be a new instance of \p kernel beyond
/// EvalOptions::maxInstancesPerKernel (counted under \p key, the kernel's
/// name by default): the instance is not traced, and a remark at \p at
/// names it, so that an instance the file creates never vanishes without
/// a word (tlc-build has no limit unless --max-instances gives one).
static bool overInstanceLimit(Interpreter &in, llvm::StringRef kernel,
                              llvm::StringRef label, llvm::StringRef key,
                              TextRange at) {
  const EvalOptions &options = in.options;
  if (!options.kernelFilter.empty() && kernel != options.kernelFilter)
    return false;
  auto it = in.tracedLabels.find(key.empty() ? kernel : key);
  if (it == in.tracedLabels.end() ||
      it->second.size() < options.maxInstancesPerKernel ||
      llvm::is_contained(it->second, label))
    return false;
  // Once per instance left out (a call repeated in a loop says it once);
  // the list of those lives beside the traced ones, under a name no
  // Python function has.
  auto &dropped = in.tracedLabels["-dropped " + kernel.str()];
  if (llvm::is_contained(dropped, label))
    return true;
  dropped.push_back(label.str());
  in.report(Severity::Remark, at,
            "instance '" + label + "' of kernel '" + kernel +
                "' is not analysed: the limit is " +
                llvm::Twine(options.maxInstancesPerKernel) +
                " instances per kernel (tlc-build --max-instances)");
  return true;
}

/// Where a call that makes an instance is best reported: \p at, else its
/// first argument.
static TextRange callSiteRange(Node at, const CallArgs &args) {
  if (at)
    return at.range();
  if (!args.posNodes.empty() && args.posNodes.front())
    return args.posNodes.front().range();
  if (!args.kwNodes.empty() && args.kwNodes.front())
    return args.kwNodes.front().range();
  return {};
}

bool Interpreter::shouldSkipInstance(llvm::StringRef kernelName,
                                     llvm::StringRef label,
                                     llvm::StringRef dedupKey) {
  if (!options.kernelFilter.empty() && kernelName != options.kernelFilter) {
    filteredKernels.insert(kernelName);
    return true;
  }
  auto &labels = tracedLabels[dedupKey.empty() ? kernelName : dedupKey];
  if (llvm::is_contained(labels, label))
    return true;
  if (labels.size() >= options.maxInstancesPerKernel)
    return true;
  labels.push_back(label.str());
  return false;
}

TargetInfo Interpreter::target() const {
  if (instance && instance->target)
    return *instance->target;
  // Factory code runs before the instance exists: the decorator's target.
  if (!jitContext.empty() && jitContext.back().target)
    return *jitContext.back().target;
  return options.target;
}

std::string Interpreter::fileTarget(Value v) const {
  if (!v.isStr())
    return {};
  llvm::StringRef spec = getStr(v).trim();
  // tlc's own spelling (`cuda:sm_70`, `hip:gfx90a`) of a part it knows.
  if (spec.contains(':') && !spec.contains(' ') && TargetInfo::parse(spec))
    return spec.str();
  llvm::StringRef kind = spec.take_until([](char c) { return c == ' '; });
  llvm::StringRef rest = spec.drop_front(kind.size());
  llvm::StringRef current = options.target.name;
  // `cuda -arch=sm_100a`, `hip -mcpu=gfx90a`: that architecture when tlc
  // knows it; else the current target of the platform, or its default.
  auto withArch = [&](llvm::StringRef option, llvm::StringRef platform,
                      llvm::StringRef dflt) {
    size_t at = rest.find(option);
    if (at != llvm::StringRef::npos) {
      llvm::StringRef arch = rest.drop_front(at + option.size())
                                 .take_until([](char c) { return c == ' '; });
      std::string name = (platform + ":" + arch).str();
      if (TargetInfo::parse(name))
        return name;
    }
    return current.starts_with(platform) ? current.str() : dflt.str();
  };
  if (kind == "cuda" || kind == "nvidia")
    return withArch("-arch=", "cuda", "cuda:sm_90a");
  if (kind == "hip" || kind == "rocm")
    return withArch("-mcpu=", "hip", "hip:gfx942");
  if (kind == "cpu" || kind == "c" || kind == "llvm")
    return "cpu";
  return {};
}

InstanceCtx *Interpreter::beginInstance(llvm::StringRef kernelName,
                                        llvm::StringRef label, Node def) {
  instances.push_back(std::make_unique<InstanceCtx>());
  InstanceCtx *ctx = instances.back().get();
  ctx->kernel = kernelName.str();
  ctx->label = label.str();
  ctx->def = def;
  ctx->func = ir->beginFunc(kernelName, ir->loc(def.getIdentifier().range));
  ctx->infoIndex = out.instances.size();
  out.instances.push_back({ctx->kernel, ctx->label, def.range()});
  return ctx;
}

void Interpreter::applyBuildConfigs(InstanceCtx &ctx) {
  auto func = mlir::cast<tile::FuncOp>(ctx.func);
  BuildConfigs build = ctx.annotated;
  build.merge(ctx.external);
  build.merge(options.build);
  func.setFastMath(build.fastMath() || options.fastMath);
  tile::setBuildConfigs(func, build.passConfigs, build.compileFlags);
}

void Interpreter::endInstance(InstanceCtx *ctx) {
  auto func = mlir::cast<tile::FuncOp>(ctx->func);
  if (ctx == instance)
    closeRawLaunch();
  applyBuildConfigs(*ctx);
  InstanceInfo &info = out.instances[ctx->infoIndex];
  info.environReads = environReads;
  llvm::sort(info.environReads);
  info.environReadAll = environReadAll;
  tile::setImportedSources(func, ctx->importedSources);
  if (ctx->target)
    func->setAttr("tile.target",
                  mlir::StringAttr::get(func.getContext(), ctx->target->name));
  // A vector index (T.Ramp, T.Broadcast, their sums) that only indexed
  // buffers became element indices there; the vector value itself, and
  // what only it used, is not used.
  for (bool erased = true; erased;) {
    llvm::SmallVector<mlir::Operation *, 4> unused;
    func.walk([&](mlir::Operation *op) {
      if (op->getNumResults() != 1 || !op->use_empty() ||
          !mlir::isa<mlir::VectorType>(op->getResult(0).getType()))
        return;
      auto intr = mlir::dyn_cast<tile::IntrinsicOp>(op);
      if (intr ? intr.getCallee() == "T.Ramp" ||
                     intr.getCallee() == "T.Broadcast"
               : mlir::isOpTriviallyDead(op))
        unused.push_back(op);
    });
    for (mlir::Operation *op : unused)
      op->erase();
    erased = !unused.empty();
  }
  scalarizeVectorValues(func);
  ir->finishFunc(func, ctx->symbols);
}

/// Saves and restores the tracing state around a nested trace.
namespace {
struct TraceState {
  Interpreter &in;
  Env *env;
  InstanceCtx *instance;
  KernelCtx *kernel;
  bool traced;
  llvm::SmallVector<LoopCtx, 8> loops;
  mlir::OpBuilder::InsertPoint ip;
  /// The function being built: a kernel whose eager body calls a @jit
  /// kernel (itself, say) goes on building its own after the call's trace
  /// finished (found by tlc-fuzz-eval: the function was null there).
  tile::FuncOp func;
  /// And the rest of its state (its symbols' IR values, parameter
  /// attributes).
  IRGen::FuncState funcState;
  explicit TraceState(Interpreter &in)
      : in(in), env(in.env), instance(in.instance), kernel(in.kernel),
        traced(in.traced), loops(std::move(in.loops)),
        ip(in.ir->b.saveInsertionPoint()), func(in.ir->currentFunc),
        funcState(in.ir->saveFuncState()) {
    in.loops.clear();
    in.kernel = nullptr;
  }
  ~TraceState() {
    in.env = env;
    in.instance = instance;
    in.kernel = kernel;
    in.traced = traced;
    in.loops = std::move(loops);
    in.ir->b.restoreInsertionPoint(ip);
    in.ir->currentFunc = func;
    in.ir->restoreFuncState(std::move(funcState));
  }
};
} // namespace

/// Reports the pending exception as an error of the current instance.
/// Why an exception of a kernel no call site instantiates is a warning.
static constexpr llvm::StringLiteral kDefaultInstanceNote =
    "raised while analysing a kernel without a call site: its parameters are "
    "symbols, so a check on them may not hold for any real call; the "
    "analysis of this instance is incomplete";

static void reportEscaped(Interpreter &in, Node fallback) {
  if (in.budgetExhausted)
    return;
  std::string msg = in.pending.type;
  if (!in.pending.message.empty())
    msg += ": " + in.pending.message;
  TextRange at = in.pending.range.empty() ? fallback.range() : in.pending.range;
  // A definite exception (one Python raises whatever the parameters' values,
  // such as an invalid loop nest) is an error even here.
  if (in.tracingDefaults && in.defaultsSymbolic && !in.pending.definite) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.range = at;
    d.message = msg;
    d.notes.push_back({fallback.range(), kDefaultInstanceNote.str()});
    in.out.diagnostics.push_back(std::move(d));
    // The body was traced only up to the raise: the kernel must not be
    // built as if it were whole (tile::checkBuildable refuses it there).
    if (in.instance && in.instance->func) {
      auto func = mlir::cast<tile::FuncOp>(in.instance->func);
      auto b = mlir::OpBuilder::atBlockBegin(&func.getBody().front());
      tile::IntrinsicOp::create(
          b, in.ir->loc(at), mlir::TypeRange(), b.getStringAttr("tlc.raised"),
          mlir::ValueRange(), b.getStrArrayAttr({}),
          b.getDictionaryAttr(b.getNamedAttr("what", b.getStringAttr(msg))));
    }
  } else {
    in.errorAs(in.pending.type, at, msg);
  }
  in.pending = {};
}

/// True when \p def contains a nested function decorated with prim_func.
static bool containsPrimFunc(Node def) {
  bool found = false;
  for (Node stmt : def.children(Field::body))
    syntax::walk(stmt, [&](Node n) {
      if (n.kind() == NodeKind::FunctionDef)
        for (Node d : n.children(Field::decorator_list))
          if (d.text().ends_with("prim_func")) {
            found = true;
            return syntax::WalkResult::Interrupt;
          }
      return syntax::WalkResult::Advance;
    });
  return found;
}

/// The function \p v calls: itself, or a jitted factory's function.
static FunctionObj *calledFunction(Value v) {
  if (v.is(ValueKind::Function))
    return v.as<FunctionObj>();
  if (v.isObj(ObjKind::JitFunction))
    return v.as<JitFunctionObj>()->fn;
  return nullptr;
}

/// Whether \p fn is a lazy factory through another function: a `return`
/// of its body (not of nested functions) calls, by name, a function of its
/// scope that defines a `@T.prim_func` or is such a factory itself
/// (`def kernel(N): return copy_kernel(N)`, or a jitted factory's
/// `return copy_kernel(N).prim_func`), or a parameter \p bound gives a
/// such a function (`def kernel(factory, block): return factory(block)`
/// with `-D factory=copy_kernel`: the Python package lifts a nested
/// kernel so, its closure's factory a parameter). TileLang tells lazy from
/// eager by calling the function and looking for a PrimFunc result; this
/// follows the names statically, a few calls deep.
static bool
returnsPrimFuncFactory(FunctionObj *fn, unsigned depth = 0,
                       llvm::function_ref<Value(llvm::StringRef)> bound = {}) {
  if (!fn || depth > 4)
    return false;
  bool found = false;
  for (Node stmt : fn->def.children(Field::body))
    syntax::walk(stmt, [&](Node n) {
      if (n.kind() == NodeKind::FunctionDef ||
          n.kind() == NodeKind::AsyncFunctionDef ||
          n.kind() == NodeKind::Lambda || n.kind() == NodeKind::ClassDef)
        return syntax::WalkResult::Skip;
      if (n.kind() != NodeKind::Return)
        return syntax::WalkResult::Advance;
      Node call = n.child(Field::value);
      // `return factory(...).prim_func`: the PrimFunc of a jitted factory.
      if (call && call.kind() == NodeKind::Attribute &&
          call.identifier() == "prim_func")
        call = call.child(Field::value);
      if (!call || call.kind() != NodeKind::Call)
        return syntax::WalkResult::Skip;
      Node callee = call.child(Field::func);
      if (!callee || callee.kind() != NodeKind::Name)
        return syntax::WalkResult::Skip;
      llvm::StringRef name = callee.identifier();
      auto isFactory = [&](FunctionObj *g) {
        return g && g != fn &&
               (containsPrimFunc(g->def) ||
                returnsPrimFuncFactory(g, depth + 1));
      };
      bool isParam = llvm::any_of(
          fn->params, [&](Node p) { return p.identifier() == name; });
      if (isParam) {
        found = bound && isFactory(calledFunction(bound(name)));
        return found ? syntax::WalkResult::Interrupt
                     : syntax::WalkResult::Skip;
      }
      for (Env *e = fn->closure; e; e = e->parent) {
        auto it = e->vars.find(name);
        if (it == e->vars.end())
          continue;
        found = isFactory(calledFunction(it->second));
        break;
      }
      return found ? syntax::WalkResult::Interrupt : syntax::WalkResult::Skip;
    });
  return found;
}

//===----------------------------------------------------------------------===//
// Decorators
//===----------------------------------------------------------------------===//

Value Interpreter::applyDecorator(Value deco, Value fn, Node decoNode,
                                  Node def) {
  if (deco.isPoison())
    return fn;
  // Decorators of decorated objects (@autotune over @tilelang.jit).
  if (!fn.is(ValueKind::Function)) {
    if (deco.is(ValueKind::Primitive) || deco.isObj(ObjKind::Partial)) {
      CallArgs args;
      args.pos.push_back(fn);
      args.posNodes.push_back(decoNode);
      Value r = call(deco, args, decoNode);
      return r.isAbrupt() || r.is(ValueKind::Opaque) ? fn : r;
    }
    return fn;
  }
  FunctionObj *f = fn.as<FunctionObj>();
  // The builtin descriptors: how the method binds (Classes.cpp).
  if (deco.is(ValueKind::Opaque)) {
    llvm::StringRef d = deco.as<OpaqueObj>()->description;
    if (d == "staticmethod")
      f->methodKind = FunctionObj::StaticMethod;
    else if (d == "classmethod")
      f->methodKind = FunctionObj::ClassMethod;
    else if (d == "property")
      f->methodKind = FunctionObj::Property;
    // A Triton kernel (`@triton.jit`, `@triton.autotune(...)`): an object
    // launched as `kernel[grid](...)`; tlc does not analyse Triton code.
    if (d == "triton.jit" || d == "triton decorator")
      return heap.opaque("triton kernel");
    return fn;
  }
  if (deco.is(ValueKind::Primitive)) {
    const lang::BuiltinInfo &info = deco.getPrimitive()->getCanonical();
    switch (info.id) {
    case BuiltinId::PrimFunc:
      f->isPrimFunc = true;
      return tracePrimFunc(f, def ? def : f->def);
    case BuiltinId::Macro:
      f->isMacro = true;
      return fn;
    case BuiltinId::Jit:
    case BuiltinId::Autotune: {
      CallArgs args;
      args.pos.push_back(fn);
      args.posNodes.push_back(decoNode);
      return callPrimitive(*deco.getPrimitive(), args, decoNode);
    }
    default:
      return fn;
    }
  }
  if (deco.isObj(ObjKind::Namespace) &&
      deco.as<NamespaceObj>()->name == "pytest.mark.parametrize") {
    f->parametrize.push_back(deco);
    return fn;
  }
  if (deco.is(ValueKind::Function) || deco.isObj(ObjKind::Partial) ||
      deco.is(ValueKind::NativeFn)) {
    CallArgs args;
    args.pos.push_back(fn);
    args.posNodes.push_back(decoNode);
    Value r = call(deco, args, decoNode);
    if (r.is(ValueKind::Opaque) || r.isPoison())
      return fn;
    return r;
  }
  return fn; // unknown decorators (torch.no_grad, ...) are transparent
}

/// The key of a `pass_configs` entry as TileLang spells it: a string, or a
/// `PassConfigKey` member's value. Empty for anything else (a member tlc's
/// registry does not list evaluates to an opaque value).
static std::string passConfigKey(Value key) {
  if (key.is(ValueKind::Str))
    return getStr(key).str();
  if (!key.isObj(ObjKind::EnumMember))
    return "";
  switch (key.as<EnumMemberObj>()->info->id) {
  case lang::BuiltinId::KeyEnableFastMath:
    return "tl.enable_fast_math";
  case lang::BuiltinId::KeyDisableFastMath:
    return "tl.disable_fast_math";
  case lang::BuiltinId::KeyDisableWarpSpecialized:
    return "tl.disable_warp_specialized";
  case lang::BuiltinId::KeyDisableTmaLower:
    return "tl.disable_tma_lower";
  case lang::BuiltinId::KeyDisableThreadStorageSync:
    return "tl.disable_thread_storage_sync";
  case lang::BuiltinId::KeyPtxasRegisterUsageLevel:
    return "tl.ptxas_register_usage_level";
  case lang::BuiltinId::KeyEnableAggressiveSmemMerge:
    return "tl.enable_aggressive_shared_memory_merge";
  case lang::BuiltinId::KeyEnablePtxasVerboseOutput:
    return "tl.enable_ptxas_verbose_output";
  case lang::BuiltinId::KeyLayoutVisualizationEnable:
    return "tl.layout_visualization_enable";
  case lang::BuiltinId::KeyLayoutVisualizationFormats:
    return "tl.layout_visualization_formats";
  case lang::BuiltinId::KeyDisableSafeMemoryLegalize:
    return "tl.disable_safe_memory_legalize";
  case lang::BuiltinId::KeyDisableWgmma:
    return "tl.disable_wgmma";
  case lang::BuiltinId::KeyConfigIndexBitwidth:
    return "tl.config_index_bitwidth";
  default:
    return "";
  }
}

/// Appends the flags of a `compile_flags` value: a string (split at
/// whitespace, as TileLang's shell-like splitting of plain flags does) or
/// a list or tuple of strings.
static void appendFlags(Value flags, std::vector<std::string> &out) {
  if (flags.is(ValueKind::Str)) {
    llvm::SmallVector<llvm::StringRef, 8> words;
    getStr(flags).split(words, ' ', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef w : words)
      if (!w.trim().empty())
        out.push_back(w.trim().str());
    return;
  }
  if (flags.isSequence())
    for (Value f : flags.as<SeqObj>()->elems)
      if (f.is(ValueKind::Str))
        out.push_back(getStr(f).str());
}

void Interpreter::readPassConfigs(Value configs, BuildConfigs &out) {
  if (!configs.is(ValueKind::Dict))
    return;
  for (auto &[key, value] : configs.as<DictObj>()->items) {
    std::string name = passConfigKey(key);
    if (name.empty())
      continue;
    if (name == "tl.device_compile_flags")
      appendFlags(value, out.compileFlags);
    out.set(name, value.is(ValueKind::Str) ? getStr(value).str()
                                           : toString(value, false));
  }
}

void Interpreter::readCompileFlags(Value flags, BuildConfigs &out) {
  appendFlags(flags, out.compileFlags);
}

Value Interpreter::importSource(Value source, Node at) {
  if (source.isAbrupt())
    return source;
  // A text from outside TileLang (a library's generated decoder): the
  // T.call_extern of its functions is what no target can build.
  if (source.isNone() || source.is(ValueKind::Opaque))
    return Value::none();
  if (!source.isStr())
    return fail(at, "imported source must be a string of C++ source text, "
                    "not " +
                        toString(source, /*repr=*/true));
  // Once per kernel, as TileLang imports it: a macro importing its decoder
  // at each call would define the functions again.
  if (instance &&
      !llvm::is_contained(instance->importedSources, getStr(source)))
    instance->importedSources.push_back(std::string(getStr(source)));
  return Value::none();
}

Value Interpreter::autotunerFromKernel(CallArgs &args, Node at) {
  (void)at;
  Value fn = args.positional(0, Value::none());
  if (const Value *k = args.keyword("kernel"))
    fn = *k;
  Value configs = args.positional(1, Value::none());
  if (const Value *c = args.keyword("configs"))
    configs = *c;
  if (!fn.is(ValueKind::Function))
    return heap.opaque("tilelang.autotuner.AutoTuner");
  auto *jit = heap.make<JitFunctionObj>();
  jit->fn = fn.as<FunctionObj>();
  jit->outIdx = Value::none();
  jit->lazy = containsPrimFunc(jit->fn->def);
  jit->autotuneConfigs = configs;
  Value v = heap.obj(ObjKind::JitFunction, jit);
  kernelsSeen.push_back(v);
  return v;
}

Value Interpreter::applyDecoratorValue(const PArgs &p, Value fn) {
  if (p.info.id == BuiltinId::Autotune) {
    if (fn.isObj(ObjKind::JitFunction)) {
      fn.as<JitFunctionObj>()->autotuneConfigs =
          p.getOr("configs", Value::none());
      return fn;
    }
  }
  if (fn.isObj(ObjKind::JitFunction))
    return fn;
  if (!fn.is(ValueKind::Function))
    return fn;
  auto *jit = heap.make<JitFunctionObj>();
  jit->fn = fn.as<FunctionObj>();
  jit->outIdx = p.getOr("out_idx", Value::none());
  readPassConfigs(p.getOr("pass_configs", Value::none()), jit->build);
  readCompileFlags(p.getOr("compile_flags", Value::none()), jit->build);
  jit->target = fileTarget(p.getOr("target", Value::none()));
  jit->lazy = containsPrimFunc(jit->fn->def);
  if (p.info.id == BuiltinId::Autotune)
    jit->autotuneConfigs = p.getOr("configs", Value::none());
  Value v = heap.obj(ObjKind::JitFunction, jit);
  kernelsSeen.push_back(v);
  return v;
}

//===----------------------------------------------------------------------===//
// Tracing
//===----------------------------------------------------------------------===//

/// True when \p v can type a prim_func parameter: a tensor type, a scalar
/// dtype or `T.ptr`.
static bool isParamType(Value v) {
  return v.isObj(ObjKind::TensorType) || v.is(ValueKind::DType) ||
         (v.is(ValueKind::Primitive) &&
          v.getPrimitive()->getCanonical().id == lang::BuiltinId::Ptr);
}

/// True when the body of \p def declares \p name by an annotation
/// statement of its own (`A: T.Tensor[[M, N], T.float32]`), the way eager
/// kernels and TileLang's prim_funcs may type an unannotated parameter.
static bool declaredInBody(Node def, llvm::StringRef name) {
  for (Node stmt : def.children(Field::body)) {
    if (stmt.kind() != NodeKind::AnnAssign || stmt.child(Field::value))
      continue;
    Node target = stmt.child(Field::target);
    if (target.kind() == NodeKind::Name && target.identifier() == name)
      return true;
  }
  return false;
}

Value Interpreter::tracePrimFunc(FunctionObj *fn, Node at,
                                 const PrimFuncSpec *spec) {
  auto *pf = heap.make<PrimFuncObj>();
  pf->fn = fn;
  Value result = heap.obj(ObjKind::PrimFunc, pf);
  // Kernels of imported files are analysed with their own file.
  if (isForeign(fn->def))
    return result;
  std::string kernelName, label;
  if (!jitContext.empty()) {
    kernelName = jitContext.back().kernel;
    label = jitContext.back().label;
    // Plain factories the jit function called have a call site: they get
    // no default instance of their own.
    for (const auto &frame : callStack)
      tracedLabels[frame.first->name];
  } else if (!callStack.empty()) {
    // --defines-only: a plain factory's call site makes no instance either;
    // traceDefaultInstances makes the one the -D bindings describe.
    if (!options.callSites && !tracingDefaults)
      return result;
    FunctionObj *outer = callStack.back().first;
    kernelName = outer->name.str();
    label = closureLabel(outer, makeLabel(outer->name, *callStack.back().second));
  } else {
    kernelName = spec ? spec->name : fn->name.str();
    label = kernelName;
  }
  // A factory may define several prim_funcs (and return one of them): each
  // is its own kernel for deduplication.
  std::string key = kernelName;
  if (!jitContext.empty() || !callStack.empty())
    key += "/" + (spec ? spec->name : fn->name.str());
  if (!budgetExhausted &&
      overInstanceLimit(*this, kernelName, label, key,
                        jitContext.empty() && !callStack.empty()
                            ? callSiteRange(Node(), *callStack.back().second)
                            : at.range()))
    return result;
  if (budgetExhausted || shouldSkipInstance(kernelName, label, key))
    return result;
  if (key != kernelName) {
    auto &labels = tracedLabels[kernelName];
    if (!llvm::is_contained(labels, label))
      labels.push_back(label);
  }
  TraceState saved(*this);
  instance = beginInstance(kernelName, label, fn->def);
  InstanceBudget budget(*this);
  if (!jitContext.empty())
    instance->external = jitContext.back().build;
  if (!jitContext.empty())
    instance->target = jitContext.back().target;
  pf->instance = int(out.instances.size()) - 1;
  if (spec) {
    traceBuiltPrimFunc(pf, fn, at, *spec);
    endInstance(instance);
    budget.finish();
    return result;
  }
  Env *callEnv = heap.make<Env>();
  callEnv->parent = fn->closure;
  bool ok = true;
  size_t firstDefault = fn->params.size() - fn->defaults.size();
  llvm::SmallVector<Value, 8> paramTypes;
  for (auto [index, param] : llvm::enumerate(fn->params)) {
    llvm::StringRef name = param.identifier();
    Node ann = param.child(Field::annotation);
    Value t;
    auto recordType = llvm::make_scope_exit([&] { paramTypes.push_back(t); });
    if (ann) {
      env = fn->closure;
      t = eval(ann);
      if (t.isException()) {
        reportEscaped(*this, ann);
        ok = false;
        break;
      }
    } else if (index >= firstDefault &&
               isParamType(fn->defaults[index - firstDefault])) {
      // `@T.prim_func(generator=True)` style: the type is the default,
      // `A=T.Tensor((128,), T.float32)`.
      t = fn->defaults[index - firstDefault];
    } else if (declaredInBody(fn->def, name)) {
      // Typed by its annotation statement when the body reaches it.
      callEnv->vars[name] = heap.opaque("parameter");
      continue;
    } else {
      error(param, "parameter '" + name + "' of a prim_func must be annotated");
      callEnv->vars[name] = Value::poison();
      continue;
    }
    if (t.isObj(ObjKind::TensorType)) {
      callEnv->vars[name] = makeTensorFromAnnotation(t, name, param);
    } else if (t.is(ValueKind::DType) ||
               (t.is(ValueKind::Primitive) &&
                t.getPrimitive()->getCanonical().id == lang::BuiltinId::Ptr)) {
      lang::DType dt = t.is(ValueKind::DType)
                           ? t.getDType()
                           : lang::DType(lang::ScalarType::Handle);
      mlir::Value arg = ir->addParam(ir->valueType(dt),
                                     ir->nameLoc(name, param.range()));
      SymExpr sym = syms.symbol(name);
      ir->bindSymbol(sym, arg);
      callEnv->vars[name] = wrapScalar(
          {arg, dt, dt.isInteger() ? sym : SymExpr()});
    } else {
      callEnv->vars[name] = t.isPoison() ? t : heap.opaque("parameter");
    }
  }
  if (ok) {
    recordPrimFuncSig(pf, fn, paramTypes);
    env = callEnv;
    traced = true;
    Flow f = execBody(fn->def, Field::body);
    if (f == Flow::Raise)
      reportEscaped(*this, at);
  }
  endInstance(instance);
  budget.finish();
  return result;
}

void Interpreter::traceBuiltPrimFunc(PrimFuncObj *pf, FunctionObj *fn, Node at,
                                     const PrimFuncSpec &spec) {
  CallArgs args;
  llvm::SmallVector<Value, 8> types;
  llvm::SmallVector<std::string, 8> names;
  for (auto &[name, t] : spec.params) {
    types.push_back(t);
    names.push_back(name);
    Value v;
    if (t.isObj(ObjKind::TensorType)) {
      v = makeTensorFromAnnotation(t, name, at);
    } else if (t.is(ValueKind::DType) ||
               (t.is(ValueKind::Primitive) &&
                t.getPrimitive()->getCanonical().id == BuiltinId::Ptr)) {
      lang::DType dt = t.is(ValueKind::DType)
                           ? t.getDType()
                           : lang::DType(lang::ScalarType::Handle);
      mlir::Value arg =
          ir->addParam(ir->valueType(dt), ir->nameLoc(name, at.range()));
      SymExpr sym = syms.symbol(name);
      ir->bindSymbol(sym, arg);
      v = wrapScalar({arg, dt, dt.isInteger() ? sym : SymExpr()});
    } else {
      v = t.isPoison() ? t : heap.opaque("parameter");
    }
    args.pos.push_back(v);
    args.posNodes.push_back(at);
  }
  recordPrimFuncSig(pf, fn, types, names, spec.name);
  traced = true;
  Value r = call(Value::object(ValueKind::Function, fn), args, at);
  if (r.isException())
    reportEscaped(*this, at);
}

Value Interpreter::buildPrimFunc(const PArgs &p) {
  Value name = p.getOr("name", Value::none());
  Value params = p.getOr("parameters", Value::none());
  Value body = p.getOr("body", Value::none());
  for (Value v : {name, params, body})
    if (v.isAbrupt())
      return v;
  if (!name.isStr())
    return raise("TypeError",
                 "T.build_prim_func: the name must be a string, got " +
                     toString(name, true),
                 p.node("name"));
  if (!params.isSequence())
    return raise("TypeError",
                 "T.build_prim_func: parameters must be a sequence of "
                 "(name, annotation) pairs, got " +
                     toString(params, true),
                 p.node("parameters"));
  PrimFuncSpec spec;
  spec.name = getStr(name).str();
  for (Value pair : getElems(params)) {
    if (!pair.isSequence() || getElems(pair).size() != 2 ||
        !getElems(pair)[0].isStr())
      return raise("TypeError",
                   "T.build_prim_func: each parameter is a (name, "
                   "annotation) pair, got " +
                       toString(pair, true),
                   p.node("parameters"));
    std::string pname = getStr(getElems(pair)[0]).str();
    for (auto &kv : spec.params)
      if (kv.first == pname)
        return raise("ValueError",
                     "T.build_prim_func: parameter names must be unique, '" +
                         pname + "' appears twice",
                     p.node("parameters"));
    spec.params.push_back({pname, getElems(pair)[1]});
  }
  if (!body.is(ValueKind::Function))
    return heap.opaque("T.build_prim_func of a body tlc cannot call");
  return tracePrimFunc(body.as<FunctionObj>(), p.call, &spec);
}

/// Appends to \p dims the dimension expressions of the shape \p shape
/// written in the annotation statement \p body[at]: a tuple or list, a name
/// an earlier statement of the body assigned one (`shape = [B, M, K]`), or a
/// sum of those (`count_shape + [n]`). False when it is none of these.
static bool shapeDims(llvm::ArrayRef<Node> body, size_t at, Node shape,
                      std::vector<Node> &dims, unsigned depth = 0) {
  if (!shape || depth > 4)
    return false;
  if (shape.kind() == NodeKind::Tuple || shape.kind() == NodeKind::List) {
    for (Node dim : shape.children(Field::elts))
      dims.push_back(dim);
    return true;
  }
  if (shape.kind() == NodeKind::BinOp && shape.op() == syntax::BinaryOp::Add)
    return shapeDims(body, at, shape.child(Field::left), dims, depth + 1) &&
           shapeDims(body, at, shape.child(Field::right), dims, depth + 1);
  if (shape.kind() != NodeKind::Name)
    return false;
  // The last assignment of the name before the annotation.
  for (size_t i = at; i-- > 0;) {
    Node stmt = body[i];
    if (stmt.kind() != NodeKind::Assign)
      continue;
    auto targets = stmt.children(Field::targets);
    if (std::distance(targets.begin(), targets.end()) != 1)
      continue;
    Node target = *targets.begin();
    if (target.kind() != NodeKind::Name ||
        target.identifier() != shape.identifier())
      continue;
    return shapeDims(body, i, stmt.child(Field::value), dims, depth + 1);
  }
  return false;
}

/// Binds T.const names from torch tensors of known shape: for a parameter X
/// passed such a tensor, finds `X: T.Tensor((M, K), ...)` in the body (the
/// shape may be a variable assigned before it, `X: T.Tensor(shape, ...)`).
static void bindConstsFromTensors(Interpreter &in, FunctionObj *fn,
                                  llvm::StringMap<Value> &bindings,
                                  llvm::ArrayRef<std::pair<llvm::StringRef,
                                                           OpaqueObj *>>
                                      tensors) {
  llvm::SmallVector<Node> body(fn->def.children(Field::body).begin(),
                               fn->def.children(Field::body).end());
  for (auto [at, stmt] : llvm::enumerate(body)) {
    if (stmt.kind() != NodeKind::AnnAssign)
      continue;
    Node target = stmt.child(Field::target);
    if (target.kind() != NodeKind::Name)
      continue;
    OpaqueObj *t = nullptr;
    for (auto &kv : tensors)
      if (kv.first == target.identifier())
        t = kv.second;
    if (!t)
      continue;
    Node ann = stmt.child(Field::annotation);
    Node shape;
    if (ann.kind() == NodeKind::Call)
      shape = *ann.children(Field::args).begin();
    else if (ann.kind() == NodeKind::Subscript) {
      Node sl = ann.child(Field::slice);
      shape = sl.kind() == NodeKind::Tuple ? *sl.children(Field::elts).begin()
                                           : sl;
    }
    std::vector<Node> dims;
    if (!shapeDims(body, at, shape, dims))
      continue;
    unsigned i = 0;
    for (Node dim : dims) {
      if (i < t->shape.size() && t->shape[i].isIntLike() &&
          dim.kind() == NodeKind::Name && !bindings.count(dim.identifier()))
        bindings[dim.identifier()] = t->shape[i];
      ++i;
    }
  }
  (void)in;
}

void Interpreter::traceEager(JitFunctionObj *jit, CallArgs &args, Node at,
                             const std::string &label) {
  FunctionObj *fn = jit->fn;
  if (!budgetExhausted &&
      overInstanceLimit(*this, fn->name, label, {}, callSiteRange(at, args)))
    return;
  if (budgetExhausted || shouldSkipInstance(fn->name, label))
    return;
  TraceState saved(*this);
  instance = beginInstance(fn->name, label, fn->def);
  InstanceBudget budget(*this);
  instance->external = jit->build;
  if (!jit->target.empty() && !options.targetExplicit)
    instance->target = TargetInfo::parse(jit->target);
  Env *callEnv = heap.make<Env>();
  callEnv->parent = fn->closure;
  llvm::SmallVector<std::pair<llvm::StringRef, OpaqueObj *>, 4> tensors;
  // Positional arguments.
  for (size_t i = 0; i < args.pos.size() && i < fn->params.size(); ++i) {
    callEnv->vars[fn->params[i].identifier()] = args.pos[i];
    if (args.pos[i].is(ValueKind::Opaque) &&
        args.pos[i].as<OpaqueObj>()->hasShape)
      tensors.push_back(
          {fn->params[i].identifier(), args.pos[i].as<OpaqueObj>()});
  }
  // Keywords: parameters by name, everything else binds T.const names.
  for (auto &kv : args.kw) {
    bool isParam = llvm::any_of(fn->params, [&](Node p) {
                     return p.identifier() == kv.first;
                   }) ||
                   llvm::any_of(fn->kwOnly, [&](Node p) {
                     return p.identifier() == kv.first;
                   });
    if (isParam)
      callEnv->vars[kv.first] = kv.second;
    else
      instance->constBindings[kv.first] = kv.second;
  }
  for (auto &[k, v] : options.defines) {
    llvm::StringRef name = heap.copyString(k);
    auto named = [&](Node p) { return p.identifier() == name; };
    bool isParam = llvm::any_of(fn->params, named) ||
                   llvm::any_of(fn->kwOnly, named);
    if (isParam) {
      usedDefines.insert(k);
      callEnv->vars[name] = parseDefine(v);
    } else {
      // Counts as used once a T.const of that name reads it.
      instance->constBindings[name] = parseDefine(v);
    }
  }
  bindConstsFromTensors(*this, fn, instance->constBindings, tensors);
  // Defaults, signature annotations, and symbols for the rest.
  size_t firstDefault = fn->params.size() - fn->defaults.size();
  auto bindParam = [&](Node param, std::optional<Value> dflt) -> bool {
    llvm::StringRef name = param.identifier();
    Node ann = param.child(Field::annotation);
    if (ann) {
      env = fn->closure;
      Value t = eval(ann);
      if (t.isException()) {
        reportEscaped(*this, ann);
        return false;
      }
      if (t.isObj(ObjKind::TensorType)) {
        callEnv->vars[name] = makeTensorFromAnnotation(t, name, param);
        return true;
      }
      // `A: T.ptr` (or `T.handle`): a pointer parameter of the kernel,
      // whatever the call passes (a tensor, or `T.ptr()` to compile).
      bool isPtr =
          (t.is(ValueKind::Primitive) &&
           t.getPrimitive()->getCanonical().id == lang::BuiltinId::Ptr) ||
          (t.is(ValueKind::DType) &&
           t.getDType().getScalarType() == lang::ScalarType::Handle);
      if (isPtr) {
        lang::DType dt(lang::ScalarType::Handle);
        mlir::Value arg =
            ir->addParam(ir->valueType(dt), ir->nameLoc(name, param.range()));
        callEnv->vars[name] = wrapScalar({arg, dt, SymExpr()});
        return true;
      }
    }
    if (callEnv->vars.count(name))
      return true;
    if (dflt) {
      callEnv->vars[name] = *dflt;
      return true;
    }
    symbolKinds[name] = /*Meta=*/2;
    callEnv->vars[name] = Value::sym(syms.symbol(name));
    return true;
  };
  bool ok = true;
  for (size_t i = 0; i < fn->params.size() && ok; ++i)
    ok = bindParam(fn->params[i],
                   i >= firstDefault
                       ? std::optional<Value>(fn->defaults[i - firstDefault])
                       : std::nullopt);
  for (size_t i = 0; i < fn->kwOnly.size() && ok; ++i)
    ok = bindParam(fn->kwOnly[i],
                   i < fn->kwDefaults.size() && !fn->kwDefaults[i].isException()
                       ? std::optional<Value>(fn->kwDefaults[i])
                       : std::nullopt);
  if (fn->vararg)
    callEnv->vars[fn->vararg.identifier()] = heap.tuple({});
  if (fn->kwarg)
    callEnv->vars[fn->kwarg.identifier()] = heap.dict();
  if (ok) {
    env = callEnv;
    traced = true;
    Flow f = execBody(fn->def, Field::body);
    if (f == Flow::Raise)
      reportEscaped(*this, at);
  }
  endInstance(instance);
  budget.finish();
}

Value Interpreter::callJit(JitFunctionObj *jit, CallArgs &argsIn, Node at,
                           bool compile) {
  FunctionObj *fn = jit->fn;
  // Kernels of imported files are analysed with their own file.
  if (isForeign(fn->def))
    return heap.opaque(fn->name);
  CallArgs args = argsIn;
  // -D bindings override call-site values of parameters.
  for (auto &[k, v] : options.defines) {
    for (size_t i = 0; i < fn->params.size(); ++i) {
      if (fn->params[i].identifier() != k)
        continue;
      usedDefines.insert(k);
      Value val = parseDefine(v);
      if (i < args.pos.size()) {
        args.pos[i] = val;
      } else {
        bool replaced = false;
        for (auto &kv : args.kw)
          if (kv.first == k) {
            kv.second = val;
            replaced = true;
          }
        if (!replaced) {
          args.kw.push_back({fn->params[i].identifier(), val});
          args.kwNodes.push_back(at);
        }
      }
    }
    // A keyword-only parameter (after `*`) is bound by keyword.
    for (Node p : fn->kwOnly) {
      if (p.identifier() != k)
        continue;
      usedDefines.insert(k);
      Value val = parseDefine(v);
      bool replaced = false;
      for (auto &kv : args.kw)
        if (kv.first == k) {
          kv.second = val;
          replaced = true;
        }
      if (!replaced) {
        args.kw.push_back({p.identifier(), val});
        args.kwNodes.push_back(at);
      }
    }
  }
  // A factory that returns another factory's prim_func is lazy too; the
  // functions it names are all defined by the time it is called.
  auto boundArg = [&](llvm::StringRef name) -> Value {
    for (size_t i = 0; i < fn->params.size(); ++i)
      if (fn->params[i].identifier() == name && i < args.pos.size())
        return args.pos[i];
    if (const Value *v = args.keyword(name))
      return *v;
    return Value::none();
  };
  if (!jit->lazy && returnsPrimFuncFactory(fn, 0, boundArg))
    jit->lazy = true;
  // --defines-only: call sites make no instance; traceDefaultInstances
  // makes the one the -D bindings describe.
  if (!options.callSites && !tracingDefaults)
    return heap.opaque(compile || jit->lazy ? "JITKernel" : "kernel outputs");
  std::string label = closureLabel(fn, makeLabel(fn->name, args));
  if (!jit->lazy) {
    // TileLang traces the callee's body again at each call: a kernel that
    // calls itself while being traced never finishes tracing.
    if (llvm::is_contained(eagerTraces, jit))
      return raise("RecursionError",
                   "'" + fn->name + "' calls itself while its body is being "
                   "traced; TileLang traces the call again, without end",
                   at);
    eagerTraces.push_back(jit);
    traceEager(jit, args, at, label);
    eagerTraces.pop_back();
    return heap.opaque(compile ? "JITKernel" : "kernel outputs");
  }
  // Lazy factory: complete missing parameters from autotune configs or
  // with symbols, then run the factory; its @T.prim_func traces itself.
  size_t firstDefault = fn->params.size() - fn->defaults.size();
  bool madeSymbol = false;
  // `configs=` may be a function: TileLang's tuner calls it with the call's
  // arguments, or with none when that fails.
  Value tuned = jit->autotuneConfigs;
  if (tuned.is(ValueKind::Function) || tuned.isObj(ObjKind::Partial)) {
    CallArgs callArgs = args;
    Value r = call(tuned, callArgs, at);
    if (r.isException()) {
      pending = {};
      CallArgs none;
      r = call(tuned, none, at);
    }
    if (r.isException())
      pending = {};
    tuned = r.isSequence() ? r : Value::none();
  }
  for (size_t i = args.pos.size(); i < fn->params.size(); ++i) {
    llvm::StringRef name = fn->params[i].identifier();
    if (args.keyword(name))
      continue;
    // The autotuner passes each configuration's values as keywords, over
    // the parameters' defaults.
    Value v;
    bool fromConfig = false;
    if (tuned.isSequence() && !getElems(tuned).empty()) {
      auto configs = getElems(tuned);
      auto known = llvm::find_if(out.autotuned, [&](const auto &k) {
        return k.first == fn->name;
      });
      if (known == out.autotuned.end())
        out.autotuned.push_back({fn->name.str(), unsigned(configs.size())});
      if (options.autotuneConfig >= configs.size())
        return heap.opaque("JITKernel");
      Value cfg = configs[options.autotuneConfig];
      if (cfg.is(ValueKind::Dict))
        for (auto &kv : cfg.as<DictObj>()->items)
          if (kv.first.isStr() && getStr(kv.first) == name) {
            v = kv.second;
            fromConfig = true;
          }
    }
    if (!fromConfig && i >= firstDefault)
      continue;
    if (v.isNone() && !fromConfig) {
      symbolKinds[name] = /*Meta=*/2;
      v = Value::sym(syms.symbol(name));
      madeSymbol = true;
    }
    args.kw.push_back({name, v});
    args.kwNodes.push_back(at);
  }
  // The label names the completed arguments: `matmul(M=M, ...)` says which
  // parameters stayed symbols or came from an autotune config.
  label = closureLabel(fn, makeLabel(fn->name, args));
  // A factory the kernel --kernel asked for calls while it is traced
  // (`return copy_kernel(N)`, `.prim_func` of it) builds that kernel's
  // instance: it is traced under the asked kernel's name and label.
  std::optional<JitFrame> askedOuter;
  if (!options.kernelFilter.empty() && fn->name != options.kernelFilter)
    for (const JitFrame &frame : jitContext)
      if (frame.kernel == options.kernelFilter)
        askedOuter = frame;
  if (!options.kernelFilter.empty() && fn->name != options.kernelFilter &&
      !askedOuter) {
    filteredKernels.insert(fn->name);
    return heap.opaque("JITKernel");
  }
  if (tracedLabels.count(fn->name) &&
      llvm::is_contained(tracedLabels[fn->name], label))
    return heap.opaque("JITKernel");
  if (!budgetExhausted &&
      overInstanceLimit(*this, fn->name, label, {}, callSiteRange(at, args)))
    return heap.opaque("JITKernel");
  // A call site counts as an instance even when its factory raises before
  // building a kernel: no default instance is made for it then.
  if (!tracingDefaults)
    tracedLabels[fn->name];
  std::optional<TargetInfo> jitTarget;
  if (!jit->target.empty() && !options.targetExplicit)
    jitTarget = TargetInfo::parse(jit->target);
  if (askedOuter)
    jitContext.push_back(
        {askedOuter->kernel, askedOuter->label, jit->build, jitTarget});
  else
    jitContext.push_back({fn->name.str(), label, jit->build, jitTarget});
  TraceState saved(*this);
  instance = nullptr;
  traced = false;
  // The instance --kernel asked for, its parameters all bound by -D,
  // configs and defaults: what it raises is an error even without a call
  // site.
  bool asked = options.kernelFilter == fn->name || askedOuter;
  bool warnOnly = tracingDefaults && (madeSymbol || !asked);
  bool outerSymbolic = defaultsSymbolic;
  defaultsSymbolic = madeSymbol || !asked;
  Value r = callFunction(fn, args, at);
  defaultsSymbolic = outerSymbolic;
  jitContext.pop_back();
  if (r.isException()) {
    // Attribute the failure to this instance.
    std::string msg = pending.type;
    if (!pending.message.empty())
      msg += ": " + pending.message;
    Diagnostic d;
    // With no call site, the parameters are symbols and a check on them
    // (`if n <= 0: raise ...`) took an assumed branch: not the program's
    // error.
    d.severity = warnOnly ? Severity::Warning : Severity::Error;
    d.range = pending.range.empty() ? at.range() : pending.range;
    d.message = msg;
    if (!warnOnly && !budgetExhausted)
      out.errorCategories.push_back({d.range, d.message, pending.type,
                                     /*atCompile=*/false});
    d.notes.push_back({fn->def.getIdentifier().range, "in instance " + label});
    if (warnOnly)
      d.notes.push_back({fn->def.getIdentifier().range,
                         kDefaultInstanceNote.str()});
    if (!budgetExhausted)
      out.diagnostics.push_back(std::move(d));
    pending = {};
    return heap.opaque("JITKernel");
  }
  // Its call signature (KernelCalls.cpp). A later call with the same label
  // is not this instance for certain (closure values are not in the
  // label): its kernel stays unmodelled.
  return compiledKernel(r, jit->outIdx, fn->name);
}

void Interpreter::traceDefaultInstances() {
  tracingDefaults = true;
  auto restore = llvm::make_scope_exit([&] { tracingDefaults = false; });
  // A factory the module reads only inside `with pytest.raises` blocks (a
  // kernel its tests expect TileLang to refuse): what its trace reports is
  // what they expect. Not for --trace-expected-failures or --defines-only.
  const char *traceExpected = std::getenv("TLC_TRACE_EXPECTED_FAILURES");
  auto expectedToFailAtModuleLevel = [&](llvm::StringRef name) {
    return options.callSites &&
           !(traceExpected && llvm::StringRef(traceExpected) == "1") &&
           (usedOnlyWhereExpectedToFail(tree.root(), name) ||
            passedOnlyWhereExpectedToFail(tree.root(), name));
  };
  for (Value v : kernelsSeen) {
    if (budgetExhausted)
      return;
    JitFunctionObj *jit = v.as<JitFunctionObj>();
    if (tracedLabels.count(jit->fn->name))
      continue;
    // A factory the tests call only inside `with pytest.raises` (one
    // TileLang must refuse): what its trace reports is what they expect.
    bool expectFailure = expectedToFailAtModuleLevel(jit->fn->name);
    expectedFailureDepth += expectFailure;
    CallArgs none;
    callJit(jit, none, jit->fn->def, true);
    expectedFailureDepth -= expectFailure;
  }
  // Plain factories returning a prim_func that nothing called.
  for (Node stmt : topLevel) {
    if (budgetExhausted)
      return;
    if (stmt.kind() != NodeKind::FunctionDef || !containsPrimFunc(stmt))
      continue;
    llvm::StringRef name = stmt.identifier();
    if (tracedLabels.count(name))
      continue;
    auto it = moduleEnv->vars.find(name);
    if (it == moduleEnv->vars.end() || !it->second.is(ValueKind::Function))
      continue;
    FunctionObj *fn = it->second.as<FunctionObj>();
    CallArgs args;
    size_t firstDefault = fn->params.size() - fn->defaults.size();
    bool madeSymbol = false;
    for (size_t i = 0; i < fn->params.size(); ++i) {
      llvm::StringRef p = fn->params[i].identifier();
      Value val;
      if (std::optional<Value> d = defineFor(p))
        val = *d;
      else if (i >= firstDefault)
        continue; // its default
      else {
        symbolKinds[p] = /*Meta=*/2;
        val = Value::sym(syms.symbol(p));
        madeSymbol = true;
      }
      args.kw.push_back({p, val});
      args.kwNodes.push_back(stmt);
    }
    // Keyword-only parameters (after `*`): -D, else their defaults, else
    // symbols.
    for (size_t i = 0; i < fn->kwOnly.size(); ++i) {
      llvm::StringRef p = fn->kwOnly[i].identifier();
      Value val;
      if (std::optional<Value> d = defineFor(p))
        val = *d;
      else if (i < fn->kwDefaults.size() && !fn->kwDefaults[i].isException())
        continue;
      else {
        symbolKinds[p] = /*Meta=*/2;
        val = Value::sym(syms.symbol(p));
        madeSymbol = true;
      }
      args.kw.push_back({p, val});
      args.kwNodes.push_back(stmt);
    }
    std::string label = makeLabel(name, args);
    jitContext.push_back({name.str(), label, BuildConfigs(), std::nullopt});
    TraceState saved(*this);
    instance = nullptr;
    traced = false;
    defaultsSymbolic = madeSymbol || options.kernelFilter != name;
    bool expectFailure = expectedToFailAtModuleLevel(name);
    expectedFailureDepth += expectFailure;
    Value r = callFunction(fn, args, stmt);
    expectedFailureDepth -= expectFailure;
    jitContext.pop_back();
    if (r.isException())
      reportEscaped(*this, stmt);
    defaultsSymbolic = true;
  }
}

/// The most parametrized combinations of one test that --check runs.
static constexpr size_t kMaxParametrizedCases = 64;

/// The names a `pytest.mark.parametrize` decorator binds and its cases.
static bool parametrizeCases(Interpreter &in, Value deco,
                             llvm::SmallVectorImpl<llvm::StringRef> &argNames,
                             llvm::ArrayRef<Value> &cases) {
  auto *p = deco.as<NamespaceObj>();
  Value names = *p->find("argnames");
  Value values = *p->find("argvalues");
  if (names.isStr()) {
    llvm::SmallVector<llvm::StringRef, 4> parts;
    getStr(names).split(parts, ',', -1, false);
    for (llvm::StringRef s : parts)
      argNames.push_back(s.trim());
  } else if (names.isSequence()) {
    for (Value n : getElems(names))
      if (n.isStr())
        argNames.push_back(getStr(n));
  }
  if (argNames.empty() || !values.isSequence() || getElems(values).empty())
    return false;
  cases = getElems(values);
  return true;
}

/// The values case \p c binds to \p argNames; false when they disagree.
static bool caseValues(Value c, size_t count,
                       llvm::SmallVectorImpl<Value> &vals) {
  if (count == 1)
    vals.push_back(c);
  else if (c.isSequence())
    vals.append(getElems(c).begin(), getElems(c).end());
  return vals.size() == count;
}

/// True when case \p i of the parametrize decorator \p deco is a value tlc
/// could not evaluate.
static bool caseIsOpaque(Value deco, size_t i) {
  Value values = *deco.as<NamespaceObj>()->find("argvalues");
  return values.isSequence() && i < getElems(values).size() &&
         getElems(values)[i].is(ValueKind::Opaque);
}

/// The arguments of one combination of a function's parametrize decorators
/// (`@pytest.mark.parametrize("M, N", [(128, 64), ...])`), as keywords:
/// case \p caseOf[k] of decorator k (the first case where \p caseOf has no
/// entry).
static bool parametrizedCase(Interpreter &in, FunctionObj *fn, CallArgs &args,
                             llvm::ArrayRef<size_t> caseOf = {}) {
  for (size_t k = 0; k < fn->parametrize.size(); ++k) {
    llvm::SmallVector<llvm::StringRef, 4> argNames;
    llvm::ArrayRef<Value> cases;
    if (!parametrizeCases(in, fn->parametrize[k], argNames, cases))
      return false;
    size_t i = k < caseOf.size() ? caseOf[k] : 0;
    llvm::SmallVector<Value, 4> vals;
    if (i >= cases.size() || !caseValues(cases[i], argNames.size(), vals))
      return false;
    for (size_t j = 0; j < vals.size(); ++j) {
      args.kw.push_back({in.heap.copyString(argNames[j]), vals[j]});
      args.kwNodes.push_back(fn->def);
    }
  }
  return true;
}

/// True when case \p c passes a function no trace has run yet: a factory
/// that only appears as a parametrize value (`[make_a, make_b]`, or a
/// `functools.partial` of one).
static bool passesUntracedFunction(
    Value c,
    const llvm::StringMap<llvm::SmallVector<std::string, 2>> &tracedLabels) {
  llvm::SmallVector<Value, 4> vals;
  if (c.isSequence())
    vals.append(getElems(c).begin(), getElems(c).end());
  else
    vals.push_back(c);
  for (Value v : vals) {
    // `partial(make_kernel, "float16")`: the factory it binds.
    while (v.isObj(ObjKind::Partial))
      v = v.as<PartialObj>()->fn;
    if (v.is(ValueKind::Function) &&
        !tracedLabels.count(v.as<FunctionObj>()->name))
      return true;
    if (v.isObj(ObjKind::JitFunction) &&
        !tracedLabels.count(v.as<JitFunctionObj>()->fn->name))
      return true;
  }
  return false;
}

Value Interpreter::runTestFunctions(Node at) {
  ranTests = true;
  for (Node stmt : topLevel) {
    if (budgetExhausted)
      break;
    if (stmt.kind() != NodeKind::FunctionDef ||
        !stmt.identifier().starts_with("test"))
      continue;
    Value fn = lookupModuleGlobal(stmt.identifier());
    if (!fn.is(ValueKind::Function))
      continue;
    FunctionObj *f = fn.as<FunctionObj>();
    auto runCase = [&](llvm::ArrayRef<size_t> caseOf) {
      CallArgs args;
      if (!parametrizedCase(*this, f, args, caseOf))
        return;
      // Only tests that need no fixtures: every parameter is given or has a
      // default.
      size_t required = f->params.size() - f->defaults.size();
      size_t given = 0;
      for (Node p : f->params)
        if (args.keyword(p.identifier()))
          ++given;
      if (given < required)
        return;
      // An IR visitor of another test does not make this one's
      // assertions unchecked.
      Node visitBefore = irVisitCall;
      irVisitCall = Node();
      Value r = callFunction(f, args, at);
      if (r.isException())
        reportUncaught(stmt.range(), stmt.identifier());
      irVisitCall = visitBefore;
    };
    // Every combination of the decorators' cases, as pytest runs them
    // (the topmost decorator's case varying fastest), up to
    // kMaxParametrizedCases: an error of a later value is found, and the
    // hints come from the first combination, traced first.
    llvm::SmallVector<size_t, 4> counts;
    for (size_t k = 0; k < f->parametrize.size(); ++k) {
      llvm::SmallVector<llvm::StringRef, 4> argNames;
      llvm::ArrayRef<Value> cases;
      if (!parametrizeCases(*this, f->parametrize[k], argNames, cases))
        break;
      counts.push_back(cases.size());
    }
    if (counts.size() != f->parametrize.size()) {
      runCase({}); // parametrizedCase refuses it, as it refuses these cases
      continue;
    }
    size_t total = 1;
    for (size_t n : counts)
      total = n && total > kMaxParametrizedCases / n ? kMaxParametrizedCases + 1
                                                     : total * n;
    size_t run = std::min(total, kMaxParametrizedCases);
    llvm::SmallVector<size_t, 4> caseOf(counts.size(), 0);
    for (size_t c = 0; c < run && !budgetExhausted; ++c) {
      size_t rest = c;
      bool unknown = false;
      for (size_t k = counts.size(); k-- > 0;) {
        caseOf[k] = rest % counts[k];
        rest /= counts[k];
        // A later case tlc cannot evaluate (a `pytest.param(...)` whose
        // marks may skip it) is not run with an unknown value.
        unknown |= caseOf[k] > 0 && caseIsOpaque(f->parametrize[k], caseOf[k]);
      }
      if (!unknown)
        runCase(caseOf);
    }
    if (total <= kMaxParametrizedCases)
      continue;
    report(Severity::Remark, stmt.getIdentifier().range,
           "checked the first " + llvm::Twine(kMaxParametrizedCases) +
               " parametrized cases of " + stmt.identifier() +
               "; the others are not traced");
    // Past the bound, a case that passes a factory nothing has traced yet
    // still runs, so the factory is traced with the arguments the test
    // gives it rather than alone with defaults.
    for (size_t k = 0; k < f->parametrize.size(); ++k) {
      llvm::SmallVector<llvm::StringRef, 4> argNames;
      llvm::ArrayRef<Value> cases;
      if (!parametrizeCases(*this, f->parametrize[k], argNames, cases))
        break;
      for (size_t i = 1; i < cases.size() && !budgetExhausted; ++i)
        if (passesUntracedFunction(cases[i], tracedLabels)) {
          llvm::SmallVector<size_t, 4> only(counts.size(), 0);
          only[k] = i;
          runCase(only);
        }
    }
  }
  return Value::none();
}

void Interpreter::runTestsCallingUntracedKernels() {
  llvm::StringSet<> untraced;
  for (Value v : kernelsSeen) {
    llvm::StringRef name = v.as<JitFunctionObj>()->fn->name;
    if (!tracedLabels.count(name))
      untraced.insert(name);
  }
  if (untraced.empty())
    return;
  for (Node stmt : topLevel) {
    if (budgetExhausted)
      return;
    if (stmt.kind() != NodeKind::FunctionDef ||
        !stmt.identifier().starts_with("test"))
      continue;
    // A call of an untraced kernel by name, outside nested functions.
    llvm::StringRef called;
    for (Node s : stmt.children(Field::body))
      syntax::walk(s, [&](Node n) {
        if (n.kind() == NodeKind::FunctionDef ||
            n.kind() == NodeKind::AsyncFunctionDef ||
            n.kind() == NodeKind::Lambda || n.kind() == NodeKind::ClassDef)
          return syntax::WalkResult::Skip;
        if (n.kind() == NodeKind::Call) {
          Node callee = n.child(Field::func);
          // `kernel.compile(M=...)` calls the kernel as much as `kernel(...)`.
          if (callee && callee.kind() == NodeKind::Attribute &&
              callee.identifier() == "compile")
            callee = callee.child(Field::value);
          if (callee && callee.kind() == NodeKind::Name &&
              untraced.count(callee.identifier()) &&
              !tracedLabels.count(callee.identifier())) {
            called = callee.identifier();
            return syntax::WalkResult::Interrupt;
          }
        }
        return syntax::WalkResult::Advance;
      });
    if (called.empty())
      continue;
    Value fn = lookupModuleGlobal(stmt.identifier());
    if (!fn.is(ValueKind::Function))
      continue;
    FunctionObj *f = fn.as<FunctionObj>();
    if (f->params.size() != f->defaults.size())
      continue;
    CallArgs args;
    Value r = callFunction(f, args, stmt);
    if (r.isException()) {
      // Python would not run this test: what it raises is no error of the
      // program (the kernel's own errors are reported by its instance).
      std::string msg = pending.type;
      if (!pending.message.empty())
        msg += ": " + pending.message;
      report(Severity::Warning,
             pending.range.empty() ? stmt.range() : pending.range,
             msg + " (raised while running " + stmt.identifier() +
                 " for a call site of " + called + ")",
             pending.type);
      pending = {};
    }
  }
}

void Interpreter::checkKernelFilter() {
  llvm::StringRef want = options.kernelFilter;
  if (want.empty() || budgetExhausted || tracedLabels.count(want))
    return;
  llvm::StringSet<> names;
  for (const auto &k : filteredKernels)
    names.insert(k.getKey());
  for (Value v : kernelsSeen)
    names.insert(v.as<JitFunctionObj>()->fn->name);
  for (Node stmt : topLevel)
    if (stmt.kind() == NodeKind::FunctionDef &&
        (containsPrimFunc(stmt) ||
         llvm::any_of(stmt.children(Field::decorator_list), [](Node d) {
           return d.text().ends_with("prim_func");
         })))
      names.insert(stmt.identifier());
  if (names.count(want))
    return;
  llvm::SmallVector<llvm::StringRef, 8> sorted;
  for (const auto &k : names)
    sorted.push_back(k.getKey());
  llvm::sort(sorted);
  std::string msg = "--kernel=" + want.str() + " names no kernel of this file";
  if (sorted.empty())
    msg += " (it has none)";
  else
    msg += "; its kernels (the @tilelang.jit functions and prim_func "
           "factories): " + llvm::join(sorted, ", ");
  // A file-level fact: reported at the start of the file.
  error(TextRange{0, 0}, msg);
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

void Interpreter::reportUncaught(TextRange where, llvm::StringRef what) {
  TextRange at = pending.range.empty() ? where : pending.range;
  std::string running = what.str();
  if (pending.type == "AssertionError" && irVisitCall && !pending.definite) {
    // The assertion tests what a TVM IR visitor collected (a list it
    // appends to, a flag it sets); tlc ran no callback, so the assertion's
    // outcome says nothing about the program.
    unsigned line = tree.lines().toUtf8(irVisitCall.range().begin).line + 1;
    warning(at, "tlc cannot check this assertion (in " + running +
                    "): it may test what the TVM IR visitor called at line " +
                    llvm::Twine(line) +
                    " collected, and tlc builds no TVM IR for it to walk, "
                    "so its callback never ran");
    pending = {};
    return;
  }
  std::string msg = pending.type;
  if (!pending.message.empty())
    msg += ": " + pending.message;
  report(pending.definite ? Severity::Error : Severity::Warning, at,
         msg + " (raised while running " + running + ")", pending.type);
  pending = {};
}

/// True when the module imports pytest at its top level: a test module
/// whatever its file is called (pytest collects it under its own name; a
/// copy saved as `dir__test_x.py` still holds the same tests).
static bool importsPytest(llvm::ArrayRef<Node> topLevel) {
  for (Node stmt : topLevel) {
    if (stmt.kind() == NodeKind::ImportFrom) {
      if (stmt.identifier(Field::module).split('.').first == "pytest")
        return true;
    } else if (stmt.kind() == NodeKind::Import) {
      for (Node a : stmt.children(Field::names))
        if (a.identifier(Field::name).split('.').first == "pytest")
          return true;
    }
  }
  return false;
}

void Interpreter::run() {
  checkUndefinedNames();
  for (Node stmt : topLevel) {
    if (budgetExhausted)
      break;
    // Statements may already have run through lazy global resolution.
    Flow f = exec(stmt);
    if (f == Flow::Raise && !budgetExhausted)
      reportUncaught(stmt.range(), "module-level code");
  }
  // A pytest file (`test_*.py`, `*_test.py`, or one importing pytest) runs
  // its tests even without `tilelang.testing.main()`: that is how pytest
  // runs it. Not with
  // --defines-only, whose instances come from the -D bindings alone.
  llvm::StringRef base = llvm::sys::path::filename(tree.fileName());
  if (!ranTests && !budgetExhausted && options.callSites &&
      (base.starts_with("test_") || base.ends_with("_test.py") ||
       importsPytest(topLevel)))
    runTestFunctions(tree.root());
  // Otherwise a test the script does not run may still call a kernel
  // nothing else instantiates: its arguments describe the kernel better
  // than symbols do.
  if (!ranTests && !budgetExhausted && options.callSites)
    runTestsCallingUntracedKernels();
  traceDefaultInstances();
  checkKernelFilter();
  // Undefined names no evaluation reached are warnings, like pyflakes:
  // Python raises only if the code runs, and TileLang runs what it traces.
  for (Node n : undefinedNames) {
    std::string msg = ("undefined name '" + n.identifier() + "'").str();
    if (!wasReported(Severity::Error, n.range(), msg))
      warning(n, msg);
  }
  for (auto &[k, v] : options.defines)
    if (!usedDefines.count(k) &&
        llvm::find(out.unusedDefines, k) == out.unusedDefines.end()) {
      out.unusedDefines.push_back(k);
      // A file-level fact: reported at the start of the file.
      warning(TextRange{0, 0},
              "-D " + k + "=" + v +
                  " binds nothing: no kernel or factory parameter, T.const "
                  "name or argparse option is named '" + k + "'");
    }
  out.environReads = environReads;
  llvm::sort(out.environReads);
  out.environReadAll = environReadAll;
  out.steps = steps;
  out.budgetExhausted = budgetExhausted;
  out.bytesAllocated = heap.getBytesAllocated();
  out.module = mlir::OwningOpRef<mlir::ModuleOp>(ir->module);
  std::stable_sort(out.diagnostics.begin(), out.diagnostics.end(),
                   [](const Diagnostic &a, const Diagnostic &b) {
                     return a.range.begin < b.range.begin;
                   });
}
