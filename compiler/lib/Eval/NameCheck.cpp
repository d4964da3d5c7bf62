//===- NameCheck.cpp - Static check for undefined names -------------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Evaluation only sees the code paths it runs. This pass resolves every name
// read in the file against Python's scopes (function locals, enclosing
// functions, the module, builtins) so that an undefined name in a branch or
// function that no instance executes is still reported. Messages match the
// evaluator's, so a name reported by both appears once.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "tlc/Eval/Slices.h"

using namespace tlc;
using namespace tlc::eval;

namespace {

/// A lexical scope of the static check.
struct Scope {
  Scope *parent = nullptr;
  /// Class bodies are not visible from nested functions.
  bool isClass = false;
  llvm::DenseSet<llvm::StringRef> names;
};

class NameChecker {
public:
  explicit NameChecker(Interpreter &in) : in(in) {}

  void run() {
    // Every name bound anywhere: the evaluator stays quiet about these when
    // its approximate control flow has not bound them yet.
    in.fileNames = in.options.fileNames;
    if (!in.fileNames)
      in.fileNames = std::make_shared<const FileNames>(collectFileNames(in.tree));
    bool starImport = in.fileNames->starImport;
    if (starImport)
      return; // names may come from anywhere
    // The module scope: the statements this evaluation runs (a slice's
    // share the names of the whole file's that they read).
    Scope module;
    for (Node stmt : in.topLevel)
      bindStmt(stmt, module);
    for (Node stmt : in.topLevel)
      checkStmt(stmt, module);
  }

private:
  /// Adds the names a target expression binds.
  void bindTarget(Node t, Scope &s) {
    llvm::SmallVector<Node, 4> names;
    collectTargetNames(t, names);
    for (Node n : names)
      s.names.insert(n.identifier());
  }

  /// Walrus targets inside an expression bind in the enclosing scope.
  void bindWalrus(Node e, Scope &s) {
    if (!e)
      return;
    syntax::walk(e, [&](Node n) {
      if (n.kind() == NodeKind::Lambda)
        return syntax::WalkResult::Skip;
      if (n.kind() == NodeKind::NamedExpr)
        bindTarget(n.child(Field::target), s);
      return syntax::WalkResult::Advance;
    });
  }

  /// Collects the names bound by the statements of a block (not inside
  /// nested functions or classes).
  void bindBlock(Node owner, Field field, Scope &s) {
    for (Node stmt : owner.children(field))
      bindStmt(stmt, s);
  }

  void bindStmt(Node stmt, Scope &s) {
    switch (stmt.kind()) {
    case NodeKind::FunctionDef:
    case NodeKind::AsyncFunctionDef:
    case NodeKind::ClassDef:
      s.names.insert(stmt.identifier());
      return;
    case NodeKind::Assign:
      for (Node t : stmt.children(Field::targets))
        bindTarget(t, s);
      bindWalrus(stmt.child(Field::value), s);
      return;
    case NodeKind::AugAssign:
    case NodeKind::AnnAssign:
      bindTarget(stmt.child(Field::target), s);
      return;
    case NodeKind::For:
    case NodeKind::AsyncFor:
      bindTarget(stmt.child(Field::target), s);
      break;
    case NodeKind::With:
    case NodeKind::AsyncWith:
      for (Node item : stmt.children(Field::items))
        if (Node v = item.child(Field::optional_vars))
          bindTarget(v, s);
      break;
    case NodeKind::Import:
    case NodeKind::ImportFrom:
      for (Node a : stmt.children(Field::names)) {
        llvm::StringRef as = a.identifier(Field::asname);
        llvm::StringRef name = a.identifier(Field::name);
        if (as.empty() && stmt.kind() == NodeKind::Import)
          name = name.split('.').first;
        s.names.insert(as.empty() ? name : as);
      }
      return;
    case NodeKind::Global:
    case NodeKind::Nonlocal:
      for (const syntax::Identifier &id : stmt.identifiers(Field::names))
        s.names.insert(id.name);
      return;
    case NodeKind::Try:
    case NodeKind::TryStar:
      for (Node h : stmt.children(Field::handlers))
        if (!h.identifier().empty())
          s.names.insert(h.identifier());
      break;
    case NodeKind::Match:
      syntax::walk(stmt, [&](Node n) {
        if ((n.kind() == NodeKind::MatchAs ||
             n.kind() == NodeKind::MatchStar) &&
            !n.identifier().empty())
          s.names.insert(n.identifier());
        return syntax::WalkResult::Advance;
      });
      break;
    default:
      break;
    }
    if (Node t = stmt.child(Field::test))
      bindWalrus(t, s);
    for (Field f : {Field::body, Field::orelse, Field::finalbody})
      bindBlock(stmt, f, s);
    for (Node h : stmt.children(Field::handlers))
      bindBlock(h, Field::body, s);
    for (Node c : stmt.children(Field::cases))
      bindBlock(c, Field::body, s);
  }

  bool resolves(llvm::StringRef name, Scope &s) {
    bool first = true;
    for (Scope *sc = &s; sc; sc = sc->parent) {
      if ((first || !sc->isClass) && sc->names.count(name))
        return true;
      first = false;
    }
    return in.isBuiltinName(name);
  }

  void checkBlock(Node owner, Field field, Scope &s) {
    for (Node stmt : owner.children(field))
      checkStmt(stmt, s);
  }

