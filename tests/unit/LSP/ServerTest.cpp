//===- ServerTest.cpp - The TlcServer API, synchronously ------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Drives TlcServer without JSON in synchronous mode (workerThreads = 0, so
// work runs inside runUntilIdle). Expectations are hand-written.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"
#include "Document.h"
#include "Features.h"
#include "Server.h"

#include "tlc/Lang/Builtins.h"
#include "tlc/Syntax/Parser.h"

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

using namespace tlc;
using namespace tlc::lsp;

namespace {
/// Records what the server publishes.
struct Recorder : ServerCallbacks {
  std::vector<std::pair<std::string, std::optional<int64_t>>> published;
  std::vector<Diag> lastDiags;
  int hintRefreshes = 0;
  void onDiagnostics(const std::string &uri, std::optional<int64_t> version,
                     std::vector<Diag> diags) override {
    published.push_back({uri, version});
    lastDiags = std::move(diags);
  }
  void onHintsChanged(const std::string &) override { ++hintRefreshes; }
};

/// Counts analyses, delegating to the evaluator-backed analyzer.
struct CountingAnalyzer : Analyzer {
  std::unique_ptr<Analyzer> inner = createDefaultAnalyzer();
  std::atomic<int> calls{0};
  const char *getName() const override { return "counting"; }
  std::shared_ptr<const AnalysisFacts>
  analyze(const std::shared_ptr<const syntax::SyntaxTree> &tree,
          const AnalysisOptions &options, const CancelToken &token) override {
    ++calls;
    return inner->analyze(tree, options, token);
  }
};

ServerOptions syncOptions(PositionEncoding encoding,
                          std::shared_ptr<Analyzer> analyzer = nullptr) {
  ServerOptions options;
  options.workerThreads = 0;
  options.debounce = std::chrono::milliseconds(0);
  options.encoding = encoding;
  options.analyzer = analyzer;
  return options;
}

/// Applies one ranged change to `before` and checks the server's text.
void checkEdit(PositionEncoding encoding, const std::string &before,
               Position start, Position end, const std::string &insert,
               const std::string &expected) {
  Recorder recorder;
  TlcServer server(syncOptions(encoding), recorder);
  server.openDocument("file:///e.py", 1, before);
  auto failure =
      server.changeDocument("file:///e.py", 2, {{Range{start, end}, insert}});
  REQUIRE(!failure);
  CHECK(*server.getDocumentText("file:///e.py") == expected);
}

/// Labels of all inlay hints of `source`, in order.
std::vector<std::string> hintLabels(const std::string &source,
                                    Config config = Config()) {
  Recorder recorder;
  ServerOptions options = syncOptions(PositionEncoding::Utf16);
  options.config = config;
  TlcServer server(options, recorder);
  server.openDocument("file:///h.py", 1, source);
  std::vector<std::string> labels;
  server.inlayHints("file:///h.py", Range{{0, 0}, {9999, 0}}, CancelToken(),
                    [&](Result<std::vector<InlayHint>> hints) {
                      REQUIRE(bool(hints));
                      for (const InlayHint &h : *hints)
                        labels.push_back(h.label);
                    });
  server.runUntilIdle();
  return labels;
}
} // namespace

TEST_CASE("incremental edits in UTF-16 and UTF-8 columns") {
  // "é" is 1 UTF-16 unit and 2 bytes; "𝔸" is 2 units and 4 bytes.
  checkEdit(PositionEncoding::Utf16, "a é b\n", {0, 4}, {0, 5}, "X",
            "a é X\n");
  checkEdit(PositionEncoding::Utf8, "a é b\n", {0, 5}, {0, 6}, "X",
            "a é X\n");
  checkEdit(PositionEncoding::Utf16, "𝔸x\n", {0, 2}, {0, 3}, "y", "𝔸y\n");
  checkEdit(PositionEncoding::Utf8, "𝔸x\n", {0, 4}, {0, 5}, "y", "𝔸y\n");
  // Across lines, and past the end (clamped).
  checkEdit(PositionEncoding::Utf16, "ab\ncd\nef\n", {0, 1}, {2, 1}, "-",
            "a-f\n");
  checkEdit(PositionEncoding::Utf16, "ab\n", {0, 99}, {0, 99}, "!", "ab!\n");
  checkEdit(PositionEncoding::Utf16, "ab\r\ncd\r\n", {1, 0}, {1, 2}, "xy",
            "ab\r\nxy\r\n");
}

