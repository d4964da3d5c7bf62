//===- InstanceTracing.cpp - Tracing kernel instances ---------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Tracing turns one kernel instance into a tile.func: a @T.prim_func
// definition (now, or with T.build_prim_func's parameters), an eager @jit
// body for bound arguments, a call of a jit factory (lazy or eager), and
// at the end the kernels no call site instantiated, traced with their
// defaults and -D values and unbound parameters kept as symbols.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Instances.h"
#include "Primitives.h"

#include "tlc/Syntax/StringLiteral.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"

#include <cstdlib>

using namespace tlc;
using namespace tlc::eval;
using lang::BuiltinId;

namespace tlc::eval {
/// True when the body of \p owner reads \p name only inside `with
/// pytest.raises` blocks, at least once (Definitions.cpp).
bool usedOnlyWhereExpectedToFail(syntax::Node owner, llvm::StringRef name,
                                 unsigned bindings = 0);
/// True when \p name is read only as a parametrize value of a test that
/// uses it only inside `with pytest.raises` blocks (Definitions.cpp).
bool passedOnlyWhereExpectedToFail(syntax::Node module, llvm::StringRef name);
/// Whether an uncaught exception may come from testing what a TVM IR
/// visitor collected (Instances.cpp).
bool mayTestVisitorResult(const PendingException &e);
} // namespace tlc::eval

//===----------------------------------------------------------------------===//
// Instance limits and nested traces
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

/// True when a diagnostic other than a note was reported at \p at.
static bool reportedAt(Interpreter &in, TextRange at) {
  return llvm::any_of(in.out.diagnostics, [&](const Diagnostic &d) {
    return d.range == at && d.severity != Severity::Note;
  });
}

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
    // A function the module already ran (a test called from `__main__`
    // that contains a prim_func) raises the same exception again: what the
    // first run reported there (an assertion over a TVM IR visitor tlc
    // cannot check, say) stands alone.
    if (!reportedAt(in, at)) {
      Diagnostic d;
      d.severity = Severity::Warning;
      d.range = at;
      d.message = msg;
      d.notes.push_back({fallback.range(), kDefaultInstanceNote.str()});
      in.out.diagnostics.push_back(std::move(d));
    }
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
    // The functions running are called with real arguments (`build(256,
    // 128)` returning `kernel_func(64)`): none of them gets a default
    // instance with symbols in place of those arguments.
    for (const auto &frame : callStack)
      factoriesRun.insert(frame.first->name);
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
  // TileLang's autotuned call takes `__return_kernel=` for itself (it pops
  // it before the factory sees its arguments).
  if (!jit->autotuneConfigs.isNone())
    for (size_t i = 0; i < args.kw.size(); ++i)
      if (args.kw[i].first == "__return_kernel") {
        args.kw.erase(args.kw.begin() + i);
        if (i < args.kwNodes.size())
          args.kwNodes.erase(args.kwNodes.begin() + i);
        break;
      }
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
  llvm::StringRef unknownConfig;
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
  bool configsUnknown = !jit->autotuneConfigs.isNone() &&
                        (!tuned.isSequence() || getElems(tuned).empty() ||
                         llvm::any_of(getElems(tuned), [](Value c) {
                           return !c.is(ValueKind::Dict);
                         }));
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
    // A parameter the tuner fills (a None default) from configs tlc could
    // not evaluate (the carver's recommend_hints; a loop over its unknown
    // hints leaves the list empty): TileLang runs the factory only with a
    // configuration, never with the None.
    if (!fromConfig && i >= firstDefault && configsUnknown &&
        fn->defaults[i - firstDefault].isNone() && unknownConfig.empty())
      unknownConfig = name;
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
  if (!unknownConfig.empty()) {
    // Said once, at the call (not again for the factory's own trace).
    if (!tracingDefaults)
      report(Severity::Remark, at.range(),
             "tlc cannot evaluate the autotune configs of '" + fn->name +
                 "', so it does not trace this call: its parameter '" +
                 unknownConfig +
                 "' is only ever given by a configuration (its default "
                 "is None)");
    return heap.opaque("JITKernel");
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
    if (tracedLabels.count(name) || factoriesRun.count(name))
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
    // The function's own IR visitors decide whether an assertion of it
    // can be checked (a test no code calls, walking the IR it built).
    Node visitBefore = irVisitCall;
    irVisitCall = Node();
    Value r = callFunction(fn, args, stmt);
    expectedFailureDepth -= expectFailure;
    jitContext.pop_back();
    if (r.isException()) {
      if (irVisitCall && mayTestVisitorResult(pending)) {
        TextRange at = pending.range.empty() ? stmt.range() : pending.range;
        if (reportedAt(*this, at))
          pending = {};
        else
          reportUncaught(stmt.range(), name);
      } else
        reportEscaped(*this, stmt);
    }
    irVisitCall = visitBefore;
    defaultsSymbolic = true;
  }
}
