//===- SliceTest.cpp - Incremental evaluation equals a whole evaluation ---===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The server evaluates a file slice by slice and keeps the slices an edit
// did not change (IncrementalEval.h, eval::sliceTopLevel). The oracle is an
// evaluation of the whole file from scratch: a fresh parse, the analyzer
// without slices (eval::analyzeFile on everything, as `tlc-build` does).
// After random edits of the generated 100-kernel file (tests/bench/LSP/
// kernel_file.py, built by CMake), every fact the editor shows (kernels,
// instances, buffers with layouts, launches, pipelines, hint offsets) and
// every diagnostic must be equal.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"
#include "Server.h"

#include "tlc/Eval/Slices.h"
#include "tlc/Syntax/Parser.h"

#include <doctest/doctest.h>

#include <cctype>

#include <fstream>
#include <random>
#include <sstream>

using namespace tlc;
using namespace tlc::lsp;

namespace {

/// The default analyzer, keeping its last facts.
struct RecordingAnalyzer : Analyzer {
  std::unique_ptr<Analyzer> inner = createDefaultAnalyzer(true);
  std::shared_ptr<const AnalysisFacts> last;
  const char *getName() const override { return "recording"; }
  std::shared_ptr<const AnalysisFacts>
  analyze(const std::shared_ptr<const syntax::SyntaxTree> &tree,
          const AnalysisOptions &options, const CancelToken &token) override {
    last = inner->analyze(tree, options, token);
    return last;
  }
};

struct NoCallbacks : ServerCallbacks {
  void onDiagnostics(const std::string &, std::optional<int64_t>,
                     std::vector<Diag>) override {}
};

/// Every fact and diagnostic as text, one per line.
std::string dump(const AnalysisFacts &facts) {
  std::ostringstream os;
  auto range = [](TextRange r) {
    return std::to_string(r.begin) + "-" + std::to_string(r.end);
  };
  for (const KernelFact &k : facts.kernels) {
    os << "kernel " << k.name << " " << range(k.nameRange) << " "
       << range(k.range) << " " << k.decorator << "\n";
    for (const InstanceFact &i : k.instances) {
      os << "  instance " << i.label << "\n";
      for (const BufferFact &b : i.buffers)
        os << "    buffer " << b.name << " " << range(b.nameRange) << " @"
           << b.hintOffset << " " << b.isParameter << " " << b.shape << " "
           << b.dtype << " " << b.scopeString << " [" << b.layout << "] "
           << std::hash<std::string>()(b.layoutDetail) << " "
           << (b.bytes ? std::to_string(*b.bytes) : "?") << "\n";
      for (const LaunchFact &l : i.launches) {
        os << "    launch " << range(l.range) << " @" << l.hintOffset;
        for (const std::string &g : l.grid)
          os << " " << g;
        os << " threads " << l.threads << " smem "
           << (l.sharedBytes ? std::to_string(*l.sharedBytes) : "?") << "\n";
      }
      for (const PipelineFact &p : i.pipelines)
        os << "    pipeline " << range(p.range) << " @" << p.hintOffset << " "
           << (p.stages ? std::to_string(*p.stages) : "?") << "\n";
    }
  }
  for (const Diagnostic &d : facts.diagnostics) {
    os << "diag " << int(d.severity) << " " << range(d.range) << " "
       << d.message;
    for (const RelatedInfo &n : d.notes)
      os << " (" << range(n.range) << " " << n.message << ")";
    os << "\n";
  }
  return os.str();
}

/// The facts of `text` evaluated whole, from a fresh parse.
std::string wholeFile(const std::string &text) {
  auto tree = std::shared_ptr<const syntax::SyntaxTree>(
      syntax::parse(text, "/large/kernels.py"));
  std::unique_ptr<Analyzer> reference = createDefaultAnalyzer(false);
  return dump(*reference->analyze(tree, AnalysisOptions(), CancelToken()));
}

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Position positionOf(const std::string &text, size_t offset) {
  Position p;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.character = 0;
    } else {
      ++p.character;
    }
  }
  return p;
}

/// A server on one document, synchronous, analysing after every edit.
struct LargeSession {
  static constexpr const char *uri = "file:///large/kernels.py";
  NoCallbacks callbacks;
  std::shared_ptr<RecordingAnalyzer> analyzer =
      std::make_shared<RecordingAnalyzer>();
  std::unique_ptr<TlcServer> server;
  int64_t version = 1;
  std::string text;