TEST_CASE("edits to unopened documents and reversed ranges fail") {
  Recorder recorder;
  TlcServer server(syncOptions(PositionEncoding::Utf16), recorder);
  CHECK(server.changeDocument("file:///none.py", 2, {{std::nullopt, "x"}})
            ->kind == FailureKind::InvalidParams);
  server.openDocument("file:///a.py", 1, "abc\n");
  CHECK(server.changeDocument("file:///a.py", 2,
                              {{Range{{0, 2}, {0, 1}}, "x"}})
            ->kind == FailureKind::InvalidParams);
  CHECK(*server.getDocumentText("file:///a.py") == "abc\n");
}

TEST_CASE("importsTileLang") {
  CHECK(importsTileLang("import tilelang\n"));
  CHECK(importsTileLang("import os\nimport tilelang.language as T\n"));
  CHECK(importsTileLang("from tilelang import language as T\n"));
  CHECK(importsTileLang("  from tilelang.language import copy\n"));
  CHECK(importsTileLang("import os, tilelang\n"));
  CHECK(!importsTileLang("import torch\n# tilelang is great\n"));
  CHECK(!importsTileLang("x = 'import tilelang'\n"));
  CHECK(!importsTileLang("import tilelang_extras\n"));
  CHECK(!importsTileLang(""));
}

TEST_CASE("inlay hint labels come from the evaluator") {
  const char *kernel = "import tilelang.language as T\n"
                       "N = 256\n"
                       "@T.prim_func\n"
                       "def k(A: T.Tensor((N, N // 4), T.bfloat16),\n"
                       "      B: T.Tensor[(N,), \"int8\"]):\n"
                       "    with T.Kernel(N // 64, 2, threads=(64)) as (x, y):\n"
                       "        S = T.alloc_shared((64, 64), T.bfloat16)\n"
                       "        F = T.alloc_fragment([64], \"float32\")\n"
                       "        v = T.alloc_var(\"int32\")\n"
                       "        T.clear(S)\n"
                       "        for i in T.Pipelined(N, num_stages=4):\n"
                       "            pass\n";
  std::vector<std::string> expected = {
      "global bf16[256, 64]", "global i8[256]",
      "grid 4×2 · 64 threads · smem 8 KiB",
      // No op constrains S or F: the free level picks a row-major shared
      // layout and spreads F's 64 elements over the 64 threads.
      "shared bf16[64, 64] · linear", "fragment f32[64] · parallel · 1 reg/thread",
      "var i32", "4 stages"};
  CHECK(hintLabels(kernel) == expected);

  Config config;
  config.inlayHints.buffers = false;
  config.inlayHints.pipelines = false;
  CHECK(hintLabels(kernel, config) ==
        std::vector<std::string>{"grid 4×2 · 64 threads · smem 8 KiB"});
  // Files without a tilelang import get nothing.
  CHECK(hintLabels("def k(A: T.Tensor((4,), 'float16')): pass\n").empty());
}

TEST_CASE("hover of a builtin comes from the registry") {
  auto tree = syntax::parse("import tilelang.language as T\nT.gemm(a, b, c)\n");
  Document doc("file:///x.py", 1, PositionEncoding::Utf16, tree);
  auto hover = computeHover(doc, 33, nullptr,
                            [](const std::string &) { return 0u; });
  REQUIRE(hover);
  const lang::BuiltinInfo *gemm = lang::lookupBuiltin("T.gemm");
  REQUIRE(gemm);
  CHECK(llvm::StringRef(hover->markdown).contains(gemm->signature));
  CHECK(llvm::StringRef(hover->markdown).contains(gemm->doc));
  CHECK(hover->range->start.character == 2);
  CHECK(hover->range->end.character == 6);
}

