//===- IncrementalTest.cpp - Re-analysis reuses unchanged kernels ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The evaluator-backed analyzer keeps the layouts of every kernel instance
// (driver::LayoutCache) and re-infers only the instances an edit changed.
// These tests watch the reuse through AnalysisFacts::layoutsInferred /
// layoutsReused, and check the result against an independent oracle: a
// fresh server (empty cache) on the same text must give the same hints
// (positions, labels, tooltips) and diagnostics.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"
#include "Server.h"

#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

using namespace tlc;
using namespace tlc::lsp;

namespace {
/// Keeps the last diagnostics the server published.
struct LastDiagnostics : ServerCallbacks {
  std::vector<Diag> diags;
  void onDiagnostics(const std::string &, std::optional<int64_t>,
                     std::vector<Diag> published) override {
    diags = std::move(published);
  }
};

/// The default analyzer, remembering what its last analysis reused.
struct ReuseAnalyzer : Analyzer {
  std::unique_ptr<Analyzer> inner = createDefaultAnalyzer();
  unsigned inferred = 0, reused = 0, totalReused = 0;
  const char *getName() const override { return "reuse"; }
  std::shared_ptr<const AnalysisFacts>
  analyze(const std::shared_ptr<const syntax::SyntaxTree> &tree,
          const AnalysisOptions &options, const CancelToken &token) override {
    std::shared_ptr<const AnalysisFacts> facts =
        inner->analyze(tree, options, token);
    inferred = facts->layoutsInferred;
    reused = facts->layoutsReused;
    totalReused += reused;
    return facts;
  }
};

/// A synchronous server over one document.
struct Session {
  static constexpr const char *uri = "file:///inc.py";
  LastDiagnostics callbacks;
  std::shared_ptr<ReuseAnalyzer> analyzer = std::make_shared<ReuseAnalyzer>();
  std::unique_ptr<TlcServer> server;
  int64_t version = 1;

  explicit Session(const std::string &text, Config config = Config()) {
    ServerOptions options;
    options.config = config;
    options.workerThreads = 0;
    options.debounce = std::chrono::milliseconds(0);
    options.encoding = PositionEncoding::Utf16;
    options.analyzer = analyzer;
    server = std::make_unique<TlcServer>(options, callbacks);
    server->openDocument(uri, version, text);
    server->runUntilIdle();
  }

  /// Replaces [start, end) by `text` and waits for the analysis.
  void edit(Position start, Position end, const std::string &text) {
    REQUIRE(!server->changeDocument(uri, ++version,
                                    {{Range{start, end}, text}}));
    server->runUntilIdle();
  }

  /// Every hint as `line:col kind label [tooltip]`, tooltips resolved.
  std::vector<std::string> hints() {
    std::vector<InlayHint> all;
    server->inlayHints(uri, Range{{0, 0}, {100000, 0}}, CancelToken(),
                       [&](Result<std::vector<InlayHint>> r) {
                         REQUIRE(bool(r));
                         all = *r;
                       });
    server->runUntilIdle();
    std::vector<std::string> out;
    for (const InlayHint &h : all) {
      std::string tooltip;
      server->resolveInlayHint(uri, h, CancelToken(),
                               [&](Result<InlayHint> r) {
                                 REQUIRE(bool(r));
                                 tooltip = r->tooltip;
                               });
      server->runUntilIdle();
      out.push_back(std::to_string(h.position.line) + ":" +
                    std::to_string(h.position.character) + " " +
                    std::to_string(int(h.kind)) + " " + h.label + " [" +
                    tooltip + "]");
    }
    return out;
  }

