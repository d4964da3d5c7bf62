//===- Configs.h - tlc-build --configs --------------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `tlc-build FILE [options] --configs=LIST.jsonl` builds many instances of
// the file in one process: each line of LIST is one build, a JSON object
//
//   {"defines": ["M=128", ...], "out": DIR, "diagnostics_file": PATH,
//    "environ_report": PATH, "stdout": PATH, "stderr": PATH}
//
// (all but "out" optional) whose result is what `tlc-build FILE [options]
// -D... -o DIR --diagnostics-file=... --environ-report=...` would give: the
// same artifacts and files, its stdout and stderr in the files named, and
// on this process's stdout one line `{"index": I, "status": S}` (S: that
// run's exit status). A tuner's sweep builds its configurations so without
// a process start and MLIR context per configuration. The lines run one
// after the other; with `-j N` (N > 1) the list is split into N contiguous
// parts, each built so by a child process, so that N builds (and their host
// or device compilers) run at once, with the same files and status lines.
// A line missing from stdout is a build that did not finish.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TOOLS_TLC_BUILD_CONFIGS_H
#define TLC_TOOLS_TLC_BUILD_CONFIGS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
#include <vector>

namespace tlc::build {

/// One line of a --configs file.
struct ConfigEntry {
  /// `-D` bindings: name, value text.
  std::vector<std::pair<std::string, std::string>> defines;
  std::string outDir, diagnosticsFile, environReport, stdoutPath, stderrPath;
};

/// Runs \p build for every line of \p path, with stdout and stderr sent to
/// the line's files meanwhile, and prints each line's status. Returns 0, 1
/// when some build failed, 2 when the file cannot be read or a line is
/// malformed (after an error naming it; the lines before it ran).
int runConfigs(llvm::StringRef path,
               llvm::function_ref<int(const ConfigEntry &)> build);

/// runConfigs with the lines of \p path split into \p jobs contiguous
/// parts, each built by a child `tlc-build CHILDARGS --configs=PART` (at
/// most \p jobs at once, runJobs): the same builds and files; the children's
/// status lines are printed with \p path's indices, in order, then their
/// stderr. \p childArgs: the inputs and every option but --configs and -j.
/// Returns as runConfigs does; 1 also when a child stopped early.
int runConfigsInChildren(llvm::StringRef path, unsigned jobs,
                         llvm::ArrayRef<std::string> childArgs);

} // namespace tlc::build

#endif // TLC_TOOLS_TLC_BUILD_CONFIGS_H
