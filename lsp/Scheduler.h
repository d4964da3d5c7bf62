//===- Scheduler.h - Per-document work queues -------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs the work of open documents on a small asio thread pool, in the manner
// of clangd's TUScheduler:
//
//  * Each document has a FIFO queue; its items run one at a time, in order,
//    so a read sees exactly the text of the updates received before it.
//  * Updates only record the new text. Parsing is lazy: it happens when a
//    read or an analysis needs the tree, with all edits since the last parse
//    merged into one incremental reparse. Versions nobody asks about are
//    never parsed (superseded edits are dropped).
//  * Analysis for diagnostics is debounced: it runs `debounce` after the
//    last update (and after the last read, when its debounce ended while a
//    read ran) and only if no newer update arrived meanwhile; a running
//    analysis is cancelled by the next update.
//  * Reads carry a CancelToken; a cancelled read is answered with
//    FailureKind::Cancelled instead of running.
//
// In synchronous mode (lit tests) there are no threads: work is queued and
// runs when the caller invokes runUntilIdle(), which makes output order
// deterministic.
//
// Thread-safety: update/remove/runWithDocument may be called from one
// dispatcher thread; callbacks run on worker threads (or inside
// runUntilIdle in synchronous mode).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LSP_SCHEDULER_H
#define TLC_LSP_SCHEDULER_H

#include "Analysis.h"
#include "Document.h"
#include "Types.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace tlc {
namespace lsp {

/// Receives results of background work. Called on worker threads.
class SchedulerCallbacks {
public:
  virtual ~SchedulerCallbacks();
  /// A fresh analysis of `doc` finished (diagnostics may be published).
  /// `latest` is true when no newer version of the document is queued.
  virtual void onAnalyzed(const Document &doc, bool latest) = 0;
  /// `uri` was closed; its diagnostics should be cleared.
  virtual void onClosed(const std::string &uri) = 0;
  /// Analysis of `uri` started; `end` is false, or finished; `end` true.
  virtual void onAnalysisProgress(const std::string &uri, bool end) {}
};

/// Options of the Scheduler.
struct SchedulerOptions {
  /// Worker threads; 0 selects synchronous mode (see runUntilIdle).
  unsigned threads = 2;
  /// Delay between the last update and the diagnostics analysis.
  std::chrono::milliseconds debounce{50};
  /// Column encoding of positions handed to features.
  PositionEncoding encoding = PositionEncoding::Utf16;
};

/// One new version of a document's text.
struct DocumentUpdate {
  /// The client's version number.
  int64_t version = 0;
  /// The full new text.
  std::shared_ptr<const std::string> text;
  /// Bytes at the start that are unchanged since the previous version.
  uint32_t unchangedPrefix = 0;
  /// Bytes at the end that are unchanged since the previous version.
  uint32_t unchangedSuffix = 0;
  /// True when the prefix/suffix bounds are unknown (open, full change).
  bool fullText = true;
};

/// Per-document serialized work with debounce and lazy, merged parsing.
class Scheduler {
public:
  /// Creates the scheduler; `analyzer` and `callbacks` must outlive it.
  Scheduler(const SchedulerOptions &options, Analyzer &analyzer,
            SchedulerCallbacks &callbacks);
  /// Cancels pending work and joins the worker threads.
  ~Scheduler();

  /// Records a new version of `uri` (opening it if needed).
  void update(const std::string &uri, DocumentUpdate update);
  /// Closes `uri`; queued reads still run, analysis is dropped.
  void remove(const std::string &uri);
  /// Runs `action` on the document's worker with the snapshot of the
  /// version current when this call was made. `action` gets a failure when
  /// the document is not open or `token` was cancelled before it ran.
  void runWithDocument(
      const std::string &uri, const CancelToken &token,
      std::function<void(Result<std::shared_ptr<const Document>>)> action);
  /// Changes analysis options; cached facts of every document are dropped
  /// and diagnostics recomputed.
  void setAnalysisOptions(const AnalysisOptions &options);
  /// The current analysis options (copied under a lock).
  AnalysisOptions getAnalysisOptions() const;
  /// The analyzer in use.
  Analyzer &getAnalyzer() { return analyzer; }

  /// Synchronous mode only: runs queued work and timers until none is left.
  void runUntilIdle();

private:
  struct Worker;
  struct Item;
  void enqueue(const std::shared_ptr<Worker> &worker, Item item);
  void drain(const std::shared_ptr<Worker> &worker);
  void process(Worker &worker, Item &item);
  std::shared_ptr<const Document> ensureParsed(Worker &worker);
  /// Arms the debounce timer for an analysis of \p version; \p again:
  /// a postponed one, dropped when a newer update came.
  void scheduleAnalysis(const std::shared_ptr<Worker> &worker,
                        int64_t version, bool again = false);

  SchedulerOptions options;
  Analyzer &analyzer;
  SchedulerCallbacks &callbacks;
  struct Pool;
  std::unique_ptr<Pool> pool;
  mutable std::mutex mutex;
  std::map<std::string, std::shared_ptr<Worker>> workers;
  AnalysisOptions analysisOptions;
};

} // namespace lsp
} // namespace tlc

#endif // TLC_LSP_SCHEDULER_H
