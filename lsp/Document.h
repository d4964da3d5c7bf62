//===- Document.h - One immutable version of an open document ---*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A Document is a snapshot of an open file at one version: its syntax tree
// (only for files that import tilelang) and, computed on first use, its
// analysis facts. Features receive a Document and never see newer text, so
// every result is bound to the version it was computed for.
//
// Thread-safety: the immutable parts may be read from any thread. The lazy
// analysis cache (getFacts) is filled by the document's worker in the
// Scheduler, which runs one task per document at a time.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LSP_DOCUMENT_H
#define TLC_LSP_DOCUMENT_H

#include "Analysis.h"
#include "Types.h"

#include "tlc/Support/Diagnostic.h"
#include "tlc/Syntax/SyntaxTree.h"

#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <memory>
#include <string>

namespace tlc {
namespace lsp {

/// True when `text` has an `import tilelang...` or `from tilelang...`
/// statement at the start of a line. Cheap: one substring scan.
bool importsTileLang(llvm::StringRef text);

/// One version of an open document.
class Document {
public:
  /// A TileLang document with its tree.
  Document(std::string uri, int64_t version, PositionEncoding encoding,
           std::shared_ptr<const syntax::SyntaxTree> tree)
      : uri(std::move(uri)), version(version), encoding(encoding),
        tree(std::move(tree)) {}

  /// The document URI.
  const std::string &getUri() const { return uri; }
  /// The client's version number.
  int64_t getVersion() const { return version; }
  /// False for files that do not import tilelang: they have no tree and
  /// every feature answers with nothing.
  bool isTileLang() const { return tree != nullptr; }
  /// The syntax tree (null unless isTileLang()).
  const std::shared_ptr<const syntax::SyntaxTree> &getTree() const {
    return tree;
  }
  /// The column encoding of positions.
  PositionEncoding getEncoding() const { return encoding; }

  /// Editor position -> byte offset (clamped). Requires isTileLang().
  uint32_t toOffset(Position pos) const;
  /// Byte offset -> editor position. Requires isTileLang().
  Position toPosition(uint32_t offset) const;
  /// Byte range -> editor range. Requires isTileLang().
  Range toRange(TextRange range) const;

  /// The analysis facts, computed with `analyzer` on first call and cached.
  /// Returns null when `token` was cancelled before the facts were
  /// complete (nothing is cached then). Call only on the document's worker.
  std::shared_ptr<const AnalysisFacts>
  getFacts(Analyzer &analyzer, const AnalysisOptions &options,
           const CancelToken &token) const;
  /// Facts complete for the byte range \p visible (an editor's visible
  /// lines): the cached facts if computed, else an analysis of only what
  /// the range needs (AnalysisOptions::visible), which is cached when it
  /// turned out complete. Null when `token` was cancelled. Call only on
  /// the document's worker.
  std::shared_ptr<const AnalysisFacts>
  getFactsFor(Analyzer &analyzer, const AnalysisOptions &options,
              TextRange visible, const CancelToken &token) const;
  /// The cached facts, or null when not yet computed.
  std::shared_ptr<const AnalysisFacts> getCachedFacts() const {
    return facts;
  }
  /// Records that inlay hints of this version were sent to the client.
  void markHintsServed() const { hintsServed = true; }
  /// True once inlay hints of this version were sent: a background analysis
  /// of this version then needs no `workspace/inlayHint/refresh`.
  bool wereHintsServed() const { return hintsServed; }
  /// Records that hints from partial facts (getFactsFor) were sent: the
  /// complete analysis of this version then asks for a refresh.
  void markPartialHintsServed() const { partialHintsServed = true; }
  /// True once hints from partial facts of this version were sent.
  bool werePartialHintsServed() const { return partialHintsServed; }

private:
  std::string uri;
  int64_t version;
  PositionEncoding encoding;
  std::shared_ptr<const syntax::SyntaxTree> tree;
  mutable std::shared_ptr<const AnalysisFacts> facts;
  mutable std::atomic<bool> hintsServed{false};
  mutable std::atomic<bool> partialHintsServed{false};
};

} // namespace lsp
} // namespace tlc

#endif // TLC_LSP_DOCUMENT_H
