//===- IncrementalEval.h - Re-evaluate only what an edit affects -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The editor's evaluation of a file, slice by slice (tlc::eval::
// sliceTopLevel): each slice's diagnostics, hints and instances are kept
// under the slice's key, so that after an edit only the slices whose key
// changed (the edited statements, the statements sharing their names, the
// module-level values they read) are evaluated and have their layouts
// inferred; the others are moved to their statements' new offsets. The
// merged result equals evaluating the whole file (the unit tests check it
// against eval::analyzeFile after random edits). Files the slicing cannot
// vouch for, and results that hit an evaluation budget, are evaluated
// whole, as `tlc-build --emit=hints` does.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LSP_INCREMENTALEVAL_H
#define TLC_LSP_INCREMENTALEVAL_H

#include "Types.h"

#include "tlc/Driver/Driver.h"
#include "tlc/Driver/LayoutViews.h"
#include "tlc/Eval/Eval.h"
#include "tlc/Eval/Slices.h"
#include "tlc/Support/LruCache.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace tlc {
namespace lsp {

/// The kept results of evaluated slices, shared by all documents and worker
/// threads. Thread-safe; bounded (least recently used slices are dropped).
class SliceCache {
public:
  /// One slice's evaluation (opaque; defined in IncrementalEval.cpp).
  struct Entry;
  /// Creates a cache of at most \p maxEntries slices.
  explicit SliceCache(size_t maxEntries = 2048);
  ~SliceCache();
  /// The entry recorded under \p key, or null.
  std::shared_ptr<const Entry> lookup(const std::string &key) {
    return entries.lookup(key);
  }
  /// Records \p entry under \p key.
  void record(const std::string &key, std::shared_ptr<const Entry> entry) {
    entries.record(key, std::move(entry));
  }
  /// Drops every entry.
  void clear() {
    entries.clear();
    statementFacts.clear();
    lastSlicings.clear();
  }
  /// What slicing found in the statements seen lately
  /// (eval::sliceTopLevel).
  eval::StatementCache &statements() { return statementFacts; }
  /// The last slicing of the files seen lately (eval::sliceTopLevel).
  eval::SliceMemo &slicings() { return lastSlicings; }

private:
  /// The least recently used eighth is dropped when full.
  LruCache<Entry> entries;
  eval::StatementCache statementFacts{8192, 8};
  eval::SliceMemo lastSlicings;
};

/// What evaluateFile() found, with counts of the work it did.
struct IncrementalResult {
  /// Diagnostics, hints (with layouts and bank conflicts) and instances;
  /// no module.
  eval::FileAnalysis analysis;
  /// The layout views of the buffers (driver::collectLayoutViews), their
  /// instance indices into `analysis.instances`.
  std::vector<driver::LayoutView> layouts;
  /// Slices evaluated now and slices whose kept results were used.
  unsigned slicesEvaluated = 0, slicesReused = 0;
  /// Instances whose layouts were inferred now, and those whose layouts
  /// came from an earlier analysis (the layout cache or a kept slice).
  unsigned layoutsInferred = 0, layoutsReused = 0;
  /// Why the file was evaluated as a whole (empty: it was sliced).
  std::string wholeFileReason;
  /// True when slices outside the visible range were left out (the
  /// results are those of the slices it needs only).
  bool partial = false;
};

/// Evaluates \p tree, infers layouts for \p options.target and reports
/// bank conflicts (driver::inferLayouts), slice by slice with \p slices (null: the whole file at once, the reference the
/// tests compare with). \p cancelled is polled by the evaluator, between
/// slices and by layout inference; a cancelled result is incomplete and
/// must be dropped (slices finished before the cancellation are kept).
/// With \p visible (and slices), only the slices with a statement of their
/// own (not a shared import) overlapping that byte range are evaluated and
/// merged: every result located in the range is then the one a complete
/// evaluation gives (bank-conflict remarks aside: they are left to the
/// complete analysis, whose diagnostics are the ones published), and
/// IncrementalResult::partial is set. The whole-file
/// budgets are then checked per slice only; the complete evaluation that
/// follows checks their sum.
IncrementalResult
evaluateFile(const syntax::SyntaxTree &tree, mlir::MLIRContext &context,
             const eval::EvalOptions &options, driver::LayoutCache &layoutCache,
             SliceCache *slices, const std::function<bool()> &cancelled,
             std::optional<TextRange> visible = {});

} // namespace lsp
} // namespace tlc

#endif // TLC_LSP_INCREMENTALEVAL_H