TEST_CASE("superseded edits are not analysed") {
  auto analyzer = std::make_shared<CountingAnalyzer>();
  Recorder recorder;
  TlcServer server(syncOptions(PositionEncoding::Utf16, analyzer), recorder);
  server.openDocument("file:///s.py", 1, "import tilelang\nx = 1\n");
  for (int v = 2; v <= 50; ++v)
    REQUIRE(!server.changeDocument("file:///s.py", v,
                                   {{Range{{1, 4}, {1, 5}}, std::to_string(v % 10)}}));
  server.runUntilIdle();
  // One analysis for the last version, one diagnostics message.
  CHECK(analyzer->calls == 1);
  REQUIRE(recorder.published.size() == 1);
  CHECK(recorder.published[0].second == 50);
  CHECK(*server.getDocumentText("file:///s.py") == "import tilelang\nx = 0\n");
}

namespace {
/// Records the text of every analysis (threaded servers).
struct TextRecordingAnalyzer : Analyzer {
  std::mutex mutex;
  std::vector<std::string> texts;
  std::vector<std::chrono::steady_clock::time_point> times;
  const char *getName() const override { return "texts"; }
  std::shared_ptr<const AnalysisFacts>
  analyze(const std::shared_ptr<const syntax::SyntaxTree> &tree,
          const AnalysisOptions &, const CancelToken &) override {
    std::lock_guard<std::mutex> lock(mutex);
    texts.push_back(tree->source().str());
    times.push_back(std::chrono::steady_clock::now());
    return std::make_shared<AnalysisFacts>();
  }
  bool saw(llvm::StringRef needle) {
    std::lock_guard<std::mutex> lock(mutex);
    return llvm::any_of(texts, [&](const std::string &t) {
      return llvm::StringRef(t).contains(needle);
    });
  }
};
} // namespace

TEST_CASE("an analysis queued behind a read is dropped by a newer edit") {
  // Version 2's debounce ends while a slow read holds the document's queue,
  // so its analysis is queued behind the read; version 3 arrives before
  // the read ends. Version 2 must not be analysed after the read (it used
  // to be, holding up version 3's requests behind a complete analysis).
  auto analyzer = std::make_shared<TextRecordingAnalyzer>();
  Recorder recorder;
  ServerOptions options = syncOptions(PositionEncoding::Utf16, analyzer);
  options.workerThreads = 2;
  options.debounce = std::chrono::milliseconds(20);
  using namespace std::chrono_literals;
  auto waitFor = [&](llvm::StringRef needle) {
    for (int i = 0; i < 500 && !analyzer->saw(needle); ++i)
      std::this_thread::sleep_for(10ms);
    return analyzer->saw(needle);
  };
  TlcServer server(options, recorder);
  const char *uri = "file:///q.py";
  server.openDocument(uri, 1, "import tilelang\nx = 1\n");
  REQUIRE(waitFor("x = 1"));
  REQUIRE(!server.changeDocument(uri, 2, {{Range{{1, 4}, {1, 5}}, "2"}}));
  std::atomic<bool> readDone{false};
  server.semanticTokens(uri, CancelToken(),
                        [&](Result<std::vector<SemanticToken>>) {
                          std::this_thread::sleep_for(400ms);
                          readDone = true;
                        });
  std::this_thread::sleep_for(150ms);
  REQUIRE(!readDone);
  REQUIRE(!server.changeDocument(uri, 3, {{Range{{1, 4}, {1, 5}}, "3"}}));
  CHECK(waitFor("x = 3"));
  CHECK(!analyzer->saw("x = 2"));
}