  explicit LargeSession(std::string initial) : text(std::move(initial)) {
    ServerOptions options;
    options.workerThreads = 0;
    options.debounce = std::chrono::milliseconds(0);
    options.analyzer = analyzer;
    server = std::make_unique<TlcServer>(options, callbacks);
    server->openDocument(uri, version, text);
    server->runUntilIdle();
  }
  /// Replaces bytes [begin, end) of the text by `with`.
  void replace(size_t begin, size_t end, const std::string &with) {
    REQUIRE(!server->changeDocument(
        uri, ++version,
        {{Range{positionOf(text, begin), positionOf(text, end)}, with}}));
    server->runUntilIdle();
    text.replace(begin, end - begin, with);
    REQUIRE(*server->getDocumentText(uri) == text);
  }
  const AnalysisFacts &facts() const {
    REQUIRE(analyzer->last);
    return *analyzer->last;
  }
};

/// The facts an inlay hint shows whose hint lies in [begin, end], with
/// their kernel and instance, one per line.
std::string dumpIn(const AnalysisFacts &facts, uint32_t begin, uint32_t end) {
  std::ostringstream os;
  auto in = [&](uint32_t offset) { return begin <= offset && offset <= end; };
  for (const KernelFact &k : facts.kernels)
    for (const InstanceFact &i : k.instances) {
      std::string where = k.name + " " + i.label + " ";
      for (const BufferFact &b : i.buffers)
        if (in(b.hintOffset))
          os << where << "buffer " << b.name << " @" << b.hintOffset << " "
             << b.shape << " " << b.dtype << " " << b.scopeString << " ["
             << b.layout << "] " << std::hash<std::string>()(b.layoutDetail)
             << "\n";
      for (const LaunchFact &l : i.launches)
        if (in(l.hintOffset)) {
          os << where << "launch @" << l.hintOffset;
          for (const std::string &g : l.grid)
            os << " " << g;
          os << " threads " << l.threads << "\n";
        }
      for (const PipelineFact &p : i.pipelines)
        if (in(p.hintOffset))
          os << where << "pipeline @" << p.hintOffset << " "
             << (p.stages ? std::to_string(*p.stages) : "?") << "\n";
    }
  return os.str();
}

/// The facts of `text` for the visible bytes [begin, end] only, from
/// \p analyzer (incremental: its caches are those of the earlier calls).
std::shared_ptr<const AnalysisFacts> visibleFacts(Analyzer &analyzer,
                                                  const std::string &text,
                                                  uint32_t begin,
                                                  uint32_t end) {
  auto tree = std::shared_ptr<const syntax::SyntaxTree>(
      syntax::parse(text, "/large/kernels.py"));
  AnalysisOptions options;
  options.visible = TextRange{begin, end};
  return analyzer.analyze(tree, options, CancelToken());
}

/// Offsets of every occurrence of `what` in `text`.
std::vector<size_t> findAll(const std::string &text, const std::string &what) {
  std::vector<size_t> out;
  for (size_t i = text.find(what); i != std::string::npos;
       i = text.find(what, i + 1))
    out.push_back(i);
  return out;
}

/// Offsets where a line starts with `prefix`.
std::vector<size_t> lineStarts(const std::string &text,
                               const std::string &prefix) {
  std::vector<size_t> out;
  for (size_t i : findAll(text, prefix))
    if (i == 0 || text[i - 1] == '\n')
      out.push_back(i);
  return out;
}

} // namespace

