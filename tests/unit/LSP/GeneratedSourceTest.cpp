//===- GeneratedSourceTest.cpp - Generated source, refresh, huge files ----===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The source-map lookups on hand-written maps, the generatedSource /
// originalSource round trip through the real CPU emitter, hint refresh
// after background analysis, the size limit of analysis, and the detection
// of layout fields in evaluator hints. Expectations
// are hand-written.
//
//===----------------------------------------------------------------------===//

#include "GeneratedSource.h"
#include "HintFields.h"
#include "Server.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <doctest/doctest.h>

using namespace tlc;
using namespace tlc::lsp;

namespace {
/// Records what the server publishes.
struct Recorder : ServerCallbacks {
  std::vector<Diag> lastDiags;
  int hintRefreshes = 0;
  void onDiagnostics(const std::string &, std::optional<int64_t>,
                     std::vector<Diag> diags) override {
    lastDiags = std::move(diags);
  }
  void onHintsChanged(const std::string &) override { ++hintRefreshes; }
};

ServerOptions syncOptions(const std::string &cacheDir = "") {
  ServerOptions options;
  options.workerThreads = 0;
  options.debounce = std::chrono::milliseconds(0);
  options.cacheDir = cacheDir;
  return options;
}

/// Statements of a made-up DSL file (byte ranges).
const TextRange kS1{10, 20}, kS2{21, 28}, kS3{30, 40}, kOuter{5, 45},
    kEmpty{16, 18};

/// A generated file of 6 lines: lines 1-2 come from statement kS1, line 3
/// from kS2, line 5 from kS3. The DSL statements' editor ranges are on
/// lines 101, 102 and 103.
GeneratedFile handMadeFile() {
  GeneratedFile f;
  f.uri = "file:///cache/k.cpp";
  f.dslUri = "file:///k.py";
  f.text = "l0\nline1\nline2xx\nl3\nl4\nline5\n";
  auto at = [](uint32_t line) { return Range{{line, 0}, {line, 1}}; };
  f.lines = {{1, {10, 12}, at(0), kS1, at(101)},
             {2, {14, 16}, at(0), kS1, at(101)},
             {3, {22, 24}, at(0), kS2, at(102)},
             {5, {30, 35}, at(0), kS3, at(103)}};
  return f;
}

const char *kElementwise =
    "import tilelang\n"
    "import tilelang.language as T\n"
    "\n"
    "@T.prim_func\n"
    "def add(A: T.Tensor((256,), \"float32\"), B: T.Tensor((256,), "
    "\"float32\")):\n"
    "    with T.Kernel(2, threads=128) as bx:\n"
    "        for i in T.Parallel(128):\n"
    "            B[bx * 128 + i] = A[bx * 128 + i] + 1.0\n";
} // namespace

TEST_CASE("generated ranges of DSL offsets") {
  GeneratedFile f = handMadeFile();
  auto check = [&](uint32_t offset, std::vector<TextRange> statements,
                   uint32_t first, uint32_t last, uint32_t endColumn) {
    Range r = findGeneratedRange(f, offset, statements,
                                 PositionEncoding::Utf16);
    CHECK(r.start.line == first);
    CHECK(r.start.character == 0);
    CHECK(r.end.line == last);
    CHECK(r.end.character == endColumn);
  };
  // The statement's lines; "line2xx" ends at column 7.
  check(11, {kS1, kOuter}, 1, 2, 7);
  check(23, {kS2, kOuter}, 3, 3, 2);
  // A statement that generated nothing: its parent's lines.
  check(17, {kEmpty, kS1, kOuter}, 1, 2, 7);
  // A compound statement: everything nested in it.
  check(7, {kOuter}, 1, 5, 5);
  // Outside every mapped statement: the next statement's lines.
  check(29, {}, 5, 5, 5);
  check(0, {}, 1, 2, 7);
  // After everything: nothing maps.
  Range none = findGeneratedRange(f, 99, {}, PositionEncoding::Utf16);
  CHECK(none.start.line == 0);
  CHECK(none.end.line == 0);
}

TEST_CASE("original statements of generated lines") {
  GeneratedFile f = handMadeFile();
  CHECK(!findOriginalRange(f, 0));
  CHECK(findOriginalRange(f, 1)->start.line == 101);
  CHECK(findOriginalRange(f, 2)->start.line == 101);
  CHECK(findOriginalRange(f, 3)->start.line == 102);
  CHECK(findOriginalRange(f, 4)->start.line == 102); // Nearest above.
  CHECK(findOriginalRange(f, 9)->start.line == 103);
}

TEST_CASE("generated targets") {
  CHECK(*parseGeneratedTarget("cpu") == GeneratedKind::Cpp);
  CHECK(*parseGeneratedTarget("cuda:sm_80") == GeneratedKind::Cuda);
  CHECK(*parseGeneratedTarget("tile") == GeneratedKind::TileIR);
  CHECK(*parseGeneratedTarget("hip:gfx942") == GeneratedKind::Hip);
  Result<GeneratedKind> bad = parseGeneratedTarget("rocm:gfx942");
  REQUIRE(!bad);
  CHECK(llvm::StringRef(bad.getFailure().message).contains("rocm:gfx942"));
  CHECK(parseGeneratedTarget("fortran").getFailure().kind ==
        FailureKind::InvalidParams);
}