TEST_CASE("an analysis whose debounce ended during a read waits after it") {
  // A client that asks for hints after each edit: the debounce of version
  // 2 ends while its read runs; the analysis then waits another debounce
  // after the read, so that an edit right after the answer finds none in
  // its way.
  auto analyzer = std::make_shared<TextRecordingAnalyzer>();
  Recorder recorder;
  ServerOptions options = syncOptions(PositionEncoding::Utf16, analyzer);
  options.workerThreads = 2;
  options.debounce = std::chrono::milliseconds(100);
  using namespace std::chrono_literals;
  TlcServer server(options, recorder);
  const char *uri = "file:///p.py";
  server.openDocument(uri, 1, "import tilelang\nx = 1\n");
  for (int i = 0; i < 500 && !analyzer->saw("x = 1"); ++i)
    std::this_thread::sleep_for(10ms);
  REQUIRE(analyzer->saw("x = 1"));
  REQUIRE(!server.changeDocument(uri, 2, {{Range{{1, 4}, {1, 5}}, "2"}}));
  std::atomic<bool> readDone{false};
  std::chrono::steady_clock::time_point readEnd;
  server.semanticTokens(uri, CancelToken(),
                        [&](Result<std::vector<SemanticToken>>) {
                          std::this_thread::sleep_for(250ms);
                          readEnd = std::chrono::steady_clock::now();
                          readDone = true;
                        });
  for (int i = 0; i < 500 && !analyzer->saw("x = 2"); ++i)
    std::this_thread::sleep_for(10ms);
  REQUIRE(analyzer->saw("x = 2"));
  REQUIRE(readDone);
  std::lock_guard<std::mutex> lock(analyzer->mutex);
  // Not before a debounce after the read (the drain records the read's end
  // a moment after the action's own clock: 90 ms of the 100 are asked).
  CHECK(analyzer->times.back() - readEnd >= 90ms);
}

TEST_CASE("reads are bound to the version at request time") {
  Recorder recorder;
  TlcServer server(syncOptions(PositionEncoding::Utf16), recorder);
  server.openDocument("file:///v.py", 1,
                      "import tilelang.language as T\n@T.prim_func\n"
                      "def k(A: T.Tensor((4,), 'float16')): pass\n");
  std::vector<int64_t> versions;
  std::vector<std::string> labels;
  auto collect = [&](Result<std::vector<InlayHint>> hints) {
    REQUIRE(bool(hints));
    for (const InlayHint &h : *hints) {
      versions.push_back(h.version);
      labels.push_back(h.label);
    }
  };
  server.inlayHints("file:///v.py", Range{{0, 0}, {99, 0}}, CancelToken(),
                    collect);
  // Changes the shape before the first request has run.
  REQUIRE(!server.changeDocument("file:///v.py", 2,
                                 {{Range{{2, 19}, {2, 20}}, "8"}}));
  server.inlayHints("file:///v.py", Range{{0, 0}, {99, 0}}, CancelToken(),
                    collect);
  server.runUntilIdle();
  CHECK(versions == std::vector<int64_t>{1, 2});
  CHECK(labels == std::vector<std::string>{"global f16[4]", "global f16[8]"});
}

TEST_CASE("a cancelled request fails with Cancelled") {
  Recorder recorder;
  TlcServer server(syncOptions(PositionEncoding::Utf16), recorder);
  server.openDocument("file:///c.py", 1, "import tilelang\n");
  CancelToken token = CancelToken::create();
  std::optional<FailureKind> kind;
  server.documentSymbols("file:///c.py", token,
                         [&](Result<std::vector<DocumentSymbol>> r) {
                           kind = r ? std::nullopt
                                    : std::optional(r.getFailure().kind);
                         });
  token.cancel();
  server.runUntilIdle();
  CHECK(kind == FailureKind::Cancelled);
}