TEST_CASE("the generated file splits into one slice per kernel") {
  std::string text = readFile(TLC_LARGE_KERNEL_FILE);
  REQUIRE(text.size() > 100000);
  auto tree = syntax::parse(text, "/large/kernels.py");
  eval::FileSlices slices = eval::sliceTopLevel(*tree);
  CHECK(slices.reason.empty());
  // 100 copies; the ten that read the shared THREADS form one slice; the
  // imports one more.
  CHECK(slices.slices.size() == 92);
  // Every statement is in a slice; only shared imports in several.
  std::vector<unsigned> seen(tree->root().children(syntax::Field::body)
                                 .size());
  for (const eval::Slice &s : slices.slices)
    for (size_t i = 0; i < s.statements.size(); ++i) {
      ++seen[s.statements[i]];
      if (!s.shared[i])
        CHECK(seen[s.statements[i]] == 1);
    }
  CHECK(std::count(seen.begin(), seen.end(), 0u) == 0);

  // Slicing from a statement cache (filled by the first call, then after
  // an edit of one kernel) gives what slicing from the tree gives.
  eval::StatementCache cache(8192);
  auto sameSlices = [](const eval::FileSlices &a, const eval::FileSlices &b,
                       const syntax::SyntaxTree &tree) {
    REQUIRE(a.slices.size() == b.slices.size());
    for (size_t i = 0; i < a.slices.size(); ++i) {
      CHECK(a.slices[i].statements == b.slices[i].statements);
      CHECK(a.slices[i].shared == b.slices[i].shared);
      CHECK(a.slices[i].key == b.slices[i].key);
    }
    CHECK(a.reason == b.reason);
    eval::FileNames names = eval::collectFileNames(tree);
    REQUIRE(b.names);
    CHECK(b.names->bound.size() == names.bound.size());
    for (llvm::StringRef name : names.bound)
      CHECK(b.names->bound.contains(name));
  };
  eval::sliceTopLevel(*tree, &cache);
  // One entry per distinct statement text (the copies of `import torch`
  // share one).
  CHECK(cache.size() > 100);
  CHECK(cache.size() < tree->root().children(syntax::Field::body).size());
  sameSlices(slices, eval::sliceTopLevel(*tree, &cache), *tree);
  size_t at = text.find("THREADS_13 = ");
  std::string edited = text;
  edited.replace(at + 13, 3, "256");
  auto editedTree = syntax::parse(edited, "/large/kernels.py");
  sameSlices(eval::sliceTopLevel(*editedTree),
             eval::sliceTopLevel(*editedTree, &cache), *editedTree);

  // With the last slicing kept (SliceMemo), a sequence of edits: digits
  // retyped inside kernels (names unchanged: the kept slices, rekeyed), a
  // module constant renamed (names changed: sliced again), a statement
  // added; each equals slicing from scratch.
  eval::SliceMemo memo;
  std::string current = text;
  std::vector<size_t> sizes = findAll(text, "block_M=128");
  REQUIRE(sizes.size() > 10);
  for (int step = 0; step < 12; ++step) {
    if (step == 5) {
      size_t c = current.find("THREADS_13");
      current.replace(c, 10, "THREADZ_13");
    } else if (step == 9) {
      current += "\nEXTRA = 3\n";
    } else {
      size_t at = current.find("block_M=128", sizes[step * 7 % sizes.size()]);
      if (at == std::string::npos)
        at = current.find("block_M=12");
      REQUIRE(at != std::string::npos);
      current[at + 10] = char('0' + step % 10);
    }
    auto t = syntax::parse(current, "/large/kernels.py");
    eval::FileSlices fresh = eval::sliceTopLevel(*t);
    eval::FileSlices kept = eval::sliceTopLevel(*t, &cache, &memo);
    sameSlices(fresh, kept, *t);
    // A second document of another name does not take this one's slices.
    auto other = syntax::parse(current, "/large/other.py");
    sameSlices(eval::sliceTopLevel(*other),
               eval::sliceTopLevel(*other, &cache, &memo), *other);
  }

  // Reflection makes the file one unit.
  auto escaped = syntax::parse(text + "\nprint(globals())\n", "/x.py");
  CHECK(eval::sliceTopLevel(*escaped).reason == "the file uses 'globals'");
  auto star = syntax::parse("from os import *\nx = 1\n", "/x.py");
  CHECK(eval::sliceTopLevel(*star).reason == "the file uses a star import");
  auto tests = syntax::parse("x = 1\n", "/test_x.py");
  CHECK(!eval::sliceTopLevel(*tests).reason.empty());
}

