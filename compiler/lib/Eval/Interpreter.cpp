//===- Interpreter.cpp - Names, statements, functions and calls -----------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "IRGen.h"
#include "tlc/Eval/Slices.h"
#include "tlc/Support/ThreadClock.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>
#include <functional>

using namespace tlc;
using namespace tlc::eval;

namespace tlc::eval {
bool usedOnlyWhereExpectedToFail(syntax::Node owner, llvm::StringRef name,
                                 unsigned bindings = 0);
bool passedOnlyWhereExpectedToFail(syntax::Node module, llvm::StringRef name);
} // namespace tlc::eval
using syntax::BinaryOp;

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

void tlc::eval::collectTargetNames(Node target,
                                   llvm::SmallVectorImpl<Node> &out) {
  switch (target.kind()) {
  case NodeKind::Name:
    out.push_back(target);
    break;
  case NodeKind::Tuple:
  case NodeKind::List:
    for (Node e : target.children(Field::elts))
      collectTargetNames(e, out);
    break;
  case NodeKind::Starred:
    collectTargetNames(target.child(Field::value), out);
    break;
  default:
    break;
  }
}

static void indexGlobals(
    Node stmt,
    llvm::DenseMap<llvm::StringRef, llvm::SmallVector<Node, 1>> &defs) {
  auto add = [&](llvm::StringRef name) {
    if (!name.empty())
      defs[name].push_back(stmt);
  };
  switch (stmt.kind()) {
  case NodeKind::Assign:
  case NodeKind::AnnAssign:
  case NodeKind::AugAssign: {
    llvm::SmallVector<Node, 4> names;
    for (Node t : stmt.children(stmt.kind() == NodeKind::Assign
                                    ? Field::targets
                                    : Field::target))
      collectTargetNames(t, names);
    for (Node n : names)
      add(n.identifier());
    break;
  }
  case NodeKind::FunctionDef:
  case NodeKind::AsyncFunctionDef:
  case NodeKind::ClassDef:
    add(stmt.identifier());
    break;
  case NodeKind::Import:
  case NodeKind::ImportFrom:
    for (Node a : stmt.children(Field::names)) {
      llvm::StringRef as = a.identifier(Field::asname);
      llvm::StringRef name = a.identifier(Field::name);
      if (as.empty() && stmt.kind() == NodeKind::Import)
        name = name.split('.').first;
      add(as.empty() ? name : as);
    }
    break;
  default:
    break;
  }
}

Interpreter::Interpreter(const syntax::SyntaxTree &tree,
                         mlir::MLIRContext &ctx, const EvalOptions &options,
                         FileAnalysis &out)
    : tree(tree), mlirContext(ctx), options(options), out(out) {
  moduleEnv = heap.make<Env>();
  env = moduleEnv;
  ir = std::make_unique<IRGen>(*this);
  if (options.statements.empty()) {
    for (Node stmt : tree.root().children(Field::body))
      topLevel.push_back(stmt);
  } else {
    llvm::SmallVector<Node, 0> all =
        tree.root().children(Field::body).toVector();
    for (unsigned i : options.statements)
      if (i < all.size())
        topLevel.push_back(all[i]);
  }
  for (Node stmt : topLevel) {
    indexGlobals(stmt, globalDefs);
    // Imports guarded by try/if at top level are common.
    if (stmt.kind() == NodeKind::Try || stmt.kind() == NodeKind::If)
      for (Node inner : stmt.children(Field::body))
        indexGlobals(inner, globalDefs);
  }
}

Interpreter::~Interpreter() = default;

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

/// The deduplication key of a diagnostic.
static std::pair<uint32_t, unsigned> reportKey(Severity sev, TextRange range,
                                               llvm::StringRef text) {
  return std::make_pair(range.begin,
                        unsigned(llvm::hash_combine(llvm::hash_value(text),
                                                    range.end, int(sev))));
}

bool Interpreter::wasReported(Severity sev, TextRange range,
                              llvm::StringRef text) const {
  return reported.count(reportKey(sev, range, text));
}

Value Interpreter::dtypeCheckFailed(Node n, const llvm::Twine &msg) {
  if (!instance || !instance->assumedDType)
    return fail(n, msg);
  // The instance of a factory nothing calls says nothing of a value only a
  // call supplies (TileLang traces no such factory), as the unbound dtype
  // itself is silent there (Primitives.cpp); --kernel asking for it warns.
  bool uncalled =
      tracingDefaults && defaultsSymbolic && options.kernelFilter.empty();
  if (!uncalled)
    warning(n, msg + " (this instance analyses a dtype no call binds as "
                     "float32; the real dtype may not fail here)");
  return Value::poison();
}

void Interpreter::report(Severity sev, TextRange range,
                         const llvm::Twine &msg, llvm::StringRef category,
                         bool atCompile) {
  std::string text = msg.str();
  bool expected = sev == Severity::Error && expectedFailureDepth > 0;
  if (expected) {
    sev = Severity::Warning;
    text += " (the test expects this kernel to fail: it uses it only inside "
            "`with pytest.raises`)";
  }
  if (foreignDepth > 0) {
    range = foreignAnchor;
    text = ("in module '" + foreignModule + "': " + text).str();
  }
  if (!reported.insert(reportKey(sev, range, text)).second)
    return;
  Diagnostic d;
  d.severity = sev;
  d.range = range;
  d.message = std::move(text);
  if (!category.empty())
    out.errorCategories.push_back(
        {d.range, d.message, category.str(), atCompile});
  if (instance && (sev == Severity::Error || expected) &&
      !instance->label.empty())
    d.notes.push_back(
        {instance->def.range().empty() ? range
                                       : instance->def.getIdentifier().range,
         "in instance " + instance->label});
  out.diagnostics.push_back(std::move(d));
}

Value Interpreter::raise(llvm::StringRef type, const llvm::Twine &msg,
                         TextRange range) {
  pending.type = type.str();
  pending.message = msg.str();
  pending.range = range;
  pending.definite = false;
  if (foreignDepth > 0) {
    pending.range = foreignAnchor;
    pending.message += " (raised in module '" + foreignModule.str() + "')";
  }
  return Value::exception();
}

bool Interpreter::step(Node at) {
  if (budgetExhausted)
    return false;
  if (steps % EvalOptions::kCancelPollSteps == 0) {
    double now = threadCpuSeconds();
    if (steps == 0)
      startSeconds = now;
    double seconds = now - startSeconds;
    std::string exhausted;
    if (options.cancelled && options.cancelled())
      exhausted = "analysis cancelled";
    else if (seconds > options.timeBudgetSeconds)
      exhausted = "evaluation time budget exhausted (" +
                  llvm::formatv("{0:F1}", options.timeBudgetSeconds).str() +
                  " s)";
    else if (heap.getBytesAllocated() > options.memoryBudgetBytes)
      exhausted = "evaluation memory budget exhausted (" +
                  std::to_string(options.memoryBudgetBytes >> 20) +
                  " MiB of Python objects)";
    if (!exhausted.empty()) {
      budgetExhausted = true;
      error(at, exhausted + "; the rest of the file is not analysed");
      return false;
    }
  }
  if (++steps > options.stepBudget) {
    budgetExhausted = true;
    error(at, "evaluation budget exhausted (" +
                  llvm::Twine(options.stepBudget) +
                  " steps); the rest of the file is not analysed");
    return false;
  }
  if (instanceBudget) {
    std::string spent = InstanceBudget::spent(*this);
    if (!spent.empty()) {
      budgetExhausted = true;
      instanceBudget->markExhausted();
      error(at, spent + "; the file's other instances are analysed");
      return false;
    }
  }
  return true;
}