TEST_CASE("a threaded server answers and shuts down cleanly") {
  Recorder recorder;
  ServerOptions options = syncOptions(PositionEncoding::Utf16);
  options.workerThreads = 2;
  std::atomic<int> answered{0};
  {
    TlcServer server(options, recorder);
    for (int d = 0; d < 8; ++d) {
      std::string uri = "file:///t" + std::to_string(d) + ".py";
      server.openDocument(uri, 1, "import tilelang\nx = (\n");
      for (int i = 0; i < 20; ++i)
        server.documentSymbols(uri, CancelToken(),
                               [&](Result<std::vector<DocumentSymbol>> r) {
                                 if (r)
                                   ++answered;
                               });
    }
    // Destruction waits for queued reads.
  }
  CHECK(answered == 160);
}

namespace {
/// Facts with one buffer that has a layout, as layout inference will give.
struct LayoutAnalyzer : Analyzer {
  const char *getName() const override { return "layout"; }
  std::shared_ptr<const AnalysisFacts>
  analyze(const std::shared_ptr<const syntax::SyntaxTree> &tree,
          const AnalysisOptions &, const CancelToken &) override {
    auto facts = std::make_shared<AnalysisFacts>();
    KernelFact kernel;
    kernel.name = "k";
    kernel.range = TextRange{0, static_cast<uint32_t>(tree->source().size())};
    InstanceFact instance;
    instance.label = "k()";
    BufferFact b;
    b.name = "S";
    b.nameRange = TextRange{0, 1};
    b.hintOffset = 1;
    b.shape = "[64, 64]";
    b.dtype = "f16";
    b.scope = "shared";
    b.scopeString = "shared.dyn";
    b.layout = "swizzle 128B";
    b.layoutDetail = "offset = 8 * i + j\n  0  8\n";
    instance.buffers.push_back(b);
    kernel.instances.push_back(instance);
    facts->kernels.push_back(kernel);
    return facts;
  }
};
} // namespace

TEST_CASE("layouts: label in the hint, long form in resolve and hover") {
  Recorder recorder;
  ServerOptions options =
      syncOptions(PositionEncoding::Utf16, std::make_shared<LayoutAnalyzer>());
  TlcServer server(options, recorder);
  server.openDocument("file:///l.py", 1, "S = 1\nimport tilelang\nS\n");
  std::vector<InlayHint> hints;
  server.inlayHints("file:///l.py", Range{{0, 0}, {9, 0}}, CancelToken(),
                    [&](Result<std::vector<InlayHint>> r) {
                      REQUIRE(bool(r));
                      hints = *r;
                    });
  server.runUntilIdle();
  REQUIRE(hints.size() == 1);
  CHECK(hints[0].label == "shared f16[64, 64] · swizzle 128B");
  CHECK(hints[0].tooltip.empty()); // Sent by resolve only.
  std::string tooltip;
  server.resolveInlayHint("file:///l.py", hints[0], CancelToken(),
                          [&](Result<InlayHint> r) {
                            REQUIRE(bool(r));
                            tooltip = r->tooltip;
                          });
  std::optional<HoverInfo> hover;
  server.hover("file:///l.py", Position{2, 0}, CancelToken(),
               [&](Result<std::optional<HoverInfo>> r) {
                 REQUIRE(bool(r));
                 hover = *r;
               });
  server.runUntilIdle();
  // The long form is plain text: a code block keeps its columns.
  CHECK(tooltip == "```text\noffset = 8 * i + j\n  0  8\n```");
  REQUIRE(hover);
  CHECK(llvm::StringRef(hover->markdown).contains("| layout | swizzle 128B |"));
  CHECK(llvm::StringRef(hover->markdown)
            .contains("\n```text\noffset = 8 * i + j\n  0  8\n```\n"));
  // The layouts category off: the label loses the layout.
  Config config;
  config.inlayHints.layouts = false;
  server.setConfig(config);
  server.inlayHints("file:///l.py", Range{{0, 0}, {9, 0}}, CancelToken(),
                    [&](Result<std::vector<InlayHint>> r) {
                      REQUIRE(bool(r));
                      hints = *r;
                    });
  server.runUntilIdle();
  REQUIRE(hints.size() == 1);
  CHECK(hints[0].label == "shared f16[64, 64]");
}