TEST_CASE("random edits of the 100-kernel file: incremental equals whole") {
  std::string initial = readFile(TLC_LARGE_KERNEL_FILE);
  LargeSession s(initial);
  CHECK(s.facts().kernels.size() >= 100);
  CHECK(s.facts().wholeFileReason.empty());
  CHECK(dump(s.facts()) == wholeFile(s.text));

  std::mt19937 rng(18);
  auto pick = [&](size_t n) {
    return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  };
  auto any = [&](const std::vector<size_t> &v) { return v[pick(v.size())]; };
  // A syntax error planted mid-file, repaired by the next edit.
  std::optional<std::pair<size_t, std::string>> broken;
  unsigned reusedTotal = 0, evaluatedTotal = 0;
  // Another incremental analyzer, asked for visible ranges only.
  std::unique_ptr<Analyzer> visible = createDefaultAnalyzer(true);
  unsigned partialChecks = 0, partialFacts = 0;
  // Each edit is checked against a whole-file analysis of the 100 kernels.
  // An ASan build runs that 20x slower; a shorter walk of the same kinds of
  // edits still runs every code path under the sanitizers.
#if defined(__SANITIZE_ADDRESS__)
  const int kEdits = 12;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  const int kEdits = 12;
#else
  const int kEdits = 40;
#endif
#else
  const int kEdits = 40;
#endif
  for (int e = 1; e <= kEdits; ++e) {
    std::string what;
    const std::string &t = s.text;
    if (broken) {
      what = "repair the syntax error";
      s.replace(broken->first, broken->first + broken->second.size(), "");
      broken.reset();
    } else {
      switch (pick(11)) {
      case 0: { // The shared module constant.
        size_t at = t.find("THREADS = ");
        what = "shared constant";
        s.replace(at + 10, t.find('\n', at), pick(2) ? "256" : "64");
        break;
      }
      case 1: { // One kernel's own module constant.
        size_t at = any(lineStarts(t, "THREADS_"));
        size_t eq = t.find(" = ", at) + 3;
        what = "own constant";
        s.replace(eq, t.find('\n', eq), pick(2) ? "256" : "128");
        break;
      }
      case 2: { // A default of a factory that main() calls.
        std::vector<size_t> at = findAll(t, "block_M=");
        size_t p = any(at) + 8;
        size_t end = p;
        while (end < t.size() && isdigit(t[end]))
          ++end;
        if (end == p)
          continue;
        what = "factory default";
        s.replace(p, end, pick(2) ? "64" : "128");
        break;
      }
      case 3: { // A decorator: drop out_idx, or the whole line.
        std::vector<size_t> at = lineStarts(t, "@tilelang.jit(out_idx=[-1])");
        if (at.empty())
          continue;
        size_t p = any(at);
        what = "decorator";
        if (pick(2))
          s.replace(p + 13, p + 27, "");
        else
          s.replace(p, t.find('\n', p) + 1, "");
        break;
      }
      case 4: { // An import: removed, or given another alias.
        std::vector<size_t> at = lineStarts(t, "import tilelang.language as T");
        size_t p = any(at);
        what = "import";
        if (pick(2))
          s.replace(p, t.find('\n', p) + 1, "");
        else
          s.replace(p + 28, p + 29, "TL");
        break;
      }
      case 5: { // A function deleted (up to the next top-level line).
        size_t p = any(lineStarts(t, "def ref_program_"));
        size_t end = p;
        while ((end = t.find('\n', end + 1)) != std::string::npos &&
               end + 1 < t.size() &&
               (t[end + 1] == ' ' || t[end + 1] == '\n'))
          ;
        what = "delete a function";
        s.replace(p, end == std::string::npos ? t.size() : end + 1, "");
        break;
      }
      case 6: { // A factory renamed: its callers now miss it.
        size_t p = any(lineStarts(t, "def "));
        size_t paren = t.find('(', p);
        what = "rename a function";
        s.replace(paren, paren, "_renamed");
        break;
      }
      case 7: { // A syntax error mid-file (repaired next).
        size_t p = any(lineStarts(t, "def main_"));
        broken = {p, "def broken(:\n"};
        what = "syntax error";
        s.replace(p, p, broken->second);
        break;
      }
      case 8: { // A comment line: moves everything below.
        size_t p = any(lineStarts(t, "def "));
        what = "comment";
        s.replace(p, p, "# edit " + std::to_string(e) + "\n");
        break;
      }
      case 9: { // A stray character anywhere.
        size_t p = pick(t.size());
        what = "stray character";
        s.replace(p, p, "x");
        break;
      }
      case 10: { // A block size inside a kernel body.
        std::vector<size_t> at = findAll(t, "threads=");
        size_t p = any(at) + 8;
        if (!isdigit(t[p]))
          continue;
        size_t end = p;
        while (isdigit(t[end]))
          ++end;
        what = "launch threads";
        s.replace(p, end, pick(2) ? "256" : "128");
        break;
      }
      }
    }
    INFO("edit " << e << ": " << what);
    reusedTotal += s.facts().slicesReused;
    evaluatedTotal += s.facts().slicesEvaluated;
    if (e % 4 == 0 || what == "syntax error" || what == "import" ||
        what == "shared constant" || what == "rename a function")
      CHECK(dump(s.facts()) == wholeFile(s.text));
    // The first hints of a screen (60 lines around a random offset, the
    // file's start every fifth edit), evaluated alone: equal to the
    // complete analysis' hints there.
    if (e % 2 == 0) {
      uint32_t at = e % 5 == 0 ? 0 : uint32_t(pick(t.size()));
      uint32_t begin = at, end = at;
      for (int lines = 0; begin > 0 && lines < 30; --begin)
        lines += t[begin - 1] == '\n';
      for (int lines = 0; end < t.size() && lines < 30; ++end)
        lines += t[end] == '\n';
      auto partial = visibleFacts(*visible, t, begin, end);
      if (!partial->wholeFileReason.empty())
        continue;
      INFO("visible bytes " << begin << "-" << end);
      CHECK(partial->partial);
      CHECK(partial->slicesEvaluated + partial->slicesReused <
            s.facts().slicesEvaluated + s.facts().slicesReused);
      std::string expected = dumpIn(s.facts(), begin, end);
      CHECK(dumpIn(*partial, begin, end) == expected);
      ++partialChecks;
      partialFacts += !expected.empty();
    }
  }
  // Almost every slice was kept across edits.
  CHECK(reusedTotal > 20 * evaluatedTotal);
  CHECK(partialChecks > 0);
  CHECK(partialFacts > 0);
  // Back to the original text: every slice is kept from the first analysis
  // or re-evaluated, and the facts are the first ones.
  s.replace(0, s.text.size(), initial);
  CHECK(dump(s.facts()) == wholeFile(initial));
}