Interpreter::InstanceBudget::InstanceBudget(Interpreter &in)
    : in(in), outer(in.instanceBudget), startSteps(in.steps),
      startSeconds(threadCpuSeconds()),
      startBytes(in.heap.getBytesAllocated()) {
  in.instanceBudget = this;
}

Interpreter::InstanceBudget::~InstanceBudget() { finish(); }

void Interpreter::InstanceBudget::finish() {
  if (finished)
    return;
  finished = true;
  in.instanceBudget = outer;
  if (exhausted)
    in.budgetExhausted = false;
}

std::string Interpreter::InstanceBudget::spent(Interpreter &in) {
  const InstanceBudget &b = *in.instanceBudget;
  const EvalOptions &o = in.options;
  if (in.steps - b.startSteps > o.stepBudget / 2)
    return "evaluation budget of this instance exhausted (" +
           std::to_string(o.stepBudget / 2) + " steps, half the file's)";
  // Time and memory at the file budget's polls only.
  if (in.steps % EvalOptions::kCancelPollSteps != 0)
    return "";
  double seconds = threadCpuSeconds() - b.startSeconds;
  if (seconds > o.timeBudgetSeconds / 2)
    return "evaluation time budget of this instance exhausted (" +
           llvm::formatv("{0:F1}", o.timeBudgetSeconds / 2).str() +
           " s, half the file's)";
  if (in.heap.getBytesAllocated() - b.startBytes > o.memoryBudgetBytes / 2)
    return "evaluation memory budget of this instance exhausted (" +
           std::to_string(o.memoryBudgetBytes >> 21) +
           " MiB of Python objects, half the file's)";
  return "";
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

static const char *const kPythonBuiltinNames[] = {
    "True", "False", "None", "__name__", "__file__", "__doc__",
    "NotImplemented", "Ellipsis", "ValueError", "TypeError", "RuntimeError",
    "AssertionError", "KeyError", "IndexError", "NotImplementedError",
    "ImportError", "ModuleNotFoundError", "AttributeError", "ZeroDivisionError",
    "StopIteration", "OverflowError", "ArithmeticError", "LookupError",
    "OSError", "FileNotFoundError", "KeyboardInterrupt", "SystemExit",
    "Warning", "UserWarning", "DeprecationWarning", "BaseException",
    "property", "staticmethod", "classmethod", "bytes",
    "bytearray", "complex", "memoryview", "slice", "vars", "dir", "id",
    "hex", "oct", "bin", "chr", "ord", "format", "globals", "locals",
    "exec", "eval", "compile", "issubclass", "exit", "quit", "breakpoint",
    "__import__", "ascii", "delattr", "aiter", "anext", "help",
    "GeneratorExit", "StopAsyncIteration", "BaseExceptionGroup",
    "ExceptionGroup", "copyright", "credits", "license"};

Value Interpreter::lookupBuiltinName(llvm::StringRef name) {
  if (name == "__name__") {
    if (foreignDepth > 0)
      return heap.str(foreignModule);
    return heap.strNoCopy(options.runMain ? "__main__" : "__tlc__");
  }
  if (name == "__file__")
    return heap.str(tree.fileName());
  if (name == "Ellipsis")
    return Value::ellipsis();
  if (name == "__debug__")
    return Value::boolean(true);
  if (name.starts_with("__") && name.ends_with("__"))
    return heap.opaque(name);
  if (std::optional<NativeId> id = findNative(("builtins." + name).str()))
    return Value::native(uint32_t(*id));
  if (name.ends_with("Error") || name.ends_with("Exception") ||
      name.ends_with("Warning") || name == "StopIteration" ||
      name == "KeyboardInterrupt" || name == "SystemExit") {
    auto *cls = heap.make<NamespaceObj>();
    cls->name = name;
    return heap.obj(ObjKind::Exception, cls);
  }
  for (const char *b : kPythonBuiltinNames)
    if (name == b)
      return heap.opaque(name);
  return Value::poison();
}

bool Interpreter::isBuiltinName(llvm::StringRef name) {
  if (name.starts_with("__") && name.ends_with("__"))
    return true;
  if (findNative(("builtins." + name).str()))
    return true;
  if (name.ends_with("Error") || name.ends_with("Exception") ||
      name.ends_with("Warning"))
    return true;
  for (const char *b : kPythonBuiltinNames)
    if (name == b)
      return true;
  return false;
}

Value Interpreter::lookupModuleGlobal(llvm::StringRef name) {
  auto it = moduleEnv->vars.find(name);
  if (it != moduleEnv->vars.end())
    return it->second;
  auto defIt = globalDefs.find(name);
  if (defIt == globalDefs.end() || !resolvingGlobals.insert(name).second)
    return Value::poison();
  // Lazy resolution: run the defining top-level statements now, outside
  // of any kernel being traced.
  {
    TopLevelScope top(*this, moduleEnv);
    for (Node stmt : defIt->second)
      if (exec(stmt) == Flow::Raise)
        break;
  }
  resolvingGlobals.erase(name);
  it = moduleEnv->vars.find(name);
  return it != moduleEnv->vars.end() ? it->second : Value::poison();
}

Value Interpreter::lookup(llvm::StringRef name, Node at) {
  for (Env *e = env; e; e = e->parent) {
    auto it = e->vars.find(name);
    if (it != e->vars.end())
      return it->second;
    if (e == moduleEnv)
      break;
  }
  Value v = lookupModuleGlobal(name);
  if (!v.isPoison())
    return v;
  v = lookupBuiltinName(name);
  if (!v.isPoison())
    return v;
  // A name bound somewhere on a path the evaluator has not taken (or by a
  // statement that failed) is unknown rather than undefined; truly
  // undefined names are reported by the static check (NameCheck.cpp).
  for (const std::string &mod : tileLangStarImports) {
    std::string qualified = mod == "tilelang.language"
                                ? ("T." + name).str()
                                : (mod + "." + name).str();
    if (lang::lookupBuiltin(qualified) || findNative(mod + "." + name.str()))
      return moduleAttr(importModule(mod).as<ModuleObj>(), name, at);
  }
  if (hasOpaqueStarImport || (fileNames && fileNames->bound.count(name)))
    return heap.opaque(name);
  error(at, "undefined name '" + name + "'");
  return Value::poison();
}

void Interpreter::bind(llvm::StringRef name, Value v) {
  if (env != moduleEnv) {
    if (llvm::is_contained(env->globals, name)) {
      moduleEnv->vars[name] = v;
      return;
    }
    if (llvm::is_contained(env->nonlocals, name)) {
      for (Env *e = env->parent; e && e != moduleEnv; e = e->parent) {
        auto it = e->vars.find(name);
        if (it != e->vars.end()) {
          it->second = v;
          return;
        }
      }
    }
  }
  env->vars[name] = v;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

Flow Interpreter::execBody(Node owner, Field field) {
  for (Node stmt : owner.children(field)) {
    Flow f = exec(stmt);
    if (f != Flow::Normal)
      return f;
  }
  return Flow::Normal;
}

Flow Interpreter::exec(Node stmt) {
  if (!step(stmt))
    return Flow::Raise;
  switch (stmt.kind()) {
  case NodeKind::Expr:
    return execExpr(stmt);
  case NodeKind::Assign:
    return execAssign(stmt);
  case NodeKind::AugAssign:
    return execAugAssign(stmt);
  case NodeKind::AnnAssign:
    return execAnnAssign(stmt);
  case NodeKind::For:
    return execFor(stmt);
  case NodeKind::While:
    return execWhile(stmt);
  case NodeKind::If:
    return execIf(stmt);
  case NodeKind::With:
    return execWith(stmt);
  case NodeKind::Try:
  case NodeKind::TryStar:
    return execTry(stmt);
  case NodeKind::Import:
    return execImport(stmt);
  case NodeKind::ImportFrom:
    return execImportFrom(stmt);
  case NodeKind::FunctionDef:
    return execFunctionDef(stmt);
  case NodeKind::AsyncFunctionDef:
    bind(stmt.identifier(), heap.opaque("coroutine function"));
    return Flow::Normal;
  case NodeKind::ClassDef:
    return execClassDef(stmt);
  case NodeKind::Assert:
    return execAssert(stmt);
  case NodeKind::Raise:
    return execRaise(stmt);
  case NodeKind::Return:
    return execReturn(stmt);
  case NodeKind::Pass:
    return Flow::Normal;
  case NodeKind::Break:
    return Flow::Break;
  case NodeKind::Continue:
    return Flow::Continue;
  case NodeKind::Global:
    for (const syntax::Identifier &id : stmt.identifiers(Field::names))
      env->globals.push_back(id.name);
    return Flow::Normal;
  case NodeKind::Nonlocal:
    for (const syntax::Identifier &id : stmt.identifiers(Field::names))
      env->nonlocals.push_back(id.name);
    return Flow::Normal;
  case NodeKind::Delete:
    for (Node t : stmt.children(Field::targets))
      if (!deleteTarget(t))
        return Flow::Raise;
    return Flow::Normal;
  case NodeKind::Error:
    return Flow::Normal;
  case NodeKind::Match:
    // Traced, every pattern would compare a symbolic subject and the
    // wildcard arm would be taken whatever the value; TileLang rejects the
    // statement in a kernel (a NotImplementedError naming its line).
    if (tracing()) {
      TextRange at = foreignDepth > 0 ? foreignAnchor : stmt.range();
      unsigned line = tree.lines().toUtf8(at.begin).line + 1;
      errorAs("NotImplementedError",
              {stmt.range().begin, stmt.range().begin + 5},
              "`match` is not supported in a TileLang kernel (line " +
                  llvm::Twine(line) + "); write it as an if/elif chain");
      return Flow::Normal;
    }
    // Outside kernels: not evaluated (as async with/for, type aliases).
    return Flow::Normal;
  default:
    // async with/for, type aliases: not evaluated.
    return Flow::Normal;
  }
}

Flow Interpreter::execExpr(Node stmt) {
  Value v = eval(stmt.child(Field::value));
  return flowOf(v);
}

Flow Interpreter::execAssign(Node stmt) {
  // `program = factory(...)` whose value the test reads only inside `with
  // pytest.raises` (`tilelang.compile(program)` is meant to fail): what
  // tracing the factory reports is what the test expects.
  const char *traceExpected = std::getenv("TLC_TRACE_EXPECTED_FAILURES");
  bool expectFailure = false;
  if (options.callSites &&
      !(traceExpected && llvm::StringRef(traceExpected) == "1") &&
      !callStack.empty() && stmt.child(Field::value).kind() == NodeKind::Call) {
    auto targets = stmt.children(Field::targets).toVector();
    expectFailure = targets.size() == 1 &&
                    targets[0].kind() == NodeKind::Name &&
                    usedOnlyWhereExpectedToFail(callStack.back().first->def,
                                                targets[0].identifier(),
                                                /*bindings=*/1);
  }
  expectedFailureDepth += expectFailure;
  Value v = eval(stmt.child(Field::value));
  expectedFailureDepth -= expectFailure;
  if (v.isException())
    return Flow::Raise;
  // `s = T.rng_init(...)`: the call is a statement (TileLang #3029).
  if (v.isNone() && kernel && kernel->lastRngInit == stmt.child(Field::value)) {
    error(stmt.child(Field::value),
          "T.rng_init is a value-less expression: it starts the thread's "
          "generator and cannot be bound to a variable");
    return Flow::Normal;
  }
  for (Node target : stmt.children(Field::targets)) {
    Flow f = assign(target, v);
    if (f != Flow::Normal)
      return f;
  }
  return Flow::Normal;
}

bool Interpreter::varInScope(BufferObj *buf) {
  mlir::Block *def = buf->value ? buf->value.getParentBlock() : nullptr;
  if (!def || !ir->b.getInsertionBlock())
    return true;
  for (mlir::Block *at = ir->b.getInsertionBlock(); at;) {
    if (at == def)
      return true;
    mlir::Operation *parent = at->getParentOp();
    at = parent ? parent->getBlock() : nullptr;
  }
  return false;
}

bool Interpreter::checkVarInScope(BufferObj *buf, Node at) {
  if (buf->scope != lang::MemoryScope::LocalVar || varInScope(buf))
    return true;
  // TileLang raises this as a RuntimeError ("... outside its defining
  // region").
  errorAs("RuntimeError", at.range(),
          "T.alloc_var '" + buf->name +
              "' is used after the region that declared it ended, outside "
              "its defining region (it exists only inside that loop or "
              "branch; declare it before it)");
  if (buf->range.begin != buf->range.end)
    report(Severity::Note, buf->range, "'" + buf->name + "' declared here");
  return false;
}

bool Interpreter::checkLoopTargetInScope(mlir::Value value,
                                         llvm::StringRef name, Node at) {
  auto arg = llvm::dyn_cast_or_null<mlir::BlockArgument>(value);
  mlir::Block *insert = ir->b.getInsertionBlock();
  if (!arg || !insert)
    return true;
  mlir::Block *def = arg.getOwner();
  // Meta-level code run at the module's end (IRGen::InsertionGuard) reads
  // no kernel value into IR; only check inside a function being traced.
  bool inFunction = false;
  for (mlir::Block *at = insert; at;) {
    if (at == def)
      return true;
    mlir::Operation *parent = at->getParentOp();
    if (parent && !llvm::isa<mlir::ModuleOp>(parent))
      inFunction = true;
    at = parent ? parent->getBlock() : nullptr;
  }
  if (!inFunction)
    return true;
  errorAs("RuntimeError", at.range(),
          "'" + name.str() +
              "' is the target of a loop that has ended, read outside its "
              "defining region; it exists only inside that loop (keep the "
              "value in a T.alloc_var declared before the loop)");
  return false;
}

Flow Interpreter::assign(Node target, Value v) {
  switch (target.kind()) {
  case NodeKind::Name: {
    llvm::StringRef name = target.identifier();
    // Assigning to a T.alloc_var (or to a T.Ref parameter of a macro bound
    // to a buffer element) stores into it.
    if (tracing()) {
      auto it = env->vars.find(name);
      if (it != env->vars.end() && it->second.is(ValueKind::Buffer) &&
          it->second.as<BufferObj>()->scope == lang::MemoryScope::LocalVar &&
          !v.is(ValueKind::Buffer) && varInScope(it->second.as<BufferObj>()))
        return irStore(it->second, v, target);
      if (it != env->vars.end() && it->second.is(ValueKind::Region) &&
          it->second.as<RegionObj>()->isElement && isRefParam(name))
        return irStore(it->second, v, target);
    }
    if (v.is(ValueKind::Buffer) && v.as<BufferObj>()->name.empty())
      nameBuffer(v.as<BufferObj>(), name, target);
    // `t = S[i]` binds the element's value at this point (TileLang's
    // immutable Bind of a BufferLoad), not a reference read again where
    // `t` is used: a store to S[i] in between must not change t.
    if (tracing() && v.is(ValueKind::Region) && v.as<RegionObj>()->isElement &&
        !isRefParam(name)) {
      Scalar s = toScalar(v, target);
      if (s.value)
        v = wrapScalar(s);
    }
    bind(name, v);
    return Flow::Normal;
  }
  case NodeKind::Tuple:
  case NodeKind::List: {
    if (v.isPoison()) {
      llvm::SmallVector<Node, 4> names;
      collectTargetNames(target, names);
      for (Node n : names)
        bind(n.identifier(), v);
      return Flow::Normal;
    }
    llvm::SmallVector<Value, 8> items;
    if (!iterate(v, items, target))
      return Flow::Raise;
    llvm::SmallVector<Node, 4> elts(target.children(Field::elts).begin(),
                                    target.children(Field::elts).end());
    int starIdx = -1;
    for (unsigned i = 0; i < elts.size(); ++i)
      if (elts[i].kind() == NodeKind::Starred)
        starIdx = int(i);
    if (starIdx < 0) {
      if (items.size() != elts.size()) {
        if (v.is(ValueKind::Opaque)) {
          for (Node e : elts)
            if (assign(e, heap.opaque("unpacked value")) != Flow::Normal)
              return Flow::Raise;
          return Flow::Normal;
        }
        raise("ValueError",
              items.size() < elts.size()
                  ? "not enough values to unpack (expected " +
                        llvm::Twine(elts.size()) + ", got " +
                        llvm::Twine(items.size()) + ")"
                  : "too many values to unpack (expected " +
                        llvm::Twine(elts.size()) + ")",
              target);
        return Flow::Raise;
      }
      for (unsigned i = 0; i < elts.size(); ++i)
        if (assign(elts[i], items[i]) != Flow::Normal)
          return Flow::Raise;
      return Flow::Normal;
    }
    unsigned before = starIdx, after = elts.size() - starIdx - 1;
    if (items.size() < before + after) {
      raise("ValueError", "not enough values to unpack", target);
      return Flow::Raise;
    }
    for (unsigned i = 0; i < before; ++i)
      if (assign(elts[i], items[i]) != Flow::Normal)
        return Flow::Raise;
    llvm::ArrayRef<Value> mid(items.data() + before,
                              items.size() - before - after);
    if (assign(elts[starIdx].child(Field::value), heap.list(mid)) !=
        Flow::Normal)
      return Flow::Raise;
    for (unsigned i = 0; i < after; ++i)
      if (assign(elts[starIdx + 1 + i], items[items.size() - after + i]) !=
          Flow::Normal)
        return Flow::Raise;
    return Flow::Normal;
  }
  case NodeKind::Subscript: {
    Value obj = eval(target.child(Field::value));
    if (obj.isException())
      return Flow::Raise;
    Value idx = eval(target.child(Field::slice));
    if (idx.isException())
      return Flow::Raise;
    if (obj.isPoison() || idx.isPoison() || v.isPoison())
      return Flow::Normal;
    if (obj.is(ValueKind::Buffer) || obj.is(ValueKind::Region)) {
      if (obj.is(ValueKind::Region))
        obj = Value::object(ValueKind::Buffer, obj.as<RegionObj>()->buffer);
      Value ref = makeRegion(obj.as<BufferObj>(), idx, target);
      if (ref.isAbrupt())
        return flowOf(ref);
      return irStore(ref, v, target);
    }
    if (obj.is(ValueKind::List)) {
      auto &elems = obj.as<SeqObj>()->elems;
      if (!idx.isIntLike()) {
        raise("TypeError", "list indices must be integers", target);
        return Flow::Raise;
      }
      int64_t i = idx.getInt();
      if (i < 0)
        i += int64_t(elems.size());
      if (i < 0 || i >= int64_t(elems.size())) {
        raise("IndexError", "list assignment index out of range", target);
        return Flow::Raise;
      }
      elems[i] = v;
      return Flow::Normal;
    }
    if (obj.is(ValueKind::Dict)) {
      auto &items = obj.as<DictObj>()->items;
      for (auto &kv : items)
        if (equals(kv.first, idx).value_or(false)) {
          kv.second = v;
          return Flow::Normal;
        }
      items.push_back({idx, v});
      return Flow::Normal;
    }
    return Flow::Normal; // Opaque containers absorb stores.
  }
  case NodeKind::Attribute: {
    Value obj = eval(target.child(Field::value));
    if (obj.isException())
      return Flow::Raise;
    if (obj.is(ValueKind::Object) &&
        (obj.getObjKind() == ObjKind::Namespace ||
         obj.getObjKind() == ObjKind::Instance ||
         obj.getObjKind() == ObjKind::Class))
      obj.as<NamespaceObj>()->set(target.identifier(), v);
    return Flow::Normal;
  }
  case NodeKind::Starred:
    return assign(target.child(Field::value), v);
  default:
    error(target, "cannot assign to this expression");
    return Flow::Normal;
  }
}

Flow Interpreter::execAugAssign(Node stmt) {
  Node target = stmt.child(Field::target);
  Value rhs = eval(stmt.child(Field::value));
  if (rhs.isException())
    return Flow::Raise;
  BinaryOp op = stmt.op();
  // `s |= t` of sets updates s in place (another name for s sees it).
  auto apply = [&](Value cur) {
    if (cur.is(ValueKind::Set) && !cur.as<SetObj>()->frozen &&
        rhs.is(ValueKind::Set) &&
        (op == BinaryOp::BitOr || op == BinaryOp::BitAnd ||
         op == BinaryOp::Sub || op == BinaryOp::BitXor))
      return setInPlace(op, cur, rhs, stmt);
    return binary(op, cur, rhs, stmt);
  };
  if (target.kind() == NodeKind::Name) {
    Value cur = lookup(target.identifier(), target);
    if (cur.is(ValueKind::Buffer) &&
        cur.as<BufferObj>()->scope == lang::MemoryScope::LocalVar) {
      Value ref = makeRegion(cur.as<BufferObj>(), Value::integer(0), target);
      Value r = binary(op, ref, rhs, stmt);
      if (r.isAbrupt())
        return flowOf(r);
      return irStore(cur, r, stmt);
    }
    // In-place list extension keeps aliasing semantics.
    if (op == BinaryOp::Add && cur.is(ValueKind::List) && rhs.isSequence()) {
      auto &elems = cur.as<SeqObj>()->elems;
      llvm::SmallVector<Value, 8> add(getElems(rhs).begin(),
                                      getElems(rhs).end());
      elems.append(add.begin(), add.end());
      return Flow::Normal;
    }
    Value r = apply(cur);
    if (r.isException())
      return Flow::Raise;
    bind(target.identifier(), r);
    return Flow::Normal;
  }
  if (target.kind() == NodeKind::Subscript) {
    Value obj = eval(target.child(Field::value));
    if (obj.isException())
      return Flow::Raise;
    Value idx = eval(target.child(Field::slice));
    if (idx.isException())
      return Flow::Raise;
    Value cur = subscript(obj, idx, target);
    if (cur.isException())
      return Flow::Raise;
    Value r = apply(cur);
    if (r.isException())
      return Flow::Raise;
    if (obj.is(ValueKind::Buffer))
      return irStore(cur, r, stmt);
    if (obj.is(ValueKind::List) && idx.isIntLike()) {
      auto &elems = obj.as<SeqObj>()->elems;
      int64_t i = idx.getInt();
      if (i < 0)
        i += int64_t(elems.size());
      if (i >= 0 && i < int64_t(elems.size()))
        elems[i] = r;
      return Flow::Normal;
    }
    if (obj.is(ValueKind::Dict)) {
      for (auto &kv : obj.as<DictObj>()->items)
        if (equals(kv.first, idx).value_or(false))
          kv.second = r;
    }
    return Flow::Normal;
  }
  if (target.kind() == NodeKind::Attribute) {
    Value obj = eval(target.child(Field::value));
    if (obj.isException())
      return Flow::Raise;
    Value cur = getAttr(obj, target.identifier(), target);
    if (cur.isException())
      return Flow::Raise;
    Value r = apply(cur);
    if (r.isException())
      return Flow::Raise;
    if (obj.is(ValueKind::Object) &&
        (obj.getObjKind() == ObjKind::Namespace ||
         obj.getObjKind() == ObjKind::Instance ||
         obj.getObjKind() == ObjKind::Class))
      obj.as<NamespaceObj>()->set(target.identifier(), r);
    return Flow::Normal;
  }
  return Flow::Normal;
}

Flow Interpreter::execAnnAssign(Node stmt) {
  Node target = stmt.child(Field::target);
  Node valueNode = stmt.child(Field::value);
  if (valueNode) {
    Value v = eval(valueNode);
    if (v.isException())
      return Flow::Raise;
    // `b: T.float32x4 = A[0, 0:4]`: a vector let of a region's elements.
    if (target.kind() == NodeKind::Name && tracing() &&
        v.is(ValueKind::Region) && !v.as<RegionObj>()->isElement) {
      Value ann = eval(stmt.child(Field::annotation));
      if (ann.isException())
        return Flow::Raise;
      if (ann.is(ValueKind::DType) && ann.getDType().isVector())
        v = vectorLet(v.as<RegionObj>(), ann.getDType(), target);
    }
    return assign(target, v);
  }
  // `A: T.Tensor((M, K), dtype)` in an eager body declares a tensor.
  if (target.kind() != NodeKind::Name || !tracing())
    return Flow::Normal;
  Value ann = eval(stmt.child(Field::annotation));
  if (ann.isException())
    return Flow::Raise;
  if (ann.isObj(ObjKind::TensorType)) {
    Value buf = makeTensorFromAnnotation(ann, target.identifier(), target);
    if (buf.isException())
      return Flow::Raise;
    bind(target.identifier(), buf);
    return Flow::Normal;
  }
  // `alpha: T.float32` for a parameter of an eager kernel that no value
  // bound (still its own symbol): a run-time float scalar parameter; `X:
  // T.ptr` (or `T.handle`) a pointer parameter, as the same annotation in
  // the signature makes it. An integer one stays the symbol, bound at
  // launch.
  bool isPtr = (ann.is(ValueKind::Primitive) &&
                ann.getPrimitive()->getCanonical().id == lang::BuiltinId::Ptr) ||
               (ann.is(ValueKind::DType) &&
                ann.getDType().getScalarType() == lang::ScalarType::Handle);
  if (((ann.is(ValueKind::DType) && ann.getDType().isFloat()) || isPtr) &&
      instance) {
    llvm::StringRef name = target.identifier();
    auto it = env->vars.find(name);
    SymExpr s = it != env->vars.end() && it->second.is(ValueKind::Sym)
                    ? it->second.getSym()
                    : SymExpr();
    if (s.isSymbol() && s.getNode()->name == name) {
      lang::DType dt =
          isPtr ? lang::DType(lang::ScalarType::Handle) : ann.getDType();
      mlir::Value arg =
          ir->addParam(ir->valueType(dt), ir->nameLoc(name, target.range()));
      it->second = wrapScalar({arg, dt, SymExpr()});
    }
  }
  return Flow::Normal;
}

namespace {
/// Marks the body of a loop the interpreter expands (Interpreter::
/// expandedLoops) while it runs.
struct ExpandedLoopScope {
  Interpreter &in;
  explicit ExpandedLoopScope(Interpreter &in) : in(in) {
    in.expandedLoops.push_back(in.loops.size());
  }
  ~ExpandedLoopScope() { in.expandedLoops.pop_back(); }
};
} // namespace

Flow Interpreter::execFor(Node stmt) {
  Value iter = eval(stmt.child(Field::iter));
  if (iter.isException())
    return Flow::Raise;
  if (iter.isPoison())
    return Flow::Normal;
  if (iter.isObj(ObjKind::LoopFrame) ||
      (traced && tracing() && iter.is(ValueKind::Range))) {
    if (!tracing()) {
      error(stmt.child(Field::iter),
            "TileLang loops can only be used inside a kernel");
      return Flow::Normal;
    }
    LoopFrameObj *loop;
    if (iter.is(ValueKind::Range)) {
      // range() inside a traced body is T.serial.
      RangeObj *r = iter.as<RangeObj>();
      loop = heap.make<LoopFrameObj>();
      loop->objKind = ObjKind::LoopFrame;
      loop->loopKind = LoopKind::Serial;
      loop->starts.push_back(Value::integer(r->start));
      loop->stops.push_back(Value::integer(r->stop));
      loop->steps.push_back(Value::integer(r->step));
      loop->call = stmt.child(Field::iter);
    } else {
      loop = iter.as<LoopFrameObj>();
    }
    return execIRLoop(loop, stmt, stmt.child(Field::target));
  }
  if (iter.is(ValueKind::Opaque))
    return Flow::Normal; // Unknown iteration count: skip the loop.
  ExpandedLoopScope expanded(*this);
  Node target = stmt.child(Field::target);
  // One iteration with \p item bound to the target: nullopt to go on, else
  // the flow the loop ends with.
  auto iteration = [&](Value item) -> std::optional<Flow> {
    if (!step(stmt) || assign(target, item) != Flow::Normal)
      return Flow::Raise;
    Flow f = execBody(stmt, Field::body);
    if (f == Flow::Break)
      return Flow::Normal;
    if (f == Flow::Return || f == Flow::Raise)
      return f;
    return std::nullopt;
  };
  if (iter.isObj(ObjKind::Iterator)) {
    // One value at a time: a `break` leaves the rest for the next reader.
    IteratorObj *it = iter.as<IteratorObj>();
    while (it->pos < it->items.size())
      if (std::optional<Flow> f = iteration(it->items[it->pos++]))
        return *f;
    return execBody(stmt, Field::orelse);
  }
  if (iter.is(ValueKind::Range)) {
    RangeObj *r = iter.as<RangeObj>();
    for (int64_t i = r->start; r->step > 0 ? i < r->stop : i > r->stop;
         i += r->step)
      if (std::optional<Flow> f = iteration(Value::integer(i)))
        return *f;
    return execBody(stmt, Field::orelse);
  }
  llvm::SmallVector<Value, 16> items;
  if (!iterate(iter, items, stmt.child(Field::iter)))
    return Flow::Raise;
  for (Value item : items)
    if (std::optional<Flow> f = iteration(item))
      return *f;
  return execBody(stmt, Field::orelse);
}

Flow Interpreter::execWhile(Node stmt) {
  Node test = stmt.child(Field::test);
  ExpandedLoopScope expanded(*this);
  while (true) {
    if (!step(stmt))
      return Flow::Raise;
    // Remember where the IR ends: an IR condition is rebuilt inside the
    // tile.while, so the ops of this first evaluation are dropped.
    mlir::Block *block = ir->b.getInsertionBlock();
    mlir::Operation *last =
        block && !block->empty() ? &block->back() : nullptr;
    Value c = eval(test);
    Truth t = truth(c, test);
    if (t == Truth::Abrupt)
      return flowOf(c.isException() ? c : Value::none());
    if (t == Truth::IR) {
      if (!tracing())
        return Flow::Normal;
      if (block)
        while (!block->empty() && &block->back() != last &&
               block->back().use_empty())
          block->back().erase();
      return execIRWhile(stmt);
    }
    if (t == Truth::Unknown)
      warnUnknownCondition(c, test, "the loop is assumed not to run");
    if (t != Truth::True)
      break;
    Flow f = execBody(stmt, Field::body);
    if (f == Flow::Break)
      return Flow::Normal;
    if (f == Flow::Return || f == Flow::Raise)
      return f;
  }
  return execBody(stmt, Field::orelse);
}

Flow Interpreter::execIf(Node stmt) {
  Node test = stmt.child(Field::test);
  Value c = eval(test);
  switch (truth(c, test)) {
  case Truth::Unknown: {
    // A check of values from outside TileLang whose branch only raises
    // (`if int(idx.max()) >= n: raise ValueError(...)`) is assumed to
    // pass, as an assert on such a value is: the program runs without
    // raising, and taking the raise would end the analysis of the code
    // that launches its kernels.
    // (A check that reads a symbolic parameter keeps the `if` branch: a
    // default instance's raise is a warning there,
    // Eval/default-instance-raise.py.)
    bool readsSymbol = false;
    syntax::walk(test, [&](Node n) {
      if (n.kind() == NodeKind::Lambda || n.kind() == NodeKind::ListComp ||
          n.kind() == NodeKind::SetComp || n.kind() == NodeKind::DictComp ||
          n.kind() == NodeKind::GeneratorExp)
        return syntax::WalkResult::Skip;
      if (n.kind() != NodeKind::Name)
        return syntax::WalkResult::Advance;
      Value v = lookup(n.identifier(), n);
      if (v.isException())
        pending = {};
      readsSymbol |= v.is(ValueKind::Sym);
      return readsSymbol ? syntax::WalkResult::Interrupt
                         : syntax::WalkResult::Advance;
    });
    auto body = stmt.children(Field::body);
    if (c.is(ValueKind::Opaque) && !readsSymbol &&
        std::distance(body.begin(), body.end()) == 1 &&
        (*body.begin()).kind() == NodeKind::Raise) {
      warnUnknownCondition(c, test, "the check is assumed to pass");
      return execBody(stmt, Field::orelse);
    }
    warnUnknownCondition(c, test, "the `if` branch is assumed");
    return execBody(stmt, Field::body);
  }
  case Truth::True:
    return execBody(stmt, Field::body);
  case Truth::False:
    return execBody(stmt, Field::orelse);
  case Truth::IR:
    return execIRIf(c, stmt);
  case Truth::Abrupt:
    return c.isException() ? Flow::Raise : Flow::Normal;
  }
  return Flow::Normal;
}

Flow Interpreter::execWith(Node stmt) {
  llvm::SmallVector<Node, 2> items(stmt.children(Field::items).begin(),
                                   stmt.children(Field::items).end());
  for (unsigned itemIndex = 0; itemIndex < items.size(); ++itemIndex) {
    Node item = items[itemIndex];
    Node ctxNode = item.child(Field::context_expr);
    // `with T.While(cond):` evaluates its condition on every iteration,
    // so the call is not evaluated here.
    if (ctxNode.kind() == NodeKind::Call && traced &&
        (ctxNode.child(Field::func).kind() == NodeKind::Attribute ||
         ctxNode.child(Field::func).kind() == NodeKind::Name)) {
      Value fn = eval(ctxNode.child(Field::func));
      if (fn.isException())
        return Flow::Raise;
      if (fn.is(ValueKind::Primitive) &&
          fn.getPrimitive()->getCanonical().id == lang::BuiltinId::While) {
        Node cond;
        for (Node a : ctxNode.children(Field::args)) {
          cond = a;
          break;
        }
        if (!tracing() || !kernel) {
          error(stmt, "T.While can only be used inside a T.Kernel region");
          return Flow::Normal;
        }
        return execIRWhile(stmt, cond);
      }
    }
    Value ctx = eval(ctxNode);
    if (ctx.isException())
      return Flow::Raise;
    Node var = item.child(Field::optional_vars);
    if (ctx.isObj(ObjKind::KernelFrame)) {
      // `with T.Kernel(n) as bx, T.SimtVF(threads=t):` (Ascend): the
      // kernel's body is the vector function's.
      bool ascend = false;
      if (items.size() == 2 && itemIndex == 0) {
        Node other = items[1].child(Field::context_expr);
        Value f = eval(other);
        if (f.isException())
          return Flow::Raise;
        if (f.isObj(ObjKind::GenericFrame) &&
            f.as<FrameObj>()->id == lang::BuiltinId::SimtVF) {
          ascend = true;
          ascendKernelFrame = f.as<FrameObj>();
        }
      }
      if (items.size() > 1 && !ascend)
        warning(item, "other context managers of this `with` are ignored");
      return execKernel(ctx.as<KernelFrameObj>(), stmt, var);
    }
    if (ctx.isObj(ObjKind::GenericFrame)) {
      if (items.size() > 1 && !isIfThenPair(stmt))
        warning(item, "other context managers of this `with` are ignored");
      return execFrame(ctx.as<FrameObj>(), stmt, var);
    }
    // `with T.Persistent(...) as (bx, by):` is TVM's frame form of the
    // loop: the body is the loop body, the names its variables.
    if (ctx.isObj(ObjKind::LoopFrame)) {
      if (itemIndex + 1 != items.size())
        warning(item, "the context managers after this loop frame are "
                      "ignored");
      if (tracing())
        return execIRLoop(ctx.as<LoopFrameObj>(), stmt, var);
      return execLoopFrameOutsideKernel(ctx.as<LoopFrameObj>(), stmt, var);
    }
    // `with pytest.raises(...)`: code that is meant to fail, not
    // evaluated, unless asked for (`tlc-build --trace-expected-failures`:
    // the Python package checks a prim_func defined there for the error
    // TileLang raises).
    if (ctx.is(ValueKind::Opaque) &&
        ctx.as<OpaqueObj>()->description == "pytest.raises") {
      const char *trace = std::getenv("TLC_TRACE_EXPECTED_FAILURES");
      if (!trace || llvm::StringRef(trace) != "1")
        return Flow::Normal;
    }
    // A launch tlc could not make (reported already): its body would only
    // repeat that every allocation is outside a kernel.
    if (ctx.isPoison() && traced && !kernel)
      return Flow::Normal;
    if (var && assign(var, ctx) != Flow::Normal)
      return Flow::Raise;
  }
  return execBody(stmt, Field::body);
}

Flow Interpreter::execImport(Node stmt) {
  for (Node alias : stmt.children(Field::names)) {
    llvm::StringRef name = alias.identifier(Field::name);
    llvm::StringRef as = alias.identifier(Field::asname);
    if (std::optional<Value> local = importSibling(name, 0, stmt)) {
      if (local->isException())
        return Flow::Raise;
      // `import pkg.mod` binds `pkg`; `import pkg.mod as m` the module.
      llvm::StringRef top = name.split('.').first;
      bind(as.empty() ? top : as,
           as.empty() ? Value::object(ValueKind::Module,
                                      siblingModules.lookup(top))
                      : *local);
    } else if (missingModule(name, alias)) {
      return Flow::Raise;
    } else if (!as.empty()) {
      bind(as, importModule(name));
    } else {
      llvm::StringRef top = name.split('.').first;
      bind(top, importModule(top));
    }
  }
  return Flow::Normal;
}

/// `from <local module> import name`: the module's global, else its
/// submodule when it is a package, else Python's ImportError.
Value Interpreter::importFromLocal(ModuleObj *m, llvm::StringRef name,
                                   Node alias) {
  auto it = m->globals->vars.find(name);
  if (it != m->globals->vars.end())
    return it->second;
  if (!m->dir.empty()) {
    std::optional<Value> sub =
        loadLocalModule((m->name + "." + name).str(), alias);
    if (sub && !sub->isException())
      return *sub;
    if (sub)
      pending = {};
  }
  return raiseDefinite("ImportError",
                       "cannot import name '" + name + "' from '" + m->name +
                           "'",
                       alias);
}

Flow Interpreter::execImportFrom(Node stmt) {
  llvm::StringRef modName = stmt.identifier(Field::module);
  unsigned level = stmt.importLevel();
  // `from . import helper`: the names are modules of the package (or, in
  // the analysed file's directory, modules next to it).
  if (modName.empty() && level > 0) {
    std::optional<Value> pkg = importSibling("", level, stmt);
    if (pkg && pkg->isException())
      return Flow::Raise;
    for (Node alias : stmt.children(Field::names)) {
      llvm::StringRef name = alias.identifier(Field::name);
      llvm::StringRef as = alias.identifier(Field::asname);
      Value v;
      if (pkg) {
        v = importFromLocal(pkg->as<ModuleObj>(), name, alias);
      } else if (std::optional<Value> sib =
                     importSibling(name, level, stmt)) {
        v = *sib;
      } else {
        v = heap.opaque(name);
      }
      if (v.isException())
        return Flow::Raise;
      bind(as.empty() ? name : as, v);
    }
    return Flow::Normal;
  }
  if (std::optional<Value> sib = importSibling(modName, level, stmt)) {
    if (sib->isException())
      return Flow::Raise;
    auto *m = sib->as<ModuleObj>();
    for (Node alias : stmt.children(Field::names)) {
      llvm::StringRef name = alias.identifier(Field::name);
      llvm::StringRef as = alias.identifier(Field::asname);
      if (name == "*") {
        importStar(m);
        continue;
      }
      Value v = importFromLocal(m, name, alias);
      if (v.isException())
        return Flow::Raise;
      bind(as.empty() ? name : as, v);
    }
    return Flow::Normal;
  }
  if (level == 0)
    if (missingModule(modName, stmt))
      return Flow::Raise;
  if (stmt.importLevel() > 0) {
    // Relative imports refer to files tlc does not read.
    for (Node alias : stmt.children(Field::names)) {
      llvm::StringRef as = alias.identifier(Field::asname);
      llvm::StringRef name = alias.identifier(Field::name);
      if (name == "*")
        hasOpaqueStarImport = true;
      else
        bind(as.empty() ? name : as, heap.opaque(name));
    }
    return Flow::Normal;
  }
  Value mod = importModule(modName);
  for (Node alias : stmt.children(Field::names)) {
    llvm::StringRef name = alias.identifier(Field::name);
    llvm::StringRef as = alias.identifier(Field::asname);
    if (name == "*") {
      hasOpaqueStarImport = true;
      if (isTileLangModule(modName) &&
          !llvm::is_contained(tileLangStarImports, modName))
        tileLangStarImports.push_back(modName.str());
      continue;
    }
    Value v;
    // `from tilelang import language as T` imports a submodule.
    std::string sub = (modName + "." + name).str();
    if (isTileLangModule(sub))
      v = importModule(sub);
    else
      v = moduleAttr(mod.as<ModuleObj>(), name, alias);
    if (v.isAbrupt())
      v = heap.opaque(name);
    bind(as.empty() ? name : as, v);
  }
  return Flow::Normal;
}

bool Interpreter::evalDecorators(Node stmt, llvm::SmallVectorImpl<Node> &nodes,
                                 llvm::SmallVectorImpl<Value> &values) {
  for (Node d : stmt.children(Field::decorator_list)) {
    Value dv = eval(d);
    if (dv.isException())
      return false;
    nodes.push_back(d);
    values.push_back(dv);
  }
  return true;
}

/// True when \p call is `pytest.raises(...)`.
static bool isPytestRaises(Node call) {
  if (!call || call.kind() != NodeKind::Call)
    return false;
  Node callee = call.child(Field::func);
  if (!callee || callee.kind() != NodeKind::Attribute ||
      callee.identifier() != "raises")
    return false;
  Node base = callee.child(Field::value);
  return base && base.kind() == NodeKind::Name && base.identifier() == "pytest";
}

/// True when the body of \p owner reads \p name only inside `with
/// pytest.raises(...)` blocks, and reads it there at least once: a test
/// that defines a kernel to check that compiling it fails. \p bindings
/// occurrences outside the blocks are the statements that bind \p name,
/// not reads. (Also used by InstanceTracing.cpp for the factories no call site
/// instantiates.)
bool tlc::eval::usedOnlyWhereExpectedToFail(Node owner, llvm::StringRef name,
                                            unsigned bindings) {
  unsigned inside = 0, outside = 0;
  std::function<void(Node, bool)> visit = [&](Node n, bool inRaises) {
    syntax::walk(n, [&](Node m) {
      if (m.kind() == NodeKind::With) {
        bool raises = inRaises;
        for (Node item : m.children(Field::items))
          raises |= isPytestRaises(item.child(Field::context_expr));
        for (Node item : m.children(Field::items))
          visit(item, inRaises);
        for (Node s : m.children(Field::body))
          visit(s, raises);
        return syntax::WalkResult::Skip;
      }
      if (m.kind() == NodeKind::Name && m.identifier() == name)
        ++(inRaises ? inside : outside);
      return syntax::WalkResult::Advance;
    });
  };
  for (Node s : owner.children(Field::body))
    visit(s, false);
  return inside > 0 && outside == bindings;
}

/// True when \p call is `pytest.mark.parametrize(...)`.
static bool isParametrize(Node call) {
  if (!call || call.kind() != NodeKind::Call)
    return false;
  Node callee = call.child(Field::func);
  return callee && callee.kind() == NodeKind::Attribute &&
         callee.identifier() == "parametrize";
}

/// True when every read of \p name in \p module is a value of a
/// `@pytest.mark.parametrize` case whose test reads the parameter it binds
/// only inside `with pytest.raises` blocks: a factory of a kernel TileLang
/// must refuse, passed in as `make` and built as `tilelang.compile(make())`
/// where the test expects the error.
/// The list or tuple display the module assigns to \p name, when it
/// assigns it exactly once, at its top level; a null node otherwise.
static Node moduleListNamed(Node module, llvm::StringRef name) {
  Node found;
  unsigned assigned = 0;
  for (Node stmt : module.children(Field::body)) {
    if (stmt.kind() != NodeKind::Assign)
      continue;
    for (Node t : stmt.children(Field::targets))
      if (t.kind() == NodeKind::Name && t.identifier() == name) {
        ++assigned;
        found = stmt.child(Field::value);
      }
  }
  if (assigned != 1 || !found ||
      (found.kind() != NodeKind::List && found.kind() != NodeKind::Tuple))
    return Node();
  return found;
}

bool tlc::eval::passedOnlyWhereExpectedToFail(Node module,
                                              llvm::StringRef name) {
  unsigned reads = 0, expected = 0;
  syntax::walk(module, [&](Node m) {
    if (m.kind() == NodeKind::Name && m.identifier() == name &&
        m.context() == syntax::ExprContext::Load)
      ++reads;
    return syntax::WalkResult::Advance;
  });
  for (Node fn : module.children(Field::body)) {
    if (fn.kind() != NodeKind::FunctionDef)
      continue;
    for (Node deco : fn.children(Field::decorator_list)) {
      if (!isParametrize(deco))
        continue;
      llvm::SmallVector<Node, 2> args(deco.children(Field::args).begin(),
                                      deco.children(Field::args).end());
      // The cases may be a module global assigned a list once
      // (`_PRODUCERS = [(...), ...]`, passed to several tests).
      if (args.size() >= 2 && args[1].kind() == NodeKind::Name)
        args[1] = moduleListNamed(module, args[1].identifier());
      if (args.size() < 2 || !args[1] ||
          args[0].literal().kind != syntax::LiteralValue::Kind::Str ||
          (args[1].kind() != NodeKind::List &&
           args[1].kind() != NodeKind::Tuple))
        continue;
      std::string spelled = args[0].literal().text;
      llvm::SmallVector<llvm::StringRef, 4> names;
      llvm::StringRef(spelled).split(names, ',', -1, false);
      for (Node c : args[1].children(Field::elts)) {
        llvm::SmallVector<Node, 4> vals;
        // `pytest.param(a, b, id=...)`: its positional values.
        if (c.kind() == NodeKind::Call && c.child(Field::func) &&
            c.child(Field::func).identifier() == "param")
          vals.append(c.children(Field::args).begin(),
                      c.children(Field::args).end());
        else if (names.size() > 1 &&
                 (c.kind() == NodeKind::Tuple || c.kind() == NodeKind::List))
          vals.append(c.children(Field::elts).begin(),
                      c.children(Field::elts).end());
        else
          vals.push_back(c);
        for (size_t j = 0; j < vals.size() && j < names.size(); ++j)
          if (vals[j].kind() == NodeKind::Name &&
              vals[j].identifier() == name &&
              usedOnlyWhereExpectedToFail(fn, names[j].trim()))
            ++expected;
      }
    }
  }
  return reads > 0 && expected == reads;
}

Flow Interpreter::execFunctionDef(Node stmt) {
  FunctionObj *fn = makeFunction(stmt, stmt.identifier());
  if (!fn)
    return Flow::Raise;
  Value v = Value::object(ValueKind::Function, fn);
  // Decorators apply bottom-up.
  llvm::SmallVector<Node, 2> decos;
  llvm::SmallVector<Value, 2> decoValues;
  if (!evalDecorators(stmt, decos, decoValues))
    return Flow::Raise;
  // A kernel a test defines only to check that TileLang refuses it
  // (`with pytest.raises(ValueError): tilelang.compile(kernel)`): what its
  // trace reports is what the test expects, not an error of the file.
  // Not when the Python package checks such a kernel for the error
  // TileLang raises (--trace-expected-failures) or builds one instance
  // (--defines-only): there the error is what it asks for.
  const char *traceExpected = std::getenv("TLC_TRACE_EXPECTED_FAILURES");
  bool expectFailure =
      options.callSites &&
      !(traceExpected && llvm::StringRef(traceExpected) == "1") &&
      !decos.empty() && !callStack.empty() &&
      usedOnlyWhereExpectedToFail(callStack.back().first->def,
                                  stmt.identifier());
  expectedFailureDepth += expectFailure;
  auto restore =
      llvm::make_scope_exit([&] { expectedFailureDepth -= expectFailure; });
  for (unsigned i = decos.size(); i-- > 0;) {
    v = applyDecorator(decoValues[i], v, decos[i], stmt);
    if (v.isException())
      return Flow::Raise;
  }
  bind(stmt.identifier(), v);
  return Flow::Normal;
}

Flow Interpreter::execAssert(Node stmt) {
  Node test = stmt.child(Field::test);
  Value c = eval(test);
  switch (truth(c, test)) {
  case Truth::False: {
    std::string msg = "assertion failed";
    if (Node m = stmt.child(Field::msg)) {
      Value mv = eval(m);
      if (!mv.isAbrupt())
        msg = toString(mv);
    }
    raise("AssertionError", msg, test);
    return Flow::Raise;
  }
  case Truth::Abrupt:
    return c.isException() ? Flow::Raise : Flow::Normal;
  case Truth::IR: {
    // `assert cond` on an IR condition is a device-side assertion.
    if (!tracing() || !kernel)
      return Flow::Normal;
    if (Scalar s = toScalar(c, test))
      checkBooleanCondition(s, test, "Assert");
    CallArgs args;
    args.pos.push_back(c);
    args.posNodes.push_back(test);
    if (Node m = stmt.child(Field::msg)) {
      Value mv = eval(m);
      if (mv.isStr()) {
        args.pos.push_back(mv);
        args.posNodes.push_back(m);
      }
    }
    Value r = callPrimitive(*lang::lookupBuiltin("T.device_assert"), args,
                            stmt);
    return flowOf(r);
  }
  default:
    return Flow::Normal;
  }
}

Flow Interpreter::execRaise(Node stmt) {
  Node excNode = stmt.child(Field::exc);
  if (!excNode) {
    raise(pending.type.empty() ? "RuntimeError" : pending.type,
          pending.message, stmt);
    return Flow::Raise;
  }
  Value exc = eval(excNode);
  if (exc.isException())
    return Flow::Raise;
  std::string type = "Exception", msg;
  if (exc.isObj(ObjKind::Exception)) {
    auto *o = exc.as<NamespaceObj>();
    type = o->name.str();
    if (Value *args = o->find("args"))
      if (args->isSequence() && !getElems(*args).empty())
        msg = toString(getElems(*args)[0]);
  } else if (exc.is(ValueKind::Opaque)) {
    type = exc.as<OpaqueObj>()->description.str();
  }
  raise(type, msg, stmt);
  return Flow::Raise;
}

Flow Interpreter::execReturn(Node stmt) {
  Node v = stmt.child(Field::value);
  returnValue = v ? eval(v) : Value::none();
  if (returnValue.isException())
    return Flow::Raise;
  return Flow::Return;
}
