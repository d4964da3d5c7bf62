//===- ThreadClock.h - CPU time of the calling thread -----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The clock of the evaluator's time budget: seconds of CPU the calling
/// thread has used. A budget on this clock spends the same on an idle and
/// on a loaded machine (a file is analysed or not whatever else runs, as in
/// CI with every core busy), and an evaluation in one editor thread is not
/// charged for the others'.
///
//===----------------------------------------------------------------------===//

#ifndef TLC_SUPPORT_THREADCLOCK_H
#define TLC_SUPPORT_THREADCLOCK_H

namespace tlc {

/// Seconds of CPU time (user + system) the calling thread has used since
/// it started; differences of two readings in one thread measure the work
/// between them. Where the system has no per-thread CPU clock, the
/// monotonic wall clock instead.
double threadCpuSeconds();

} // namespace tlc

#endif // TLC_SUPPORT_THREADCLOCK_H
