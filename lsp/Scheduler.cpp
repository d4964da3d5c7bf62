//===- Scheduler.cpp - Per-document work queues ---------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Scheduler.h"

#include "tlc/Syntax/Parser.h"
#include "tlc/Syntax/Reparse.h"

#include <asio.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <deque>
#include <optional>
#include <thread>
#include <vector>

using namespace tlc;
using namespace tlc::lsp;

SchedulerCallbacks::~SchedulerCallbacks() = default;

struct Scheduler::Pool {
  asio::io_context io;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>>
      guard;
  std::vector<std::thread> threads;
  std::atomic<bool> stopping{false};
};

struct Scheduler::Item {
  enum class Kind { Update, Read, Analyze, Invalidate, Close };
  Kind kind = Kind::Read;
  DocumentUpdate update;
  int64_t version = 0;
  CancelToken token;
  std::function<void(Result<std::shared_ptr<const Document>>)> action;
  /// When an Analyze item was queued (its debounce ended).
  std::chrono::steady_clock::time_point queued;
};

struct Scheduler::Worker {
  Worker(std::string uri, asio::io_context &io)
      : uri(std::move(uri)), timer(io) {}

  const std::string uri;

  // Guarded by `mutex`.
  std::mutex mutex;
  std::deque<Item> queue;
  bool running = false;
  asio::steady_timer timer;
  CancelToken analysisToken;
  /// The version of the last update: an Analyze item of an older version,
  /// queued before that update (its timer fired while a read ran), is
  /// superseded even though the update's item behind it has not run yet.
  int64_t latestVersion = -1;

  // Owned by the running drain (one at a time).
  std::shared_ptr<const Document> current;
  std::shared_ptr<const syntax::SyntaxTree> lastTree;
  std::shared_ptr<const std::string> text;
  int64_t version = -1;
  bool dirty = false;
  bool fullText = true;
  uint32_t prefix = 0, suffix = 0;
  bool closed = false;
  bool wasTileLang = false;
  int64_t analyzedVersion = -1;
  /// When the last read finished, and the version whose analysis was
  /// postponed after a read (drain).
  std::chrono::steady_clock::time_point lastRead;
  int64_t postponedVersion = -1;
};

Scheduler::Scheduler(const SchedulerOptions &options, Analyzer &analyzer,
                     SchedulerCallbacks &callbacks)
    : options(options), analyzer(analyzer), callbacks(callbacks),
      pool(std::make_unique<Pool>()) {
  if (options.threads == 0)
    return;
  pool->guard.emplace(pool->io.get_executor());
  for (unsigned i = 0; i < options.threads; ++i)
    pool->threads.emplace_back([this] {
      for (;;) {
        try {
          pool->io.run();
          return;
        } catch (...) {
          std::fprintf(stderr, "tlc-lsp: exception escaped a work item\n");
        }
      }
    });
}

Scheduler::~Scheduler() {
  pool->stopping = true;
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto &entry : workers) {
      std::lock_guard<std::mutex> wlock(entry.second->mutex);
      entry.second->timer.cancel();
      entry.second->analysisToken.cancel();
    }
  }
  if (options.threads == 0) {
    runUntilIdle();
  } else {
    pool->guard.reset();
    for (std::thread &t : pool->threads)
      t.join();
  }
  workers.clear();
}

void Scheduler::enqueue(const std::shared_ptr<Worker> &worker, Item item) {
  std::lock_guard<std::mutex> lock(worker->mutex);
  worker->queue.push_back(std::move(item));
  if (worker->running)
    return;
  worker->running = true;
  asio::post(pool->io, [this, worker] { drain(worker); });
}

void Scheduler::drain(const std::shared_ptr<Worker> &worker) {
  for (;;) {
    Item item;
    {
      std::lock_guard<std::mutex> lock(worker->mutex);
      if (worker->queue.empty()) {
        worker->running = false;
        return;
      }
      item = std::move(worker->queue.front());
      worker->queue.pop_front();
    }
    if (pool->stopping && item.kind == Item::Kind::Analyze)
      continue;
    // The debounce counts from the document's last read too: an analysis
    // whose debounce ended while a read ran (a client asking for the hints
    // of each edit) waits another debounce after it, so that the next
    // edit, which usually follows the answer at once, finds no complete
    // analysis to wait behind.
    // Once per version: a stream of reads does not hold it off for long.
    if (item.kind == Item::Kind::Analyze && options.debounce.count() > 0 &&
        worker->lastRead > item.queued &&
        worker->postponedVersion != item.version) {
      worker->postponedVersion = item.version;
      scheduleAnalysis(worker, item.version, /*again=*/true);
      continue;
    }
    try {
      process(*worker, item);
      if (item.kind == Item::Kind::Read)
        worker->lastRead = std::chrono::steady_clock::now();
    } catch (...) {
      std::fprintf(stderr, "tlc-lsp: exception in work for %s\n",
                   worker->uri.c_str());
    }
  }
}