  /// Every published diagnostic as `l:c-l:c source message (notes)`.
  std::vector<std::string> diagnostics() const {
    auto pos = [](Position p) {
      return std::to_string(p.line) + ":" + std::to_string(p.character);
    };
    std::vector<std::string> out;
    for (const Diag &d : callbacks.diags) {
      // Hints (bank conflicts of the generated code) are not problems.
      if (d.severity == DiagSeverity::Hint)
        continue;
      std::string s = pos(d.range.start) + "-" + pos(d.range.end) + " " +
                      d.source + " " + d.message;
      for (const DiagRelated &r : d.related)
        s += " (" + pos(r.location.range.start) + " " + r.message + ")";
      out.push_back(s);
    }
    return out;
  }
};

/// Hints of `text` from a server that has seen nothing before.
std::vector<std::string> freshHints(const std::string &text) {
  Session fresh(text);
  return fresh.hints();
}

/// Diagnostics of `text` from a fresh server.
std::vector<std::string> freshDiagnostics(const std::string &text) {
  Session fresh(text);
  return fresh.diagnostics();
}

/// Hints on line `line` only.
std::vector<std::string> onLines(const std::vector<std::string> &hints,
                                 unsigned first, unsigned last) {
  std::vector<std::string> out;
  for (const std::string &h : hints) {
    unsigned line = std::stoul(h.substr(0, h.find(':')));
    if (line >= first && line <= last)
      out.push_back(h);
  }
  return out;
}

// Two kernels: `first` uses the module-level BM, `second` does not.
const char *kTwoKernels =
    "import tilelang.language as T\n"                                    // 0
    "BM = 64\n"                                                          // 1
    "\n"                                                                 // 2
    "@T.prim_func\n"                                                     // 3
    "def first(A: T.Tensor((BM, 32), \"float16\"),\n"                    // 4
    "          B: T.Tensor((32, 64), \"float16\"),\n"                    // 5
    "          C: T.Tensor((BM, 64), \"float32\")):\n"                   // 6
    "    with T.Kernel(1, threads=128) as bx:\n"                         // 7
    "        A_s = T.alloc_shared((BM, 32), \"float16\")\n"              // 8
    "        B_s = T.alloc_shared((32, 64), \"float16\")\n"              // 9
    "        C_f = T.alloc_fragment((BM, 64), \"float32\")\n"            // 10
    "        T.copy(A, A_s)\n"                                           // 11
    "        T.copy(B, B_s)\n"                                           // 12
    "        T.gemm(A_s, B_s, C_f, clear_accum=True)\n"                  // 13
    "        T.copy(C_f, C)\n"                                           // 14
    "\n"                                                                 // 15
    "@T.prim_func\n"                                                     // 16
    "def second(X: T.Tensor((128, 64), \"float16\"),\n"                  // 17
    "           Y: T.Tensor((128, 64), \"float16\")):\n"                 // 18
    "    with T.Kernel(1, threads=128) as bx:\n"                         // 19
    "        X_s = T.alloc_shared((128, 64), \"float16\")\n"             // 20
    "        Y_f = T.alloc_fragment((128, 64), \"float32\")\n"           // 21
    "        T.copy(X, X_s)\n"                                           // 22
    "        T.copy(X_s, Y_f)\n"                                         // 23
    "        T.copy(Y_f, Y)\n";                                          // 24
} // namespace

TEST_CASE("an edit inside one kernel re-infers only that kernel") {
  Session s(kTwoKernels);
  CHECK(s.analyzer->inferred == 2);
  CHECK(s.analyzer->reused == 0);
  std::vector<std::string> before = s.hints();
  // Both kernels have layouts (a gemm and a copy to a fragment).
  REQUIRE(before.size() == 12);
  CHECK(llvm::StringRef(before[5]).contains("shared f16[32, 64] · swizzle"));
  CHECK(llvm::StringRef(before[11]).contains("fragment f32[128, 64] · "));

  // `first` gets 256 threads: only `first` is inferred again.
  s.edit({7, 29}, {7, 32}, "256");
  CHECK(s.analyzer->inferred == 1);
  CHECK(s.analyzer->reused == 1);
  std::vector<std::string> after = s.hints();
  CHECK(onLines(after, 16, 24) == onLines(before, 16, 24));
  CHECK(onLines(after, 0, 15) != onLines(before, 0, 15));
  CHECK(after == freshHints(*s.server->getDocumentText(Session::uri)));
}