TEST_CASE("only the slices an edit changes are evaluated again") {
  std::string initial = readFile(TLC_LARGE_KERNEL_FILE);
  LargeSession s(initial);
  unsigned slices = s.facts().slicesEvaluated;
  REQUIRE(slices == 92);
  // A comment line: it belongs to the statement above it (its range, so
  // its text), whose slice alone is evaluated again.
  size_t def = lineStarts(s.text, "def main_7")[0];
  s.replace(def, def, "# note\n");
  CHECK(s.facts().slicesEvaluated == 1);
  CHECK(s.facts().slicesReused == slices - 1);
  // Text between two edits of one statement: the same text as before,
  // so nothing is evaluated.
  s.replace(def, def + 7, "");
  CHECK(s.facts().slicesEvaluated == 0);
  CHECK(s.facts().slicesReused == slices);
  // One kernel's own constant: its slice only.
  size_t own = lineStarts(s.text, "THREADS_13 = ")[0];
  s.replace(own + 13, own + 16, "256");
  CHECK(s.facts().slicesEvaluated == 1);
  // The shared constant: the slice of its ten readers.
  std::vector<std::string> readers;
  for (size_t at : lineStarts(s.text, "def ")) {
    llvm::StringRef line = llvm::StringRef(s.text).substr(at).split('\n').first;
    // `THREADS` itself, not a kernel's own `THREADS_13`.
    size_t t = line.find("THREADS");
    if (t != llvm::StringRef::npos && t + 7 < line.size() &&
        !std::isalnum(static_cast<unsigned char>(line[t + 7])) && line[t + 7] != '_')
      readers.push_back(line.drop_front(4).split('(').first.str());
  }
  REQUIRE(readers.size() == 10);
  auto launchThreads = [&](const std::string &name) {
    std::string threads;
    for (const KernelFact &k : s.facts().kernels)
      if (k.name == name)
        for (const InstanceFact &i : k.instances)
          for (const LaunchFact &l : i.launches)
            threads += l.threads + ";";
    return threads;
  };
  std::vector<std::string> before;
  for (const std::string &r : readers) {
    before.push_back(launchThreads(r));
    CHECK(before.back().find("128") == 0);
  }
  size_t shared = s.text.find("THREADS = ");
  s.replace(shared + 10, shared + 13, "256");
  CHECK(s.facts().slicesEvaluated == 1);
  CHECK(s.facts().slicesReused == slices - 1);
  // Every reader's launches now have 256 threads, but for
  // flashattn_causal_20's: its one instance passes threads=128 itself. The
  // facts equal a whole-file evaluation's.
  unsigned at256 = 0;
  for (auto [r, b] : llvm::zip(readers, before)) {
    std::string now = launchThreads(r);
    if (now.find("256") == 0)
      ++at256;
    else
      CHECK_MESSAGE((r == "flashattn_causal_20" && now == b), r << ": " << now);
  }
  CHECK(at256 == 9);
  CHECK(dump(s.facts()) == wholeFile(s.text));
  // A new import nobody reads: the slice of the imports only.
  size_t imp = lineStarts(s.text, "import tilelang.language as T")[3];
  s.replace(imp, imp, "import numpy as np\n");
  CHECK(s.facts().slicesEvaluated == 1);
  s.replace(imp, imp + 19, "");
  // A copy of an import every kernel reads, spelt differently: the name
  // still means the same module, so still the imports only.
  size_t torch = lineStarts(s.text, "import torch\n")[5];
  s.replace(torch + 12, torch + 12, " as torch");
  CHECK(s.facts().slicesEvaluated == 1);
  // Now it binds another module: every slice reading `torch`.
  s.replace(torch, torch + 21, "import numpy as torch");
  CHECK(s.facts().slicesEvaluated >= 90);
  CHECK(dump(s.facts()) == wholeFile(s.text));
  // A decorator's argument: outside its definition's own range (which
  // starts at `def`), but part of the statement's key, so the slice is
  // evaluated again (its kernel call now misses the output argument).
  size_t deco = s.text.find("@tilelang.jit(out_idx=[-1])");
  REQUIRE(deco != std::string::npos);
  s.replace(deco + 13, deco + 27, "");
  CHECK(s.facts().slicesEvaluated == 1);
  CHECK(dump(s.facts()) == wholeFile(s.text));
}

