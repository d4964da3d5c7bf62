//===- Jobs.cpp - tlc-build's parallel child builds -----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Jobs.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>

using namespace tlc::build;
namespace fs = llvm::sys::fs;

/// The contents of \p path ("" when it cannot be read), then removes it.
static std::string takeFile(llvm::StringRef path) {
  std::string text;
  if (auto buffer = llvm::MemoryBuffer::getFile(path))
    text = (*buffer)->getBuffer().str();
  fs::remove(path);
  return text;
}

/// Runs \p job with \p exe, its output into temporary files.
static void runJob(const std::string &exe, Job &job) {
  llvm::SmallString<128> outPath, errPath;
  if (fs::createTemporaryFile("tlc-build-job", "out", outPath) ||
      fs::createTemporaryFile("tlc-build-job", "err", errPath)) {
    job.err = "tlc-build: error: cannot create a temporary file for a job\n";
    return;
  }
  std::vector<llvm::StringRef> argv = {exe};
  for (const std::string &a : job.args)
    argv.push_back(a);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, outPath.str(),
                                                errPath.str()};
  std::string why;
  job.status = llvm::sys::ExecuteAndWait(exe, argv, std::nullopt, redirects,
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &why);
  job.out = takeFile(outPath);
  job.err = takeFile(errPath);
  if (job.status < 0)
    job.err += "tlc-build: error: a child build failed: " + why + "\n";
}

void tlc::build::runJobs(std::vector<Job> &jobs, unsigned parallel) {
  std::string exe = fs::getMainExecutable(nullptr, nullptr);
  if (parallel == 0)
    parallel = llvm::hardware_concurrency().compute_thread_count();
  parallel = std::max(1u, std::min<unsigned>(parallel, jobs.size()));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < jobs.size(); i = next++)
      runJob(exe, jobs[i]);
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < parallel; ++t)
    threads.emplace_back(work);
  work();
  for (std::thread &t : threads)
    t.join();
}

int tlc::build::printJobs(llvm::ArrayRef<Job> jobs, llvm::raw_ostream &out,
                          llvm::raw_ostream &err) {
  int worst = 0;
  for (const Job &job : jobs) {
    out << job.out;
    out.flush();
    err << job.err;
    err.flush();
    int status = job.status < 0 ? 1 : job.status;
    worst = std::max(worst, std::min(status, 2));
  }
  return worst;
}
