//===- PrefixTest.cpp - Every line prefix parses --------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parses every prefix (cut at each line) of the examples and of a sample of
// ~30 stdlib files: never a crash, always lossless, bounded time (reported).
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tlc/Syntax/Parser.h"

#include <doctest/doctest.h>

#include <chrono>

using namespace tlc;
using namespace tlc::syntax;

TEST_CASE("Parser: every line prefix of examples and stdlib samples") {
  std::vector<std::string> files = test::listPythonFiles(TLC_EXAMPLES_DIR);
  std::vector<std::string> stdlib = test::listPythonFiles(TLC_PYTHON_STDLIB);
  // A deterministic sample of ~30 stdlib files below 60 KB.
  size_t stride = stdlib.size() / 60 + 1, taken = 0;
  for (size_t i = 0; i < stdlib.size() && taken < 30; i += stride) {
    std::string text = test::readFile(stdlib[i]);
    if (!text.empty() && text.size() < 60000) {
      files.push_back(stdlib[i]);
      ++taken;
    }
  }
  auto start = std::chrono::steady_clock::now();
  size_t parses = 0, bytes = 0, lossy = 0;
  for (const std::string &path : files) {
    std::string text = test::readFile(path);
    for (size_t end = 0;; end = text.find('\n', end) + 1) {
      std::string prefix = text.substr(0, end);
      auto tree = parse(prefix, path);
      lossy += tree->print() != prefix;
      ++parses;
      bytes += prefix.size();
      // Cut in the middle of the line too (half-typed code).
      size_t next = text.find('\n', end);
      if (next != std::string::npos && next > end + 1) {
        std::string half = text.substr(0, (end + next) / 2);
        lossy += parse(half, path)->print() != half;
        ++parses;
        bytes += half.size();
      }
      if (next == std::string::npos)
        break;
    }
  }
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  MESSAGE("every-prefix: " << files.size() << " files, " << parses
                           << " parses, " << bytes / 1e6 << " MB in "
                           << seconds << " s");
  CHECK(files.size() >= 30u);
  CHECK(lossy == 0u);
}
