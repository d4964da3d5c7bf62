//===- SemanticTokens.cpp - TileLang-aware semantic highlighting ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Off unless enabled: editors take semantic tokens from one provider per
// file, and users usually have Pylance or basedpyright on the same files.
// The tokens cover what those servers cannot know: the TileLang namespace,
// `T.*` builtins (functions, types, dtypes), kernels, their parameters and
// allocated buffers.
//
//===----------------------------------------------------------------------===//

#include "Features.h"

#include "tlc/Lang/Builtins.h"

#include <algorithm>
#include <set>

using namespace tlc;
using namespace tlc::lsp;
using syntax::Field;
using syntax::Node;
using syntax::NodeKind;

std::vector<std::string> tlc::lsp::getSemanticTokenTypes() {
  return {"namespace", "function", "parameter", "variable", "type",
          "decorator"};
}

std::vector<std::string> tlc::lsp::getSemanticTokenModifiers() {
  return {"declaration", "defaultLibrary", "readonly"};
}

/// The token type of a builtin.
static TokenType builtinTokenType(const lang::BuiltinInfo &info) {
  switch (info.getCanonical().kind) {
  case lang::BuiltinKind::Decorator:
    return TokenType::Decorator;
  case lang::BuiltinKind::Annotation:
  case lang::BuiltinKind::Class:
  case lang::BuiltinKind::Namespace:
    return TokenType::Type;
  case lang::BuiltinKind::Value:
    return info.dtype ? TokenType::Type : TokenType::Variable;
  default:
    return TokenType::Function;
  }
}

std::vector<SemanticToken> tlc::lsp::computeSemanticTokens(const Document &doc) {
  const syntax::SyntaxTree &tree = *doc.getTree();
  TileLangNames names(tree);
  std::vector<SemanticToken> tokens;
  auto add = [&](TextRange range, TokenType type, uint32_t modifiers) {
    if (range.empty())
      return;
    Position start = doc.toPosition(range.begin);
    Position end = doc.toPosition(range.end);
    if (end.line != start.line)
      return;
    tokens.push_back(SemanticToken{start.line, start.character,
                                   end.character - start.character, type,
                                   modifiers});
  };

  // Names of parameters and buffers per enclosing function, as a stack.
  std::vector<std::pair<Node, std::set<std::string>>> params, buffers;
  auto inScope = [](const std::vector<std::pair<Node, std::set<std::string>>>
                        &stack,
                    Node n, llvm::StringRef name) {
    for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
      TextRange r = it->first.range();
      if (n.range().begin >= r.begin && n.range().end <= r.end &&
          it->second.count(name.str()))
        return true;
    }
    return false;
  };
  syntax::walk(tree.root(), [&](Node n) {
    switch (n.kind()) {
    case NodeKind::FunctionDef:
    case NodeKind::AsyncFunctionDef: {
      add(n.getIdentifier().range, TokenType::Function, ModDeclaration);
      std::set<std::string> ps, bs;
      Node args = n.child(Field::args);
      for (Field f : {Field::posonlyargs, Field::args, Field::vararg,
                      Field::kwonlyargs, Field::kwarg})
        for (Node arg : args.children(f))
          ps.insert(arg.identifier().str());
      syntax::walk(n, [&](Node m) {
        if (m != n && isFunction(m))
          return syntax::WalkResult::Skip;
        if (m.kind() == NodeKind::Assign) {
          Node call = m.child(Field::value);
          if (call.kind() == NodeKind::Call) {
            const lang::BuiltinInfo *info =
                lang::lookupBuiltin(names.qualify(call.child(Field::func)));
            if (info && info->category == lang::BuiltinCategory::Alloc)
              for (Node t : m.children(Field::targets))
                if (t.kind() == NodeKind::Name)
                  bs.insert(t.identifier().str());
          }
          return syntax::WalkResult::Skip;
        }
        return syntax::WalkResult::Advance;
      });
      params.push_back({n, std::move(ps)});
      buffers.push_back({n, std::move(bs)});
      return syntax::WalkResult::Advance;
    }
    case NodeKind::arg:
      add(n.getIdentifier().range, TokenType::Parameter, ModDeclaration);
      return syntax::WalkResult::Advance;
    case NodeKind::Attribute: {
      std::string q = names.qualify(n);
      if (const lang::BuiltinInfo *info = lang::lookupBuiltin(q)) {
        add(n.getIdentifier().range, builtinTokenType(*info),
            ModDefaultLibrary);
        return syntax::WalkResult::Advance;
      }
      return syntax::WalkResult::Advance;
    }
    case NodeKind::Name: {
      std::string q = names.qualify(n);
      if (q == "T" || q == "tilelang") {
        add(n.range(), TokenType::Namespace, ModDefaultLibrary);
      } else if (const lang::BuiltinInfo *info = lang::lookupBuiltin(q)) {
        add(n.range(), builtinTokenType(*info), ModDefaultLibrary);
      } else if (inScope(buffers, n, n.identifier())) {
        bool store = n.context() == syntax::ExprContext::Store;
        add(n.range(), TokenType::Variable,
            store ? uint32_t(ModDeclaration) : 0u);
      } else if (inScope(params, n, n.identifier())) {
        add(n.range(), TokenType::Parameter, 0);
      }
      return syntax::WalkResult::Advance;
    }
    default:
      return syntax::WalkResult::Advance;
    }
  });
  std::sort(tokens.begin(), tokens.end(),
            [](const SemanticToken &a, const SemanticToken &b) {
              return a.line != b.line ? a.line < b.line : a.start < b.start;
            });
  // Drop overlaps (defensive: ranges come from distinct identifiers).
  std::vector<SemanticToken> result;
  for (const SemanticToken &t : tokens)
    if (result.empty() || result.back().line != t.line ||
        result.back().start + result.back().length <= t.start)
      result.push_back(t);
  return result;
}
