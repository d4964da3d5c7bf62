//===- Interpreter.cpp - Construction, diagnostics and names --------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// The Interpreter's construction, its diagnostics (report, raise, the step
// and instance budgets) and name lookup and binding. Statements are in
// Statements.cpp, Assignments.cpp and Definitions.cpp.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "IRGen.h"
#include "Uncertain.h"
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

/// True for `if __name__ == "__main__":` (either operand order or quote).
static bool isMainGuard(Node stmt) {
  if (stmt.kind() != NodeKind::If)
    return false;
  Node test = stmt.child(Field::test);
  if (!test || test.kind() != NodeKind::Compare)
    return false;
  std::string t;
  for (char c : test.text())
    if (!llvm::isSpace(c))
      t += c == '\'' ? '"' : c;
  return t == "__name__==\"__main__\"" || t == "\"__main__\"==__name__";
}

Interpreter::Interpreter(const syntax::SyntaxTree &tree,
                         mlir::MLIRContext &ctx, const EvalOptions &options,
                         FileAnalysis &out)
    : tree(tree), mlirContext(ctx), options(options), out(out) {
  forgetUncertainValues();
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
    // Imports guarded by try/if at top level are common. Names bound in
    // the `__main__` block are not the module's when it does not run
    // (--defines-only: the module is imported, as by the Python package).
    if (stmt.kind() == NodeKind::Try ||
        (stmt.kind() == NodeKind::If &&
         (options.runMain || !isMainGuard(stmt))))
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

/// In a kernel instance, an opaque value that is an extent of one of its
/// parameters (`dhidden` from a config dict in `T.Tensor((n, dhidden))`)
/// reads as that extent's symbol, so arithmetic on it (`T.ceildiv(dhidden,
/// block)`) is an expression over the symbol rather than unknown.
static Value opaqueAsExtent(Interpreter &in, Value v) {
  if (!in.instance || !v.is(ValueKind::Opaque))
    return v;
  auto it = in.opaqueExtentSymbols.find({in.instance, v.as<OpaqueObj>()});
  if (it == in.opaqueExtentSymbols.end())
    return v;
  return Value::sym(in.syms.symbol(it->second));
}

Value Interpreter::lookup(llvm::StringRef name, Node at) {
  for (Env *e = env; e; e = e->parent) {
    auto it = e->vars.find(name);
    if (it != e->vars.end())
      return opaqueAsExtent(*this, it->second);
    if (e == moduleEnv)
      break;
  }
  Value v = lookupModuleGlobal(name);
  if (!v.isPoison())
    return opaqueAsExtent(*this, v);
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
