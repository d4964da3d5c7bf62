//===- Poll.cpp - Waiting by polling with growing naps --------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Support/Poll.h"

#include <algorithm>
#include <thread>

tlc::PollStep tlc::pollWithNaps(llvm::function_ref<PollStep()> look,
                                unsigned seconds,
                                std::chrono::milliseconds maxNap) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point deadline = Clock::now() + std::chrono::seconds(seconds);
  std::chrono::milliseconds nap(1);
  for (;;) {
    PollStep step = look();
    if (step != PollStep::Again)
      return step;
    if (seconds && Clock::now() >= deadline)
      return PollStep::Again;
    std::this_thread::sleep_for(nap);
    nap = std::min(nap * 2, std::max(maxNap, std::chrono::milliseconds(1)));
  }
}
