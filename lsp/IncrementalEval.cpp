//===- IncrementalEval.cpp - Re-evaluate only what an edit affects --------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A kept slice stores its results with the byte ranges of the text it was
// evaluated on and the ranges its statements had then. Its key contains the
// statements' text, so each statement has the same length now: an offset
// inside statement k moves by (new begin of k - old begin of k). A result
// with a range outside its statements (a file-level diagnostic) cannot be
// moved, so such a slice is never kept.
//
//===----------------------------------------------------------------------===//

#include "IncrementalEval.h"

#include "tlc/Eval/Slices.h"
#include "tlc/Support/ThreadClock.h"

#include "llvm/ADT/STLExtras.h"

#include <set>

using namespace tlc;
using namespace tlc::lsp;

struct SliceCache::Entry {
  /// The ranges of the slice's statements when it was evaluated.
  std::vector<TextRange> statements;
  /// Which of them are shared imports.
  std::vector<bool> shared;
  std::vector<Diagnostic> diagnostics;
  std::vector<eval::Hint> hints;
  std::vector<eval::InstanceInfo> instances;
  std::vector<driver::LayoutView> layouts;
  /// What the evaluation used of the whole-file budgets.
  uint64_t steps = 0, bytes = 0;
  double seconds = 0;
  /// Instances that had their layouts inferred (or reused) then.
  unsigned layoutInstances = 0;
  /// Whether the bank conflicts were checked (not in a visible-range
  /// analysis): the complete analysis needs them.
  bool conflictsChecked = false;
};

SliceCache::SliceCache(size_t maxEntries) : entries(maxEntries, 8) {}
SliceCache::~SliceCache() = default;

namespace {

/// Moves offsets from the statement ranges `from` to the ranges `to`
/// (statement k has the same length in both).
struct Relocation {
  llvm::ArrayRef<TextRange> from, to;

  /// The statement holding `offset` (its end included), or -1.
  int statementOf(uint32_t offset) const {
    auto it = llvm::upper_bound(
        from, offset, [](uint32_t x, TextRange r) { return x < r.begin; });
    if (it == from.begin())
      return -1;
    --it;
    return offset <= it->end ? int(it - from.begin()) : -1;
  }
  /// Moves `r`; false when it does not lie inside one statement.
  bool move(TextRange &r) const {
    int k = statementOf(r.begin);
    if (k < 0 || r.end < r.begin || r.end > from[k].end)
      return false;
    int64_t delta = int64_t(to[k].begin) - int64_t(from[k].begin);
    r.begin = uint32_t(r.begin + delta);
    r.end = uint32_t(r.end + delta);
    return true;
  }
  /// Moves every range of `d`.
  bool move(Diagnostic &d) const {
    bool ok = move(d.range);
    for (RelatedInfo &note : d.notes)
      ok &= move(note.range);
    return ok;
  }
};

/// Identity of a diagnostic, for dropping the copies that shared imports
/// give.
std::string diagnosticKey(const Diagnostic &d) {
  std::string key = std::to_string(int(d.severity)) + ":" +
                    std::to_string(d.range.begin) + "-" +
                    std::to_string(d.range.end) + " " + d.message;
  for (const RelatedInfo &n : d.notes)
    key += "|" + std::to_string(n.range.begin) + " " + n.message;
  return key;
}

IncrementalResult evaluateWhole(const syntax::SyntaxTree &tree,
                                mlir::MLIRContext &context,
                                const eval::EvalOptions &options,
                                driver::LayoutCache &layoutCache,
                                const std::function<bool()> &cancelled) {
  IncrementalResult r;
  r.analysis = eval::analyzeFile(tree, context, options);
  driver::LayoutStats stats =
      driver::inferLayouts(r.analysis, tree, options.target.name, &layoutCache,
                           cancelled, /*bankConflicts=*/true);
  r.layouts = driver::collectLayoutViews(r.analysis, tree, options.target.name);
  r.analysis.module = nullptr;
  r.layoutsInferred = stats.inferred;
  r.layoutsReused = stats.reused;
  return r;
}

} // namespace

