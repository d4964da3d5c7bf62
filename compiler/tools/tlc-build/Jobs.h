//===- Jobs.h - tlc-build's parallel child builds ---------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `tlc-build -j N` and `--autotune` build many kernel instances at once:
// each instance (or configuration) is one child tlc-build process that
// builds only it; at most N run together. The analysis is milliseconds, the
// host or CUDA compiler seconds, so one process per instance spreads the
// compilers over the cores without sharing an MLIR context between threads.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TOOLS_TLC_BUILD_JOBS_H
#define TLC_TOOLS_TLC_BUILD_JOBS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tlc::build {

/// One child tlc-build run.
struct Job {
  /// The arguments after the program name.
  std::vector<std::string> args;
  /// What it printed on stdout and stderr.
  std::string out, err;
  /// Its exit status (-1: it could not be started or was killed).
  int status = -1;
};

/// Runs every job as a child process of this executable, at most
/// \p parallel at once (0: one per hardware thread), and returns when all
/// have finished. Their output is kept in the jobs, not printed.
void runJobs(std::vector<Job> &jobs, unsigned parallel);

/// Prints each job's stdout to \p out and stderr to \p err, in job order;
/// returns the worst exit status (0, 1, or 2).
int printJobs(llvm::ArrayRef<Job> jobs, llvm::raw_ostream &out,
              llvm::raw_ostream &err);

} // namespace tlc::build

#endif // TLC_TOOLS_TLC_BUILD_JOBS_H