TEST_CASE("the first screen's hints come first, the rest with a refresh") {
  struct Refreshes : ServerCallbacks {
    unsigned count = 0;
    void onDiagnostics(const std::string &, std::optional<int64_t>,
                       std::vector<Diag>) override {}
    void onHintsChanged(const std::string &) override { ++count; }
  } callbacks;
  auto analyzer = std::make_shared<RecordingAnalyzer>();
  ServerOptions options;
  options.workerThreads = 0;
  options.debounce = std::chrono::milliseconds(0);
  options.analyzer = analyzer;
  TlcServer server(options, callbacks);
  std::string text = readFile(TLC_LARGE_KERNEL_FILE);
  const char *uri = "file:///large/kernels.py";
  // A screen in the middle of the file, asked right after the open.
  size_t mid = lineStarts(text, "def main_50")[0];
  Position at = positionOf(text, mid);
  Range screen{{at.line - 30, 0}, {at.line + 30, 0}};
  server.openDocument(uri, 1, text);
  std::vector<InlayHint> first, later;
  bool partial = false;
  server.inlayHints(uri, screen, CancelToken(),
                    [&](Result<std::vector<InlayHint>> r) {
                      REQUIRE(bool(r));
                      first = *r;
                      partial = analyzer->last && analyzer->last->partial;
                    });
  server.runUntilIdle();
  // The screen was answered from a few slices; the complete analysis
  // followed and asked for a refresh.
  CHECK(partial);
  CHECK(!first.empty());
  CHECK(callbacks.count == 1);
  REQUIRE(analyzer->last);
  CHECK(!analyzer->last->partial);
  server.inlayHints(uri, screen, CancelToken(),
                    [&](Result<std::vector<InlayHint>> r) {
                      REQUIRE(bool(r));
                      later = *r;
                    });
  server.runUntilIdle();
  REQUIRE(first.size() == later.size());
  for (size_t i = 0; i < first.size(); ++i) {
    CHECK(first[i].label == later[i].label);
    CHECK(first[i].position == later[i].position);
  }
  // A hint with a layout served from the partial facts still resolves (its
  // index counts only their hints, `later`'s all of the file's).
  const InlayHint *layout = nullptr;
  for (size_t i = 0; i < first.size(); ++i)
    if (first[i].label.find(" · ") != std::string::npos &&
        first[i].index != later[i].index)
      layout = &first[i];
  REQUIRE(layout);
  InlayHint resolved;
  server.resolveInlayHint(uri, *layout, CancelToken(),
                          [&](Result<InlayHint> r) {
                            REQUIRE(bool(r));
                            resolved = *r;
                          });
  server.runUntilIdle();
  CHECK(!resolved.tooltip.empty());
  // With the complete facts there, hints are served from them: no refresh.
  CHECK(callbacks.count == 1);
}
