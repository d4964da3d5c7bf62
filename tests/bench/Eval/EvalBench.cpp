//===- EvalBench.cpp - Speed of `tlc-build --check` on a large file -------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Builds a file of about 1,500 lines of kernels by concatenating the
// programs in examples/ (each copy's top-level functions renamed with a
// numeric suffix so that copies do not shadow each other), then times the
// whole --check pipeline (parse, evaluate every instance, build Tile IR,
// check) in process with one reused MLIRContext, as the language server
// would. Prints the median and minimum over the runs. Goal: <= 30 ms.
//
// Usage: tlc-eval-bench [EXAMPLES_DIR] [RUNS] [MIN_LINES]
//
//===----------------------------------------------------------------------===//

#include "tlc/Driver/Driver.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

using namespace tlc;

#ifndef TLC_EXAMPLES_DIR
#define TLC_EXAMPLES_DIR "examples"
#endif

/// Replaces whole-word occurrences of each name in \p names by name+suffix.
static std::string renameWords(llvm::StringRef text,
                               llvm::ArrayRef<std::string> names,
                               llvm::StringRef suffix) {
  std::string out;
  out.reserve(text.size() + 256);
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (llvm::isAlpha(c) || c == '_') {
      size_t j = i;
      while (j < text.size() && (llvm::isAlnum(text[j]) || text[j] == '_'))
        ++j;
      llvm::StringRef word = text.slice(i, j);
      out += word.str();
      if (llvm::is_contained(names, word.str()) && (i == 0 || text[i - 1] != '.'))
        out += suffix.str();
      i = j;
      continue;
    }
    out.push_back(c);
    ++i;
  }
  return out;
}

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : TLC_EXAMPLES_DIR;
  int runs = argc > 2 ? std::atoi(argv[2]) : 20;
  size_t minLines = argc > 3 ? std::atoi(argv[3]) : 1500;

  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".py"))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    llvm::errs() << "tlc-eval-bench: no .py files in " << dir << "\n";
    return 2;
  }

  std::string source;
  size_t lines = 0;
  for (unsigned copy = 0; lines < minLines; ++copy) {
    for (const std::string &f : files) {
      auto buf = llvm::MemoryBuffer::getFile(f);
      if (!buf)
        continue;
      llvm::StringRef text = (*buf)->getBuffer();
      std::vector<std::string> names;
      llvm::SmallVector<llvm::StringRef, 64> rows;
      text.split(rows, '\n');
      for (llvm::StringRef row : rows)
        if (row.consume_front("def "))
          names.push_back(row.take_until([](char c) { return c == '('; }).str());
      std::string renamed =
          renameWords(text, names, "_" + std::to_string(copy));
      source += renamed + "\n";
      lines += rows.size() + 1;
      if (lines >= minLines)
        break;
    }
  }

  driver::DriverOptions opts;
  driver::Driver drv(opts);
  std::vector<double> ms;
  size_t diags = 0, hints = 0, instances = 0;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    driver::FileResult res = drv.analyze("bench.py", source);
    auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    diags = res.diagnostics.size();
    hints = res.analysis.hints.size();
    instances = res.analysis.instances.size();
  }
  std::sort(ms.begin(), ms.end());
  llvm::outs() << "tlc --check of " << lines << " lines (" << files.size()
               << " example files, " << instances << " instances, " << hints
               << " hints, " << diags << " diagnostics): median "
               << llvm::format("%.2f", ms[ms.size() / 2]) << " ms, min "
               << llvm::format("%.2f", ms.front()) << " ms over " << runs
               << " runs (goal <= 30 ms)\n";
  return 0;
}
