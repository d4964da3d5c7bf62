//===- Subprocess.h - Running a tool with a time limit ----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs an external tool (a host or device compiler) to completion or to a
/// time limit, safely from several threads at once. llvm::sys::ExecuteAndWait
/// implements its limit with alarm(2), one timer for the whole process: with
/// compilations running in parallel one thread's alarm(0) cancels another's
/// limit and the signal may reach a thread that is not waiting. Here each
/// call polls its own child against its own deadline, and a child past the
/// limit is stopped with everything it started (a compiler driver's cc1plus,
/// ptxas, as), not only the driver.
///
//===----------------------------------------------------------------------===//

#ifndef TLC_SUPPORT_SUBPROCESS_H
#define TLC_SUPPORT_SUBPROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tlc {

/// What ran: the exit status, or why there is none.
struct SubprocessResult {
  enum Kind {
    /// The tool ran and exited with `status`.
    Exited,
    /// It could not be started, or a signal ended it (`why` says which).
    Failed,
    /// It ran past the limit and was stopped, with its descendants.
    TimedOut,
  };
  Kind kind = Failed;
  int status = 0;
  std::string why;
};

/// Runs \p args (args[0] the program's path, not searched on PATH) with
/// standard input from /dev/null and standard output and error both into
/// \p logPath (created or truncated). Past \p seconds (0: no limit) the tool
/// and every process it started are killed.
SubprocessResult runSubprocess(llvm::ArrayRef<std::string> args,
                               llvm::StringRef logPath, unsigned seconds);

} // namespace tlc

#endif // TLC_SUPPORT_SUBPROCESS_H