/// A file name for parser diagnostics: the path part of a file URI.
static std::string fileNameOf(const std::string &uri) {
  llvm::StringRef ref(uri);
  if (ref.consume_front("file://"))
    return ref.str();
  return uri;
}

std::shared_ptr<const Document> Scheduler::ensureParsed(Worker &worker) {
  if (worker.current && !worker.dirty)
    return worker.current;
  const std::string &text = *worker.text;
  std::shared_ptr<const syntax::SyntaxTree> tree;
  if (importsTileLang(text)) {
    if (worker.lastTree && !worker.fullText) {
      uint32_t oldLen = worker.lastTree->source().size();
      uint32_t newLen = text.size();
      uint32_t p = std::min({worker.prefix, oldLen, newLen});
      uint32_t s = std::min({worker.suffix, oldLen - p, newLen - p});
      syntax::TextEdit edit;
      edit.range = TextRange{p, oldLen - s};
      edit.newText = text.substr(p, newLen - s - p);
      tree = syntax::reparse(worker.lastTree, edit);
      if (tree->source() != llvm::StringRef(text)) {
        std::fprintf(stderr, "tlc-lsp: incremental edit mismatch in %s\n",
                     worker.uri.c_str());
        tree = nullptr;
      }
    }
    if (!tree)
      tree = syntax::parse(text, fileNameOf(worker.uri));
  }
  worker.lastTree = tree;
  worker.current = std::make_shared<Document>(worker.uri, worker.version,
                                              options.encoding, tree);
  worker.dirty = false;
  worker.fullText = false;
  worker.prefix = worker.suffix = ~0u;
  return worker.current;
}

void Scheduler::process(Worker &worker, Item &item) {
  switch (item.kind) {
  case Item::Kind::Update: {
    const DocumentUpdate &up = item.update;
    worker.text = up.text;
    worker.version = up.version;
    if (up.fullText || !worker.lastTree) {
      worker.fullText = true;
    } else {
      worker.prefix = std::min(worker.prefix, up.unchangedPrefix);
      worker.suffix = std::min(worker.suffix, up.unchangedSuffix);
    }
    worker.dirty = true;
    return;
  }
  case Item::Kind::Read: {
    if (item.token.isCancelled()) {
      item.action(Failure{FailureKind::Cancelled, "request cancelled"});
      return;
    }
    if (!worker.text) {
      item.action(Failure{FailureKind::InvalidParams, "document not open"});
      return;
    }
    item.action(ensureParsed(worker));
    return;
  }
  case Item::Kind::Invalidate:
    if (worker.current && !worker.dirty)
      worker.current = std::make_shared<Document>(
          worker.uri, worker.version, options.encoding, worker.lastTree);
    worker.analyzedVersion = -1;
    return;
  case Item::Kind::Analyze: {
    if (worker.closed || item.version != worker.version ||
        worker.analyzedVersion == worker.version)
      return;
    std::shared_ptr<const Document> doc = ensureParsed(worker);
    if (!doc->isTileLang() && !worker.wasTileLang)
      return;
    CancelToken token = CancelToken::create();
    {
      // Checked and recorded under the lock that update() cancels under:
      // either the newer update is seen here, or it cancels this token.
      std::lock_guard<std::mutex> lock(worker.mutex);
      if (item.version != worker.latestVersion)
        return;
      worker.analysisToken = token;
    }
    if (doc->isTileLang()) {
      callbacks.onAnalysisProgress(worker.uri, false);
      auto facts = doc->getFacts(analyzer, getAnalysisOptions(), token);
      callbacks.onAnalysisProgress(worker.uri, true);
      if (!facts)
        return; // Superseded by a newer update.
    }
    worker.analyzedVersion = worker.version;
    worker.wasTileLang = doc->isTileLang();
    bool latest = true;
    {
      std::lock_guard<std::mutex> lock(worker.mutex);
      for (const Item &queued : worker.queue)
        if (queued.kind == Item::Kind::Update)
          latest = false;
    }
    callbacks.onAnalyzed(*doc, latest);
    return;
  }
  case Item::Kind::Close:
    worker.closed = true;
    callbacks.onClosed(worker.uri);
    return;
  }
}