IncrementalResult tlc::lsp::evaluateFile(const syntax::SyntaxTree &tree,
                                         mlir::MLIRContext &context,
                                         const eval::EvalOptions &options,
                                         driver::LayoutCache &layoutCache,
                                         SliceCache *cache,
                                         const std::function<bool()> &cancelled,
                                         std::optional<TextRange> visible) {
  if (!cache)
    return evaluateWhole(tree, context, options, layoutCache, cancelled);
  eval::FileSlices sliced = eval::sliceTopLevel(tree, &cache->statements(),
                                              &cache->slicings());
  if (!options.defines.empty())
    sliced.reason = "-D bindings";
  if (!sliced.reason.empty() || sliced.slices.empty()) {
    IncrementalResult r =
        evaluateWhole(tree, context, options, layoutCache, cancelled);
    r.wholeFileReason = sliced.reason.empty() ? "no statements" : sliced.reason;
    return r;
  }
  llvm::SmallVector<syntax::Node, 0> top =
      tree.root().children(syntax::Field::body).toVector();
  std::string prefix = options.target.name + '\0' +
                       (options.targetExplicit ? "!" : "") + '\0' +
                       (options.fastMath ? "fast" : "") + '\0';

  IncrementalResult result;
  uint64_t steps = 0, bytes = 0;
  double seconds = 0;
  std::vector<std::pair<std::shared_ptr<const SliceCache::Entry>,
                        std::vector<TextRange>>>
      parts;
  // Whether a slice has results in the visible range: a statement of its
  // own overlaps it (a copied import's results are the imports slice's).
  auto needed = [&](const eval::Slice &slice,
                    const std::vector<TextRange> &ranges) {
    bool allShared = llvm::all_of(slice.shared, [](bool b) { return b; });
    for (size_t k = 0; k < ranges.size(); ++k)
      if ((allShared || !slice.shared[k]) && ranges[k].begin <= visible->end &&
          visible->begin <= ranges[k].end)
        return true;
    return false;
  };
  auto rangesOf = [&](const eval::Slice &slice) {
    std::vector<TextRange> ranges;
    for (unsigned i : slice.statements)
      ranges.push_back(top[i].range());
    return ranges;
  };
  // A range every slice has results in asks for the complete analysis
  // (bank conflicts included: the result is the complete facts).
  if (visible && llvm::all_of(sliced.slices, [&](const eval::Slice &slice) {
        return needed(slice, rangesOf(slice));
      }))
    visible = std::nullopt;
  for (const eval::Slice &slice : sliced.slices) {
    std::vector<TextRange> ranges = rangesOf(slice);
    if (visible && !needed(slice, ranges)) {
      result.partial = true;
      continue;
    }
    std::string key = prefix + slice.key;
    std::shared_ptr<const SliceCache::Entry> entry = cache->lookup(key);
    // Kept by a visible-range analysis, without its bank conflicts: a
    // complete analysis evaluates the slice again (its layouts and
    // conflicts come from the layout cache when its IR is unchanged).
    if (entry && !visible && !entry->conflictsChecked)
      entry = nullptr;
    if (entry) {
      ++result.slicesReused;
      result.layoutsReused += entry->layoutInstances;
    } else {
      if (cancelled && cancelled())
        return result;
      eval::EvalOptions sliceOptions = options;
      sliceOptions.statements = slice.statements;
      sliceOptions.fileNames = sliced.names;
      // The time budget is the evaluator's, as in a whole evaluation:
      // layout inference and the checks after it are not counted.
      double start = threadCpuSeconds();
      eval::FileAnalysis a = eval::analyzeFile(tree, context, sliceOptions);
      double evalSeconds = threadCpuSeconds() - start;
      // Bank conflicts are remarks, which only the complete analysis
      // publishes: the first hints of an edit (a visible range) do without.
      driver::LayoutStats stats =
          driver::inferLayouts(a, tree, options.target.name, &layoutCache,
                               cancelled, /*bankConflicts=*/!visible);
      std::vector<driver::LayoutView> views =
          driver::collectLayoutViews(a, tree, options.target.name);
      a.module = nullptr;
      if (cancelled && cancelled())
        return result;
      // A budget stops the rest of the whole file: only a whole
      // evaluation says what that leaves out.
      if (a.budgetExhausted) {
        IncrementalResult r =
            evaluateWhole(tree, context, options, layoutCache, cancelled);
        r.wholeFileReason = "an evaluation budget";
        return r;
      }
      ++result.slicesEvaluated;
      result.layoutsInferred += stats.inferred;
      result.layoutsReused += stats.reused;
      auto fresh = std::make_shared<SliceCache::Entry>();
      fresh->statements = ranges;
      fresh->shared = slice.shared;
      fresh->diagnostics = std::move(a.diagnostics);
      fresh->hints = std::move(a.hints);
      fresh->instances = std::move(a.instances);
      fresh->layouts = std::move(views);
      fresh->steps = a.steps;
      fresh->bytes = a.bytesAllocated;
      fresh->seconds = evalSeconds;
      fresh->layoutInstances = stats.inferred + stats.reused;
      fresh->conflictsChecked = !visible;
      // Kept only if every result can be moved with its statements.
      Relocation same{ranges, ranges};
      bool movable = true;
      for (Diagnostic d : fresh->diagnostics)
        movable &= same.move(d);
      for (eval::Hint h : fresh->hints)
        movable &= same.move(h.range);
      for (eval::InstanceInfo info : fresh->instances)
        movable &= same.move(info.range);
      for (driver::LayoutView view : fresh->layouts) {
        movable &= same.move(view.range);
        for (driver::LayoutSliceView &slice : view.slices)
          movable &= same.move(slice.range);
      }
      if (movable)
        cache->record(key, fresh);
      entry = std::move(fresh);
    }
    steps += entry->steps;
    bytes += entry->bytes;
    seconds += entry->seconds;
    parts.push_back({std::move(entry), std::move(ranges)});
  }
  if (!result.partial &&
      (steps > options.stepBudget || bytes > options.memoryBudgetBytes ||
       seconds > options.timeBudgetSeconds)) {
    IncrementalResult r =
        evaluateWhole(tree, context, options, layoutCache, cancelled);
    r.wholeFileReason = "an evaluation budget";
    return r;
  }

  // Merge, moving kept results to the statements' current offsets.
  eval::FileAnalysis &out = result.analysis;
  std::set<std::string> sharedDiagnostics;
  for (auto &[entry, ranges] : parts) {
    Relocation move{entry->statements, ranges};
    for (Diagnostic d : entry->diagnostics) {
      int k = move.statementOf(d.range.begin);
      move.move(d);
      if (k >= 0 && entry->shared[k] &&
          !sharedDiagnostics.insert(diagnosticKey(d)).second)
        continue;
      out.diagnostics.push_back(std::move(d));
    }
    for (eval::Hint h : entry->hints) {
      move.move(h.range);
      out.hints.push_back(std::move(h));
    }
    // Instance indices count the instances of the slices before.
    unsigned firstInstance = out.instances.size();
    for (eval::InstanceInfo info : entry->instances) {
      move.move(info.range);
      out.instances.push_back(std::move(info));
    }
    for (driver::LayoutView view : entry->layouts) {
      move.move(view.range);
      for (driver::LayoutSliceView &slice : view.slices)
        move.move(slice.range);
      view.instanceIndex += firstInstance;
      result.layouts.push_back(std::move(view));
    }
    out.steps += entry->steps;
  }
  std::stable_sort(out.diagnostics.begin(), out.diagnostics.end(),
                   [](const Diagnostic &a, const Diagnostic &b) {
                     return a.range.begin < b.range.begin;
                   });
  return result;
}
