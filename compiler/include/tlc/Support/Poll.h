//===- Poll.h - Waiting by polling with growing naps ------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Waits for something that cannot be waited on with a deadline of its own
/// (a child process with waitpid(WNOHANG), a lock with flock(LOCK_NB)) by
/// looking again and again: 1 ms apart at first (most waits here end within
/// milliseconds), the naps doubling up to a ceiling, until it is done, the
/// look fails, or the time limit passes.
///
//===----------------------------------------------------------------------===//

#ifndef TLC_SUPPORT_POLL_H
#define TLC_SUPPORT_POLL_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <chrono>

namespace tlc {

/// What one look (and the whole wait) found.
enum class PollStep {
  /// What was waited for happened.
  Done,
  /// Not yet (from pollWithNaps: the time limit passed first).
  Again,
  /// The look failed; waiting longer would not help.
  Failed,
};

/// Calls \p look until it returns Done or Failed, which is returned,
/// sleeping between calls (1 ms, then twice as long each time, at most
/// \p maxNap). Returns Again once \p seconds (0: no limit) have passed since
/// the call and a look still says Again; \p look is called at least once.
PollStep pollWithNaps(llvm::function_ref<PollStep()> look, unsigned seconds,
                      std::chrono::milliseconds maxNap);

} // namespace tlc

#endif // TLC_SUPPORT_POLL_H