TEST_CASE("hints below an edit move with the text") {
  Session s(kTwoKernels);
  std::vector<std::string> before = s.hints();
  // Two lines above both kernels, and a longer first line of `second`'s
  // body: nothing the layouts depend on.
  s.edit({2, 0}, {2, 0}, "# two\n# lines\n");
  s.edit({22, 0}, {22, 0}, "        pass\n");
  CHECK(s.analyzer->inferred == 0);
  CHECK(s.analyzer->reused == 2);
  std::vector<std::string> after = s.hints();
  REQUIRE(after.size() == before.size());
  // Every hint moved down two lines; those after the `pass` three.
  CHECK(after[0].substr(0, 2) == "6:");
  CHECK(before[0].substr(0, 2) == "4:");
  CHECK(llvm::StringRef(after.back()).starts_with("24:"));
  CHECK(llvm::StringRef(before.back()).starts_with("21:"));
  CHECK(after == freshHints(*s.server->getDocumentText(Session::uri)));
}

TEST_CASE("an edit to a module-level constant re-infers its users") {
  Session s(kTwoKernels);
  std::vector<std::string> before = s.hints();
  s.edit({1, 5}, {1, 7}, "128");
  CHECK(s.analyzer->inferred == 1);
  CHECK(s.analyzer->reused == 1);
  std::vector<std::string> after = s.hints();
  CHECK(onLines(after, 16, 24) == onLines(before, 16, 24));
  // A_s is now 128 x 32 and C_f 128 x 64 with a different warp layout.
  CHECK(llvm::StringRef(onLines(after, 8, 8).at(0)).contains("[128, 32]"));
  CHECK(onLines(after, 10, 10) != onLines(before, 10, 10));
  CHECK(after == freshHints(*s.server->getDocumentText(Session::uri)));
}

TEST_CASE("a broken kernel keeps the other kernel's hints") {
  Session s(kTwoKernels);
  std::vector<std::string> before = s.hints();
  // `first` asks for a gemm of mismatched shapes.
  s.edit({9, 30}, {9, 32}, "16");
  std::vector<std::string> after = s.hints();
  CHECK(onLines(after, 16, 24) == onLines(before, 16, 24));
  CHECK(!s.diagnostics().empty());
  std::string text = *s.server->getDocumentText(Session::uri);
  CHECK(after == freshHints(text));
  CHECK(s.diagnostics() == freshDiagnostics(text));
  // Repaired: the same hints as at first.
  s.edit({9, 30}, {9, 32}, "32");
  CHECK(s.hints() == before);
  CHECK(s.diagnostics().empty());
}

TEST_CASE("a layout conflict moves with the text and is re-checked") {
  std::string text =
      "import tilelang\n"
      "import tilelang.language as T\n"
      "\n"
      "@tilelang.jit\n"
      "def conflict(block_M=128, block_N=128, block_K=32):\n"
      "    with T.Kernel(1, threads=128) as bx:\n"
      "        A = T.alloc_shared((block_M, block_K), T.float16)\n"
      "        B = T.alloc_shared((block_K, block_N), T.float16)\n"
      "        C = T.alloc_fragment((block_M, block_N), T.float32)\n"
      "        T.gemm(A, B, C, clear_accum=True)\n"
      "        T.gemm(A, B, C, policy=T.GemmWarpPolicy.FullRow)\n";
  text += std::string(kTwoKernels)
              .substr(strlen("import tilelang.language as T\n"));
  Config config;
  config.target = "cuda:sm_80";
  Session s(text, config);
  std::vector<std::string> diags = s.diagnostics();
  REQUIRE(diags.size() == 1);
  CHECK(llvm::StringRef(diags[0]).starts_with("10:8-10:"));
  CHECK(llvm::StringRef(diags[0]).contains("layout conflict on 'C'"));
  CHECK(llvm::StringRef(diags[0]).contains("(9:8 "));
  CHECK(s.analyzer->inferred == 3);
  // A line above everything: no statement changed, so every slice's
  // results are kept and moved (the layout cache alone would infer the
  // conflict again: it keeps no instance with errors); the conflict is
  // reported one line lower.
  s.edit({0, 0}, {0, 0}, "# moved\n");
  CHECK(s.analyzer->inferred == 0);
  CHECK(s.analyzer->reused == 3);
  diags = s.diagnostics();
  REQUIRE(diags.size() == 1);
  CHECK(llvm::StringRef(diags[0]).starts_with("11:8-11:"));
  CHECK(llvm::StringRef(diags[0]).contains("(10:8 "));
  std::string now = *s.server->getDocumentText(Session::uri);
  Session fresh(now, config);
  CHECK(diags == fresh.diagnostics());
  CHECK(s.hints() == fresh.hints());
}

