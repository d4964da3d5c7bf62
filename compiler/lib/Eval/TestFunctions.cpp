//===- TestFunctions.cpp - The file's pytest-style test functions ---------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `tilelang.testing.main()` and test modules: the file's `test*` functions
// that need no fixtures run with the cases of their
// `pytest.mark.parametrize` decorators, tests run that call a kernel
// nothing else instantiated, and a --kernel filter is checked to name a
// kernel of the file.
//
//===----------------------------------------------------------------------===//

#include "Instances.h"
#include "Primitives.h"

#include "llvm/ADT/StringExtras.h"

using namespace tlc;
using namespace tlc::eval;

//===----------------------------------------------------------------------===//
// Test functions
//===----------------------------------------------------------------------===//

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
