//===- Document.cpp - One immutable version of an open document -----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Document.h"

using namespace tlc;
using namespace tlc::lsp;

bool tlc::lsp::importsTileLang(llvm::StringRef text) {
  size_t pos = 0;
  while ((pos = text.find("tilelang", pos)) != llvm::StringRef::npos) {
    // Find the start of the line and skip indentation.
    size_t lineStart = text.rfind('\n', pos);
    lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
    llvm::StringRef head = text.slice(lineStart, pos).ltrim(" \t");
    char next = pos + 8 < text.size() ? text[pos + 8] : '\n';
    bool wholeWord = next == '.' || next == ' ' || next == ',' ||
                     next == '\n' || next == '\r' || next == '\t' ||
                     next == ';';
    // `import tilelang...`, `from tilelang...`, and the package later in an
    // import list (`import numpy as np, tilelang`).
    if (wholeWord && (head.starts_with("import ") || head.starts_with("from ")) &&
        !head.contains('#') && !head.contains('"') && !head.contains('\''))
      return true;
    pos += 8;
  }
  return false;
}

uint32_t Document::toOffset(Position pos) const {
  LinePosition lp{pos.line, pos.character};
  if (encoding == PositionEncoding::Utf8)
    return tree->lines().fromUtf8(lp);
  return tree->lines().fromUtf16(lp);
}

Position Document::toPosition(uint32_t offset) const {
  LinePosition lp = encoding == PositionEncoding::Utf8
                        ? tree->lines().toUtf8(offset)
                        : tree->lines().toUtf16(offset);
  return Position{lp.line, lp.column};
}

Range Document::toRange(TextRange range) const {
  return Range{toPosition(range.begin), toPosition(range.end)};
}

std::shared_ptr<const AnalysisFacts>
Document::getFacts(Analyzer &analyzer, const AnalysisOptions &options,
                   const CancelToken &token) const {
  if (facts || !tree)
    return facts;
  auto result = analyzer.analyze(tree, options, token);
  if (token.isCancelled())
    return nullptr;
  facts = std::move(result);
  return facts;
}

std::shared_ptr<const AnalysisFacts>
Document::getFactsFor(Analyzer &analyzer, const AnalysisOptions &options,
                      TextRange visible, const CancelToken &token) const {
  if (facts || !tree)
    return facts;
  if (visible.begin == 0 && visible.end >= tree->source().size())
    return getFacts(analyzer, options, token);
  AnalysisOptions partial = options;
  partial.visible = visible;
  auto result = analyzer.analyze(tree, partial, token);
  if (token.isCancelled())
    return nullptr;
  if (!result->partial)
    facts = result;
  return result;
}
