//===- Instances.cpp - Kernel instances: bookkeeping, decorators ----------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// A kernel instance is a function plus bound meta parameters. Instances come
// from running the module (call sites such as `matmul(1024, 1024, 1024)`,
// `matmul.compile(M=...)`, `tilelang.compile(func)`, calls in main() fed by
// argparse defaults), from -D bindings, and, for kernels nothing called,
// from defaults with unbound parameters kept as symbols. This file keeps
// the instances' bookkeeping (dedup, limits, targets, build configs), the
// decorators that make kernels, and the driver that runs the module and
// then traces what nothing called. Labels and -D values are in
// InstanceDefines.cpp, the traces in InstanceTracing.cpp, the file's test
// functions in TestFunctions.cpp.
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Instances.h"
#include "Primitives.h"

#include "tlc/Dialect/Tile/IR/PassConfigs.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

using namespace tlc;
using namespace tlc::eval;
using lang::BuiltinId;

//===----------------------------------------------------------------------===//
// Instance bookkeeping
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// Finding kernels
//===----------------------------------------------------------------------===//

bool tlc::eval::containsPrimFunc(Node def) {
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

bool tlc::eval::returnsPrimFuncFactory(
    FunctionObj *fn, unsigned depth,
    llvm::function_ref<Value(llvm::StringRef)> bound) {
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
// Driver
//===----------------------------------------------------------------------===//

namespace tlc::eval {
/// Whether the uncaught exception \p e may come from testing what a TVM IR
/// visitor collected (an assertion on it, or unpacking it): with such a
/// visitor in the test, not the program's failure.
bool mayTestVisitorResult(const PendingException &e);
} // namespace tlc::eval

bool tlc::eval::mayTestVisitorResult(const PendingException &e) {
  return !e.definite &&
         (e.type == "AssertionError" ||
          (e.type == "ValueError" && llvm::StringRef(e.message).starts_with(
                                         "not enough values to unpack")));
}

void Interpreter::reportUncaught(TextRange where, llvm::StringRef what) {
  TextRange at = pending.range.empty() ? where : pending.range;
  std::string running = what.str();
  if (irVisitCall && mayTestVisitorResult(pending)) {
    // The assertion tests what a TVM IR visitor collected (a list it
    // appends to, a flag it sets); tlc ran no callback, so the assertion's
    // outcome says nothing about the program: a remark, not a warning, as
    // TileLang runs the program without trouble.
    unsigned line = tree.lines().toUtf8(irVisitCall.range().begin).line + 1;
    bool unpacking = pending.type != "AssertionError";
    report(Severity::Remark, at,
           llvm::Twine("tlc cannot check this ") +
               (unpacking ? "unpacking" : "assertion") + " (in " + running +
               "): it may " + (unpacking ? "unpack" : "test") +
               " what the TVM IR visitor called at line " + llvm::Twine(line) +
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
