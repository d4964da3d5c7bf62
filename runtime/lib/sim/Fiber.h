//===- Fiber.h - Stackful coroutines of the simulator -----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One fiber per simulated CUDA thread: its own stack (mmap'd, a guard page
// below it), started on a function and switched to and from explicitly by
// the block scheduler on one OS thread. x86-64 switches with a few
// instructions (callee-saved registers, MXCSR and the x87 control word);
// other hosts use ucontext.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_SIM_FIBER_H
#define TLC_RUNTIME_SIM_FIBER_H

#include <cstddef>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace tlc::runtime::sim {

class Fiber {
public:
  /// A fiber with a stack of \p stackBytes; not started.
  explicit Fiber(size_t stackBytes);
  /// A fiber on \p stackBytes of memory at \p stack that the caller owns
  /// (a worker's pool of stacks, which has one definedness shadow).
  Fiber(char *stack, size_t stackBytes);
  ~Fiber();
  Fiber(const Fiber &) = delete;
  Fiber &operator=(const Fiber &) = delete;

  /// False when the stack could not be mapped.
  bool valid() const { return stack != nullptr; }

  /// Prepares the fiber to run \p entry(\p arg) at the next switchTo(), its
  /// stack's top 16 KiB filled with 0xFF (uninitialised registers read as
  /// NaN, not as a previous thread's values); a
  /// fiber whose entry returned, or one abandoned mid-way, can be reset.
  /// \p entry must not return: it ends by switching back for good.
  void reset(void (*entry)(void *), void *arg);

  /// Suspends \p from (the caller's context) and resumes this fiber.
  void switchFrom(Fiber &from);

  /// A context for the OS thread's own stack (the scheduler), never reset.
  static Fiber forCurrentThread();

  /// Where the stack lies (accesses there are not checked).
  char *stackLow() const { return stack; }
  char *stackHigh() const { return stack + stackSize; }

private:
  Fiber() = default;
  char *mapping = nullptr;
  size_t mappingSize = 0;
  char *stack = nullptr;
  size_t stackSize = 0;
#if defined(__x86_64__)
  void *sp = nullptr;
#else
  ucontext_t context;
  void (*entry)(void *) = nullptr;
  void *arg = nullptr;
  static void trampoline(unsigned hi, unsigned lo);
#endif
};

} // namespace tlc::runtime::sim

#endif // TLC_RUNTIME_SIM_FIBER_H
