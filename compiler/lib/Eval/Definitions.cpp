//===- Definitions.cpp - `def` statements and decorators ------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// `def` statements: evaluating decorators, binding the function, and the
// rules that recognise names used only where a test expects a failure
// (`pytest.raises`, parametrized failing cases).
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
