//===- Definition.cpp - Go to the binding of a name -----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Resolves a Name with Python's scoping rules, syntactically: the innermost
// function (or lambda, or comprehension) that binds the name owns it, class
// bodies are skipped for code nested in them, and the module is last.
// Within the owning scope the nearest binding before the use wins, else the
// first one.
//
//===----------------------------------------------------------------------===//

#include "Features.h"

#include "llvm/ADT/SmallVector.h"

using namespace tlc;
using namespace tlc::lsp;
using syntax::Field;
using syntax::Node;
using syntax::NodeKind;

/// True for nodes that open a Python scope.
static bool isScope(Node node) {
  switch (node.kind()) {
  case NodeKind::Module:
  case NodeKind::FunctionDef:
  case NodeKind::AsyncFunctionDef:
  case NodeKind::ClassDef:
  case NodeKind::Lambda:
  case NodeKind::ListComp:
  case NodeKind::SetComp:
  case NodeKind::DictComp:
  case NodeKind::GeneratorExp:
    return true;
  default:
    return false;
  }
}

/// Adds the ranges of Name nodes bound by a target expression.
static void addTargets(Node target, llvm::StringRef name,
                       llvm::SmallVectorImpl<TextRange> &out) {
  syntax::walk(target, [&](Node n) {
    if (n.kind() == NodeKind::Name && n.identifier() == name)
      out.push_back(n.range());
    // Attribute/Subscript targets bind nothing.
    if (n.kind() == NodeKind::Attribute || n.kind() == NodeKind::Subscript)
      return syntax::WalkResult::Skip;
    return syntax::WalkResult::Advance;
  });
}

/// Collects the bindings of `name` owned by `scope`, in source order.
static void collectBindings(Node scope, llvm::StringRef name,
                            llvm::SmallVectorImpl<TextRange> &out) {
  // Parameters.
  if (Node args = scope.child(Field::args);
      args && (isFunction(scope) || scope.kind() == NodeKind::Lambda)) {
    for (Field f : {Field::posonlyargs, Field::args, Field::vararg,
                    Field::kwonlyargs, Field::kwarg})
      for (Node arg : args.children(f))
        if (arg.identifier() == name)
          out.push_back(arg.getIdentifier().range);
  }
  auto visit = [&](Node n) {
    switch (n.kind()) {
    case NodeKind::FunctionDef:
    case NodeKind::AsyncFunctionDef:
    case NodeKind::ClassDef:
      if (n.identifier() == name)
        out.push_back(n.getIdentifier().range);
      // The body is another scope.
      return syntax::WalkResult::Skip;
    case NodeKind::Lambda:
    case NodeKind::ListComp:
    case NodeKind::SetComp:
    case NodeKind::DictComp:
    case NodeKind::GeneratorExp:
      return syntax::WalkResult::Skip;
    case NodeKind::Name:
      if (n.identifier() == name && n.context() == syntax::ExprContext::Store)
        out.push_back(n.range());
      return syntax::WalkResult::Skip;
    case NodeKind::NamedExpr:
      addTargets(n.child(Field::target), name, out);
      return syntax::WalkResult::Advance;
    case NodeKind::alias: {
      syntax::Identifier as = n.getIdentifier(Field::asname);
      if (as) {
        if (as.name == name)
          out.push_back(as.range);
      } else {
        syntax::Identifier full = n.getIdentifier(Field::name);
        llvm::StringRef first = full.name.split('.').first;
        if (first == name)
          out.push_back(TextRange{full.range.begin,
                                  full.range.begin +
                                      static_cast<uint32_t>(first.size())});
      }
      return syntax::WalkResult::Skip;
    }
    case NodeKind::ExceptHandler: {
      syntax::Identifier id = n.getIdentifier(Field::name);
      if (id && id.name == name)
        out.push_back(id.range);
      return syntax::WalkResult::Advance;
    }
    case NodeKind::Global:
    case NodeKind::Nonlocal:
      return syntax::WalkResult::Skip;
    default:
      return syntax::WalkResult::Advance;
    }
  };
  if (scope.kind() == NodeKind::ListComp || scope.kind() == NodeKind::SetComp ||
      scope.kind() == NodeKind::DictComp ||
      scope.kind() == NodeKind::GeneratorExp) {
    for (Node gen : scope.children(Field::generators))
      addTargets(gen.child(Field::target), name, out);
    return;
  }
  if (scope.kind() == NodeKind::Lambda)
    return;
  for (Node stmt : scope.children(Field::body))
    syntax::walk(stmt, visit);
}

/// True when `scope` declares `name` global.
static bool declaresGlobal(Node scope, llvm::StringRef name) {
  bool found = false;
  for (Node stmt : scope.children(Field::body))
    syntax::walk(stmt, [&](Node n) {
      if (isFunction(n) || n.kind() == NodeKind::ClassDef)
        return syntax::WalkResult::Skip;
      if (n.kind() == NodeKind::Global)
        for (const syntax::Identifier &id : n.identifiers(Field::names))
          if (id.name == name)
            found = true;
      return found ? syntax::WalkResult::Interrupt
                   : syntax::WalkResult::Advance;
    });
  return found;
}

std::optional<TextRange> tlc::lsp::findDefinition(const syntax::SyntaxTree &tree,
                                                  uint32_t offset) {
  Node node = findNodeAt(tree, offset);
  // The cursor may sit just after the name.
  if (node.kind() != NodeKind::Name && offset > 0) {
    Node before = findNodeAt(tree, offset - 1);
    if (before.kind() == NodeKind::Name)
      node = before;
  }
  llvm::StringRef name;
  Node use = node;
  if (node.kind() == NodeKind::Name) {
    name = node.identifier();
  } else if (node.kind() == NodeKind::arg) {
    return node.getIdentifier().range;
  } else {
    return std::nullopt;
  }
  // Walk the enclosing scopes outwards.
  bool first = true;
  for (Node scope = use.parent(); scope; scope = scope.parent()) {
    if (!isScope(scope))
      continue;
    // A function's decorators and defaults are evaluated in the enclosing
    // scope; approximate by checking whether the use lies in the body.
    if (scope.kind() == NodeKind::ClassDef && !first)
      continue; // Class bodies are invisible to nested functions.
    first = false;
    if (scope.kind() != NodeKind::Module && declaresGlobal(scope, name)) {
      scope = tree.root();
    }
    llvm::SmallVector<TextRange, 4> bindings;
    collectBindings(scope, name, bindings);
    if (bindings.empty()) {
      if (scope.kind() == NodeKind::Module)
        break;
      continue;
    }
    const TextRange *best = nullptr;
    for (const TextRange &r : bindings)
      if (r.begin <= use.range().begin && (!best || r.begin > best->begin))
        best = &r;
    if (!best) {
      best = &bindings.front();
      for (const TextRange &r : bindings)
        if (r.begin < best->begin)
          best = &r;
    }
    return *best;
  }
  return std::nullopt;
}