TEST_CASE("C++ of a statement and back") {
  llvm::SmallString<128> dir;
  REQUIRE(!llvm::sys::fs::createUniqueDirectory("tlc-lsp-test", dir));
  Recorder recorder;
  TlcServer server(syncOptions(std::string(dir)), recorder);
  server.openDocument("file:///w/add.py", 1, kElementwise);
  // The assignment on line 7 (zero-based), inside T.Parallel.
  std::optional<GeneratedSource> source;
  server.generatedSource("file:///w/add.py", Position{7, 20}, "cpu",
                         CancelToken(), [&](Result<GeneratedSource> r) {
                           if (!r)
                             FAIL(r.getFailure().message);
                           else
                             source = *r;
                         });
  server.runUntilIdle();
  REQUIRE(source);
  CHECK(source->language == "cpp");
  std::string prefix = "file://" + dir.str().str();
  REQUIRE(llvm::StringRef(source->uri).starts_with(prefix));
  CHECK(llvm::StringRef(source->uri).ends_with("/add.cpp"));
  auto buffer = llvm::MemoryBuffer::getFile(source->uri.substr(7));
  REQUIRE(buffer);
  llvm::StringRef text = (*buffer)->getBuffer();
  // The selected lines compute the sum: they mention both buffers.
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  REQUIRE(source->range.end.line < lines.size());
  std::string selected;
  for (uint32_t l = source->range.start.line; l <= source->range.end.line; ++l)
    selected += lines[l].str() + "\n";
  CHECK(llvm::StringRef(selected).contains("A"));
  CHECK(llvm::StringRef(selected).contains("B"));

  // Back from the first selected line: the assignment's line.
  std::optional<Location> back;
  server.originalSource(source->uri, source->range.start, CancelToken(),
                        [&](Result<Location> r) {
                          if (r)
                            back = *r;
                        });
  REQUIRE(back);
  CHECK(back->uri == "file:///w/add.py");
  // The whole assignment `B[...] = A[...] + 1.0` (line 7, columns 12-51).
  CHECK(back->range.start.line == 7);
  CHECK(back->range.start.character == 12);
  CHECK(back->range.end.line == 7);
  CHECK(back->range.end.character == 51);
  llvm::sys::fs::remove_directories(dir);
}

TEST_CASE("hints are refreshed after a background analysis") {
  Recorder recorder;
  TlcServer server(syncOptions(), recorder);
  server.openDocument("file:///r.py", 1, kElementwise);
  server.runUntilIdle();
  CHECK(recorder.hintRefreshes == 1);
  // Hints asked for the new version before its analysis: no refresh.
  REQUIRE(!server.changeDocument("file:///r.py", 2,
                                 {{Range{{5, 18}, {5, 21}}, "64"}}));
  server.inlayHints("file:///r.py", Range{{0, 0}, {99, 0}}, CancelToken(),
                    [](Result<std::vector<InlayHint>>) {});
  server.runUntilIdle();
  CHECK(recorder.hintRefreshes == 1);
  // Files without tilelang never ask for a refresh.
  server.openDocument("file:///p.py", 1, "x = 1\n");
  server.runUntilIdle();
  CHECK(recorder.hintRefreshes == 1);
}

TEST_CASE("huge files get parser diagnostics and a note, no hints") {
  std::string text = "import tilelang\nx = (\n";
  while (text.size() <= kMaxAnalyzedBytes)
    text += "# padding padding padding padding padding padding padding\n";
  Recorder recorder;
  TlcServer server(syncOptions(), recorder);
  server.openDocument("file:///big.py", 1, text);
  size_t hints = 99;
  server.inlayHints("file:///big.py", Range{{0, 0}, {999999, 0}},
                    CancelToken(), [&](Result<std::vector<InlayHint>> r) {
                      REQUIRE(bool(r));
                      hints = r->size();
                    });
  server.runUntilIdle();
  CHECK(hints == 0);
  bool syntax = false, note = false;
  for (const Diag &d : recorder.lastDiags) {
    syntax |= d.source == "tlc-syntax" && d.severity == DiagSeverity::Error;
    note |= d.severity == DiagSeverity::Information &&
            llvm::StringRef(d.message).contains("analysis skipped");
  }
  CHECK(syntax);
  CHECK(note);
}

namespace {
struct HintWithoutLayout {
  std::string name;
};
struct HintWithLayout {
  std::string layout = "swizzle 128B";
  std::string layoutDetail = "| row | col |";
};
struct HintWithLongLayout {
  const char *layout = "mma C";
  std::string layoutLong = "table";
};
struct HintWithOtherLayout {
  int layout = 3;
};
} // namespace

TEST_CASE("layouts are read from hints that have them") {
  CHECK(getHintLayout(HintWithoutLayout{}).empty());
  CHECK(getHintLayoutDetail(HintWithoutLayout{}).empty());
  CHECK(getHintLayout(HintWithLayout{}) == "swizzle 128B");
  CHECK(getHintLayoutDetail(HintWithLayout{}) == "| row | col |");
  CHECK(getHintLayout(HintWithLongLayout{}) == "mma C");
  CHECK(getHintLayoutDetail(HintWithLongLayout{}) == "table");
  CHECK(getHintLayout(HintWithOtherLayout{}).empty());
}
