//===- Symbols.cpp - Document outline -------------------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Features.h"

#include "tlc/Lang/Builtins.h"

#include <unordered_map>

using namespace tlc;
using namespace tlc::lsp;
using syntax::Field;
using syntax::Node;
using syntax::NodeKind;

namespace {
class SymbolCollector {
public:
  SymbolCollector(const Document &doc, const AnalysisFacts *facts)
      : doc(doc), names(*doc.getTree()) {
    if (!facts)
      return;
    // The first instance of each kernel describes the outline.
    for (const KernelFact &kernel : facts->kernels)
      if (!kernel.instances.empty())
        for (const BufferFact &b : kernel.instances.front().buffers)
          details.emplace(b.nameRange.begin, b.scope + " " + b.dtype + b.shape);
  }

  /// Collects the symbols of a statement list.
  void collect(Node parent, Field field, std::vector<DocumentSymbol> &out) {
    for (Node stmt : parent.children(field))
      visit(stmt, out);
  }

private:
  void visit(Node stmt, std::vector<DocumentSymbol> &out);
  std::string bufferDetail(TextRange nameRange) const;

  const Document &doc;
  TileLangNames names;
  /// Buffer details by the byte offset of the buffer's name.
  std::unordered_map<uint32_t, std::string> details;
};
} // namespace

std::string SymbolCollector::bufferDetail(TextRange nameRange) const {
  auto it = details.find(nameRange.begin);
  return it == details.end() ? std::string() : it->second;
}

void SymbolCollector::visit(Node stmt, std::vector<DocumentSymbol> &out) {
  switch (stmt.kind()) {
  case NodeKind::FunctionDef:
  case NodeKind::AsyncFunctionDef:
  case NodeKind::ClassDef: {
    syntax::Identifier id = stmt.getIdentifier();
    if (!id)
      return;
    DocumentSymbol symbol;
    symbol.name = id.name.str();
    symbol.range = doc.toRange(stmt.range());
    symbol.selectionRange = doc.toRange(id.range);
    if (stmt.kind() == NodeKind::ClassDef) {
      symbol.kind = SymbolKind::Class;
    } else {
      symbol.kind = SymbolKind::Function;
      std::string decorator = names.getKernelDecorator(stmt);
      if (!decorator.empty())
        symbol.detail = "@" + decorator;
      // Tensor parameters of kernels.
      if (!decorator.empty())
        for (Field f : {Field::posonlyargs, Field::args, Field::kwonlyargs})
          for (Node arg : stmt.child(Field::args).children(f)) {
            std::string detail = bufferDetail(arg.getIdentifier().range);
            if (detail.empty())
              continue;
            DocumentSymbol param;
            param.name = arg.identifier().str();
            param.detail = detail;
            param.kind = SymbolKind::Variable;
            param.range = doc.toRange(arg.range());
            param.selectionRange = doc.toRange(arg.getIdentifier().range);
            symbol.children.push_back(std::move(param));
          }
    }
    collect(stmt, Field::body, symbol.children);
    out.push_back(std::move(symbol));
    return;
  }
  case NodeKind::Assign: {
    Node call = stmt.child(Field::value);
    auto targets = stmt.children(Field::targets).toVector();
    if (call.kind() != NodeKind::Call || targets.size() != 1 ||
        targets[0].kind() != NodeKind::Name)
      return;
    const lang::BuiltinInfo *info =
        lang::lookupBuiltin(names.qualify(call.child(Field::func)));
    if (!info || info->category != lang::BuiltinCategory::Alloc)
      return;
    DocumentSymbol symbol;
    symbol.name = targets[0].identifier().str();
    symbol.detail = bufferDetail(targets[0].range());
    if (symbol.detail.empty())
      symbol.detail = info->getCanonical().name.str();
    symbol.kind = SymbolKind::Variable;
    symbol.range = doc.toRange(stmt.range());
    symbol.selectionRange = doc.toRange(targets[0].range());
    out.push_back(std::move(symbol));
    return;
  }
  case NodeKind::If:
  case NodeKind::For:
  case NodeKind::AsyncFor:
  case NodeKind::While:
  case NodeKind::With:
  case NodeKind::AsyncWith:
  case NodeKind::Try:
  case NodeKind::TryStar:
    // Blocks are not symbols; their contents are.
    collect(stmt, Field::body, out);
    collect(stmt, Field::orelse, out);
    collect(stmt, Field::finalbody, out);
    for (Node handler : stmt.children(Field::handlers))
      collect(handler, Field::body, out);
    return;
  default:
    return;
  }
}

std::vector<DocumentSymbol>
tlc::lsp::computeDocumentSymbols(const Document &doc,
                                 const AnalysisFacts *facts) {
  std::vector<DocumentSymbol> result;
  SymbolCollector(doc, facts).collect(doc.getTree()->root(), Field::body,
                                      result);
  return result;
}
