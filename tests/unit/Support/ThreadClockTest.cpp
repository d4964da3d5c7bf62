//===- ThreadClockTest.cpp - threadCpuSeconds unit tests ------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Support/ThreadClock.h"

#include <chrono>
#include <thread>

#include <doctest/doctest.h>

using namespace tlc;

TEST_CASE("a sleeping thread's CPU clock stands still") {
  // The property the evaluator's budget relies on: time the thread does
  // not run (waiting, or preempted on a loaded machine) is not counted.
  double before = threadCpuSeconds();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  double slept = threadCpuSeconds() - before;
  CHECK(slept >= 0);
  CHECK(slept < 0.1);
}

TEST_CASE("a busy thread's CPU clock advances") {
  double before = threadCpuSeconds();
  volatile unsigned long sink = 0;
  // Spin until the clock has moved 50 ms (bounded by a wall-clock limit so
  // that a clock that never moves fails instead of hanging).
  auto wallStart = std::chrono::steady_clock::now();
  while (threadCpuSeconds() - before < 0.05 &&
         std::chrono::steady_clock::now() - wallStart <
             std::chrono::seconds(20))
    for (int i = 0; i < 100000; ++i)
      sink = sink + i;
  CHECK(threadCpuSeconds() - before >= 0.05);
}

TEST_CASE("another thread's work is not this thread's") {
  double before = threadCpuSeconds();
  std::thread worker([] {
    double start = threadCpuSeconds();
    volatile unsigned long sink = 0;
    while (threadCpuSeconds() - start < 0.2)
      for (int i = 0; i < 100000; ++i)
        sink = sink + i;
  });
  worker.join(); // this thread waits, using no CPU
  CHECK(threadCpuSeconds() - before < 0.1);
}