namespace {
/// The text of an example file.
std::string readExample(const std::string &name) {
  std::ifstream in(std::string(TLC_EXAMPLES_DIR) + "/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// (line, column) of byte `offset` in ASCII `text`.
Position positionOf(const std::string &text, size_t offset) {
  Position p;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.character = 0;
    } else {
      ++p.character;
    }
  }
  return p;
}
} // namespace

TEST_CASE("random edits: incremental hints equal a fresh analysis") {
  std::string text = readExample("gemm.py") + "\n" +
                     readExample("flash_attention_fwd.py") + "\n" +
                     readExample("softmax.py");
  REQUIRE(text.size() > 1000);
  Session s(text);
  // gemm, flash attention and softmax instances, all with layouts.
  CHECK(s.analyzer->inferred == 3);
  REQUIRE(s.hints().size() > 20);
  std::mt19937 rng(7);
  auto pick = [&](size_t n) {
    return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  };
  const char *sizes[] = {"32", "64", "128"};
  for (int e = 1; e <= 24; ++e) {
    std::string cur = *s.server->getDocumentText(Session::uri);
    switch (pick(4)) {
    case 0: { // A comment line before a random line.
      std::vector<size_t> starts = {0};
      for (size_t i = 0; i + 1 < cur.size(); ++i)
        if (cur[i] == '\n')
          starts.push_back(i + 1);
      Position at = positionOf(cur, starts[pick(starts.size())]);
      s.edit(at, at, "# edit " + std::to_string(e) + "\n");
      break;
    }
    case 1: { // A block size replaced by another.
      std::vector<std::pair<size_t, size_t>> numbers;
      for (const char *n : sizes)
        for (size_t i = cur.find(n); i != std::string::npos;
             i = cur.find(n, i + 1)) {
          size_t len = strlen(n);
          if ((i && isalnum(cur[i - 1])) || isalnum(cur[i + len]))
            continue;
          numbers.push_back({i, len});
        }
      auto [at, len] = numbers[pick(numbers.size())];
      s.edit(positionOf(cur, at), positionOf(cur, at + len), sizes[pick(3)]);
      break;
    }
    case 2: { // A stray character (often a syntax or name error).
      size_t at = pick(cur.size());
      if (at && isdigit(cur[at - 1]))
        break;
      Position p = positionOf(cur, at);
      s.edit(p, p, "x");
      break;
    }
    case 3: { // Whitespace at the end of a line.
      size_t at = cur.find('\n', pick(cur.size()));
      if (at == std::string::npos)
        break;
      Position p = positionOf(cur, at);
      s.edit(p, p, "  ");
      break;
    }
    }
    if (e % 6 == 0) {
      std::string now = *s.server->getDocumentText(Session::uri);
      INFO("after edit " << e);
      CHECK(s.hints() == freshHints(now));
      CHECK(s.diagnostics() == freshDiagnostics(now));
    }
  }
  // The cache was used (most edits leave most kernels alone).
  CHECK(s.analyzer->totalReused > 0);
}