void Scheduler::scheduleAnalysis(const std::shared_ptr<Worker> &worker,
                                 int64_t version, bool again) {
  std::weak_ptr<Worker> weak = worker;
  std::lock_guard<std::mutex> lock(worker->mutex);
  // Postponed (drain): not if a newer update armed the timer meanwhile.
  if (again && version != worker->latestVersion)
    return;
  worker->analysisToken.cancel();
  worker->timer.expires_after(options.debounce);
  worker->timer.async_wait([this, weak, version](const std::error_code &ec) {
    if (ec || pool->stopping)
      return;
    if (std::shared_ptr<Worker> w = weak.lock()) {
      Item item;
      item.kind = Item::Kind::Analyze;
      item.version = version;
      item.queued = std::chrono::steady_clock::now();
      enqueue(w, std::move(item));
    }
  });
}

void Scheduler::update(const std::string &uri, DocumentUpdate update) {
  std::shared_ptr<Worker> worker;
  {
    std::lock_guard<std::mutex> lock(mutex);
    std::shared_ptr<Worker> &slot = workers[uri];
    if (!slot)
      slot = std::make_shared<Worker>(uri, pool->io);
    worker = slot;
  }
  int64_t version = update.version;
  Item item;
  item.kind = Item::Kind::Update;
  item.update = std::move(update);
  {
    std::lock_guard<std::mutex> lock(worker->mutex);
    worker->latestVersion = version;
  }
  enqueue(worker, std::move(item));
  scheduleAnalysis(worker, version);
}

void Scheduler::remove(const std::string &uri) {
  std::shared_ptr<Worker> worker;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = workers.find(uri);
    if (it == workers.end())
      return;
    worker = it->second;
    workers.erase(it);
  }
  {
    std::lock_guard<std::mutex> lock(worker->mutex);
    worker->timer.cancel();
    worker->analysisToken.cancel();
  }
  Item item;
  item.kind = Item::Kind::Close;
  enqueue(worker, std::move(item));
}

void Scheduler::runWithDocument(
    const std::string &uri, const CancelToken &token,
    std::function<void(Result<std::shared_ptr<const Document>>)> action) {
  std::shared_ptr<Worker> worker;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = workers.find(uri);
    if (it != workers.end())
      worker = it->second;
  }
  if (!worker) {
    action(Failure{FailureKind::InvalidParams, "document not open: " + uri});
    return;
  }
  Item item;
  item.kind = Item::Kind::Read;
  item.token = token;
  item.action = std::move(action);
  enqueue(worker, std::move(item));
}

void Scheduler::setAnalysisOptions(const AnalysisOptions &newOptions) {
  std::vector<std::pair<std::shared_ptr<Worker>, int64_t>> all;
  {
    std::lock_guard<std::mutex> lock(mutex);
    analysisOptions = newOptions;
    for (auto &entry : workers)
      all.push_back({entry.second, 0});
  }
  for (auto &entry : all) {
    Item item;
    item.kind = Item::Kind::Invalidate;
    enqueue(entry.first, std::move(item));
    // Re-analyse whatever version is current when the item runs.
    Item read;
    read.kind = Item::Kind::Read;
    std::weak_ptr<Worker> weak = entry.first;
    read.action = [this, weak](Result<std::shared_ptr<const Document>> doc) {
      if (std::shared_ptr<Worker> w = weak.lock())
        if (doc)
          scheduleAnalysis(w, (*doc)->getVersion());
    };
    enqueue(entry.first, std::move(read));
  }
}

AnalysisOptions Scheduler::getAnalysisOptions() const {
  std::lock_guard<std::mutex> lock(mutex);
  return analysisOptions;
}

void Scheduler::runUntilIdle() {
  if (options.threads != 0)
    return;
  pool->io.restart();
  pool->io.run();
}
