//===- TileLangNames.cpp - Import aliases of the TileLang packages --------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Features.h"

#include "llvm/Support/xxhash.h"

#include <algorithm>

using namespace tlc;
using namespace tlc::lsp;
using syntax::Field;
using syntax::Node;
using syntax::NodeKind;

bool tlc::lsp::isFunction(Node node) {
  return node.kind() == NodeKind::FunctionDef ||
         node.kind() == NodeKind::AsyncFunctionDef;
}

/// The registry spelling of a dotted module path: `tilelang.language` is
/// `T`, `tilelang.language.copy` is `T.copy`; other paths are unchanged.
static std::string canonicalModule(llvm::StringRef path) {
  if (path == "tilelang.language")
    return "T";
  if (path.consume_front("tilelang.language."))
    return "T." + path.str();
  return path.str();
}

/// Calls \p add(alias, qualified) for each TileLangNames alias the import
/// statements at or below \p root bind, in order.
static void
collectAliases(Node root,
               llvm::function_ref<void(std::string, std::string)> add) {
  syntax::walk(root, [&](Node node) {
    if (!syntax::isStatement(node.kind()) && node.kind() != NodeKind::Module &&
        node.kind() != NodeKind::ExceptHandler)
      return syntax::WalkResult::Skip;
    if (node.kind() == NodeKind::Import) {
      for (Node alias : node.children(Field::names)) {
        llvm::StringRef name = alias.identifier(Field::name);
        llvm::StringRef asname = alias.identifier(Field::asname);
        if (name != "tilelang" && !name.starts_with("tilelang."))
          continue;
        if (!asname.empty())
          add(asname.str(), canonicalModule(name));
        else
          add("tilelang", "tilelang");
      }
    } else if (node.kind() == NodeKind::ImportFrom) {
      llvm::StringRef module = node.identifier(Field::module);
      if (node.importLevel() != 0 ||
          (module != "tilelang" && !module.starts_with("tilelang.")))
        return syntax::WalkResult::Skip;
      for (Node alias : node.children(Field::names)) {
        llvm::StringRef name = alias.identifier(Field::name);
        llvm::StringRef asname = alias.identifier(Field::asname);
        if (name == "*" || name.empty())
          continue;
        add((asname.empty() ? name : asname).str(),
            canonicalModule(module.str() + "." + name.str()));
      }
    }
    return syntax::WalkResult::Advance;
  });
}

TileLangNames::TileLangNames(const syntax::SyntaxTree &tree,
                             AliasCache *cache) {
  auto add = [&](std::string alias, std::string qualified) {
    aliases[std::move(alias)] = std::move(qualified);
  };
  if (!cache) {
    collectAliases(tree.root(), add);
    return;
  }
  // Made for every analysis of every version: a top-level statement's
  // aliases are kept by its text, so only edited statements are walked.
  for (Node stmt : tree.root().children(Field::body)) {
    llvm::StringRef text = stmt.text();
    // Every alias names a `tilelang` module (identifiers are not
    // normalized): most statements are skipped without a lookup.
    if (!text.contains("tilelang"))
      continue;
    std::string key = std::to_string(llvm::xxh3_64bits(text)) + ":" +
                      std::to_string(text.size());
    std::shared_ptr<const AliasList> known = cache->lookup(key);
    if (!known) {
      auto list = std::make_shared<AliasList>();
      collectAliases(stmt, [&](std::string alias, std::string qualified) {
        list->emplace_back(std::move(alias), std::move(qualified));
      });
      cache->record(key, list);
      known = std::move(list);
    }
    for (const auto &[alias, qualified] : *known)
      aliases[alias] = qualified;
  }
}

std::string TileLangNames::qualify(Node expr) const {
  if (expr.kind() == NodeKind::Name) {
    auto it = aliases.find(expr.identifier().str());
    return it == aliases.end() ? std::string() : it->second;
  }
  if (expr.kind() == NodeKind::Attribute) {
    std::string base = qualify(expr.child(Field::value));
    if (base.empty()) {
      // Half-typed files often lack the import; `T.x` is unambiguous.
      Node value = expr.child(Field::value);
      if (value.kind() == NodeKind::Name && value.identifier() == "T" &&
          !aliases.count("T"))
        base = "T";
      else
        return "";
    }
    return base + "." + expr.identifier().str();
  }
  return "";
}

std::string TileLangNames::qualifyDecorator(Node decorator) const {
  if (decorator.kind() == NodeKind::Call)
    decorator = decorator.child(Field::func);
  return qualify(decorator);
}

std::string TileLangNames::getKernelDecorator(Node functionDef) const {
  for (Node decorator : functionDef.children(Field::decorator_list)) {
    std::string name = qualifyDecorator(decorator);
    if (name == "T.prim_func" || name == "T.macro" || name == "tilelang.jit" ||
        name == "tilelang.autotune" || name == "tilelang.lazy_jit" ||
        name == "tilelang.jit2")
      return name;
  }
  return "";
}

Node tlc::lsp::findNodeAt(const syntax::SyntaxTree &tree, uint32_t offset) {
  // SyntaxTree::findNode follows CPython ranges, where a decorated def
  // starts at `def`; decorators lie outside their parent's range. Walk
  // with the decorators counted in.
  Node best = tree.root();
  syntax::walk(tree.root(), [&](Node n) {
    TextRange r = n.range();
    if (isFunction(n) || n.kind() == NodeKind::ClassDef)
      for (Node d : n.children(Field::decorator_list))
        r.begin = std::min(r.begin, d.range().begin);
    if (n.kind() != NodeKind::Module && !(r.begin <= offset && offset < r.end))
      return syntax::WalkResult::Skip;
    if (!r.empty())
      best = n;
    return syntax::WalkResult::Advance;
  });
  return best;
}
