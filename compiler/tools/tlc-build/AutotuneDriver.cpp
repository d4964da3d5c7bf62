//===- AutotuneDriver.cpp - tlc-build --autotune FILE ---------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Autotune.h"
#include "Inputs.h"
#include "Jobs.h"

#include "tlc/Driver/Driver.h"
#include "tlc/Support/Diagnostic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <optional>

using namespace tlc;
using namespace tlc::build;

namespace {

/// The first line of \p text that says `error`, else its first line.
std::string firstErrorLine(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines)
    if (line.contains("error"))
      return line.trim().str();
  return lines.empty() ? std::string("failed") : lines.front().trim().str();
}

} // namespace

int build::autotuneFile(const driver::DriverOptions &base, llvm::StringRef path,
                        llvm::StringRef outDir, llvm::StringRef targetName,
                        llvm::ArrayRef<std::string> childArgs,
                        unsigned jobCount, TuningOptions tuning) {
  std::unique_ptr<llvm::MemoryBuffer> buffer = readInput(path);
  if (!buffer)
    return 2;
  // The instances (with their labels) that configuration I makes.
  struct ConfigAnalysis {
    std::vector<eval::InstanceInfo> instances;
    std::vector<std::pair<std::string, unsigned>> autotuned;
  };
  auto analyzeConfig = [&](unsigned index, bool print) {
    driver::DriverOptions o = base;
    o.eval.autotuneConfig = index;
    driver::Driver drv(std::move(o));
    std::vector<driver::FileResult> r;
    r.push_back(drv.analyze(path, buffer->getBuffer()));
    if (print)
      driver::printDiagnostics(r, base.format, base.showSourceLines,
                               llvm::errs());
    std::optional<ConfigAnalysis> result;
    if (!hasErrors(r[0].diagnostics))
      result = ConfigAnalysis{r[0].analysis.instances, r[0].analysis.autotuned};
    return result;
  };
  std::optional<ConfigAnalysis> first = analyzeConfig(0, /*print=*/true);
  if (!first)
    return 1;
  if (first->autotuned.empty()) {
    llvm::errs() << "tlc-build: error: --autotune: " << path
                 << " has no traced @tilelang.autotune(configs=[...]) "
                    "kernel (a list of configurations; call the factory or "
                    "bind its other parameters with -D)\n";
    return 2;
  }
  unsigned count = 0;
  for (auto &[kernel, n] : first->autotuned)
    count = std::max(count, n);
  llvm::SmallString<256> root(outDir);
  if (root.empty()) {
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("tlc-autotune", root)) {
      llvm::errs() << "tlc-build: error: --autotune: cannot create a "
                      "directory: "
                   << ec.message() << "\n";
      return 2;
    }
  }
  std::vector<Job> jobs(count);
  std::vector<std::string> dirs;
  for (unsigned i = 0; i < count; ++i) {
    llvm::SmallString<256> dir(root);
    llvm::sys::path::append(dir, "config-" + std::to_string(i));
    dirs.push_back(dir.str().str());
    jobs[i].args.assign(childArgs.begin(), childArgs.end());
    // One tuned kernel: the children need not build the file's others.
    if (first->autotuned.size() == 1 && base.eval.kernelFilter.empty())
      jobs[i].args.push_back("--kernel=" + first->autotuned.front().first);
    jobs[i].args.insert(jobs[i].args.end(),
                        {path.str(), "--autotune-config=" + std::to_string(i),
                         "-o", dirs.back()});
  }
  auto start = std::chrono::steady_clock::now();
  runJobs(jobs, jobCount);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  printJobs(jobs, llvm::outs(), llvm::errs());
  unsigned cached = 0, compiled = 0;
  for (const Job &job : jobs)
    for (llvm::StringRef line : llvm::split(job.out, '\n'))
      if (line.starts_with("wrote "))
        ++(line.ends_with(" (cached)") ? cached : compiled);
  llvm::outs() << "autotune: built " << count << " configurations in "
               << llvm::format("%.2f", seconds) << " s (" << compiled
               << " binaries compiled, " << cached << " from the cache)\n";
  tuning.device = targetName.starts_with("cuda:")  ? "cuda"
                  : targetName.starts_with("hip:") ? "hip"
                                                   : "cpu";
  std::vector<std::optional<ConfigAnalysis>> analyses(count);
  analyses[0] = std::move(first);
  for (unsigned i = 1; i < count; ++i)
    analyses[i] = analyzeConfig(i, /*print=*/false);
  int status = 0;
  for (auto &[kernel, n] : analyses[0]->autotuned) {
    std::vector<TunedConfig> configs;
    for (unsigned i = 0; i < n; ++i) {
      TunedConfig c;
      c.label = kernel + " configuration " + std::to_string(i);
      if (analyses[i])
        for (const eval::InstanceInfo &info : analyses[i]->instances)
          if (info.kernel == kernel) {
            c.label = info.label;
            break;
          }
      c.dir = dirs[i];
      if (jobs[i].status != 0)
        c.buildError = firstErrorLine(jobs[i].err);
      configs.push_back(std::move(c));
    }
    status =
        std::max(status, tuneKernel(kernel, configs, tuning, llvm::outs()));
  }
  return status;
}
