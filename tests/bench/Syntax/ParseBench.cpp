//===- ParseBench.cpp - Parser throughput and reparse latency -------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Prints (single thread):
//  * full-parse throughput over every .py file of the Python stdlib (best
//    of 3 passes), in MB/s;
//  * the median time of reparse() after a one-character edit inside a
//    function of a ~5000-line file made by concatenating stdlib files.
//
// Usage: tlc-parse-bench [STDLIB_DIR]
//
//===----------------------------------------------------------------------===//

#include "tlc/Syntax/Parser.h"
#include "tlc/Syntax/Reparse.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

using namespace tlc;
using namespace tlc::syntax;
using Clock = std::chrono::steady_clock;

static double seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

int main(int argc, char **argv) {
  std::string dir = argc > 1 ? argv[1] : TLC_PYTHON_STDLIB;
  std::vector<std::string> paths;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(dir, ec), end;
       it != end && !ec; it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(".py") &&
        !llvm::StringRef(it->path()).contains("site-packages"))
      paths.push_back(it->path());
  std::sort(paths.begin(), paths.end());
  std::vector<std::string> texts;
  size_t total = 0;
  for (const std::string &path : paths) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer)
      continue;
    texts.push_back((*buffer)->getBuffer().str());
    total += texts.back().size();
  }

  double best = 1e30;
  size_t errors = 0;
  for (int pass = 0; pass < 3; ++pass) {
    errors = 0;
    auto start = Clock::now();
    for (const std::string &text : texts)
      errors += parse(text)->hasErrors();
    best = std::min(best, seconds(start));
  }
  llvm::outs() << "full parse: " << texts.size() << " files, "
               << llvm::format("%.1f", total / 1e6) << " MB in "
               << llvm::format("%.3f", best) << " s = "
               << llvm::format("%.1f", total / 1e6 / best)
               << " MB/s (goal >= 50; files with errors: " << errors
               << ")\n";

  // A ~5000-line document of whole stdlib files.
  std::string doc;
  size_t lines = 0;
  for (const std::string &text : texts) {
    size_t fileLines = std::count(text.begin(), text.end(), '\n');
    if (lines >= 4900)
      break;
    if (lines + fileLines > 5100 || parse(text)->hasErrors())
      continue;
    if (!doc.empty() && doc.back() != '\n')
      doc += '\n';
    doc += text;
    lines += fileLines;
  }
  auto tree = parse(doc, "doc.py");
  // Edit sites: just after the indentation of a `    return` line, i.e.
  // inside a function body.
  std::vector<uint32_t> sites;
  for (size_t at = doc.find("\n        return "); at != std::string::npos;
       at = doc.find("\n        return ", at + 1))
    sites.push_back(static_cast<uint32_t>(at + 9));
  std::vector<double> times;
  bool allEqual = true;
  for (size_t i = 0; i < sites.size() && times.size() < 300;
       i += std::max<size_t>(1, sites.size() / 300)) {
    TextEdit edit{{sites[i], sites[i]}, "x"};
    auto start = Clock::now();
    auto edited = reparse(tree, edit);
    times.push_back(seconds(start));
    if (i % 25 == 0)
      allEqual &= edited->dump() == parse(edited->source())->dump();
  }
  std::sort(times.begin(), times.end());
  double median = times.empty() ? 0 : times[times.size() / 2];
  llvm::outs() << "reparse: " << lines << "-line document ("
               << llvm::format("%.0f", doc.size() / 1e3) << " KB, "
               << tree->getNumChunks() << " chunks), " << times.size()
               << " one-character edits, median "
               << llvm::format("%.3f", median * 1e3)
               << " ms (goal <= 0.5); sampled results equal full parse: "
               << (allEqual ? "yes" : "NO") << "\n";
  return allEqual ? 0 : 1;
}