  void checkFunction(Node def, Scope &outer) {
    Node args = def.child(Field::args);
    // Defaults and decorators are evaluated in the enclosing scope.
    for (Node d : args.children(Field::defaults))
      checkExpr(d, outer);
    for (Node d : args.children(Field::kw_defaults))
      if (d)
        checkExpr(d, outer);
    Scope inner;
    inner.parent = &outer;
    for (Field f : {Field::posonlyargs, Field::args, Field::kwonlyargs,
                    Field::vararg, Field::kwarg})
      for (Node a : args.children(f)) {
        inner.names.insert(a.identifier());
        if (Node ann = a.child(Field::annotation))
          checkExpr(ann, outer);
      }
    if (def.kind() == NodeKind::Lambda) {
      bindWalrus(def.child(Field::body), inner);
      checkExpr(def.child(Field::body), inner);
      return;
    }
    bindBlock(def, Field::body, inner);
    checkBlock(def, Field::body, inner);
  }

  void checkStmt(Node stmt, Scope &s) {
    switch (stmt.kind()) {
    case NodeKind::FunctionDef:
    case NodeKind::AsyncFunctionDef:
      for (Node d : stmt.children(Field::decorator_list))
        checkExpr(d, s);
      checkFunction(stmt, s);
      return;
    case NodeKind::ClassDef: {
      for (Node d : stmt.children(Field::decorator_list))
        checkExpr(d, s);
      for (Node b : stmt.children(Field::bases))
        checkExpr(b, s);
      Scope cls;
      cls.parent = &s;
      cls.isClass = true;
      bindBlock(stmt, Field::body, cls);
      checkBlock(stmt, Field::body, cls);
      return;
    }
    case NodeKind::Import:
    case NodeKind::ImportFrom:
    case NodeKind::Global:
    case NodeKind::Nonlocal:
      return;
    default:
      break;
    }
    for (Node c : stmt.children()) {
      if (syntax::isStatement(c.kind())) {
        checkStmt(c, s);
      } else if (c.kind() == NodeKind::ExceptHandler) {
        if (Node t = c.child(Field::type))
          checkExpr(t, s);
        checkBlock(c, Field::body, s);
      } else if (c.kind() == NodeKind::match_case) {
        if (Node g = c.child(Field::guard))
          checkExpr(g, s);
        checkBlock(c, Field::body, s);
      } else if (c.kind() == NodeKind::withitem) {
        checkExpr(c.child(Field::context_expr), s);
      } else if (syntax::isExpression(c.kind())) {
        checkExpr(c, s);
      }
    }
  }

  void checkExpr(Node e, Scope &s) {
    if (!e)
      return;
    switch (e.kind()) {
    case NodeKind::Name:
      if (e.context() == syntax::ExprContext::Load &&
          !resolves(e.identifier(), s))
        in.undefinedNames.push_back(e);
      return;
    case NodeKind::Lambda:
      checkFunction(e, s);
      return;
    case NodeKind::ListComp:
    case NodeKind::SetComp:
    case NodeKind::GeneratorExp:
    case NodeKind::DictComp: {
      Scope comp;
      comp.parent = &s;
      bool first = true;
      for (Node gen : e.children(Field::generators)) {
        checkExpr(gen.child(Field::iter), first ? s : comp);
        first = false;
        bindTarget(gen.child(Field::target), comp);
        for (Node cond : gen.children(Field::ifs))
          checkExpr(cond, comp);
      }
      for (Field f : {Field::elt, Field::key, Field::value})
        checkExpr(e.child(f), comp);
      return;
    }
    default:
      for (Node c : e.children())
        if (c && (syntax::isExpression(c.kind()) ||
                  c.kind() == NodeKind::keyword ||
                  c.kind() == NodeKind::comprehension))
          checkExpr(c, s);
      return;
    }
  }

  Interpreter &in;
};

} // namespace

void tlc::eval::collectFileNames(Node node, FileNames &out) {
  syntax::walk(node, [&](Node n) {
    if (n.kind() == NodeKind::Name &&
        n.context() == syntax::ExprContext::Store)
      out.bound.insert(n.identifier());
    else if (n.kind() == NodeKind::FunctionDef ||
             n.kind() == NodeKind::AsyncFunctionDef ||
             n.kind() == NodeKind::ClassDef || n.kind() == NodeKind::arg ||
             n.kind() == NodeKind::ExceptHandler)
      out.bound.insert(n.identifier());
    else if (n.kind() == NodeKind::alias) {
      llvm::StringRef as = n.identifier(Field::asname);
      llvm::StringRef name = n.identifier(Field::name);
      out.bound.insert(as.empty() ? name.split('.').first : as);
      if (name == "*")
        out.starImport = true;
    } else if (n.kind() == NodeKind::Global ||
               n.kind() == NodeKind::Nonlocal) {
      for (const syntax::Identifier &id : n.identifiers(Field::names))
        out.bound.insert(id.name);
    }
    return syntax::WalkResult::Advance;
  });
}

FileNames tlc::eval::collectFileNames(const syntax::SyntaxTree &tree) {
  FileNames out;
  collectFileNames(tree.root(), out);
  return out;
}

void Interpreter::checkUndefinedNames() { NameChecker(*this).run(); }
