//===- PollTest.cpp - pollWithNaps unit tests -----------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Support/Poll.h"

#include <chrono>
#include <vector>

#include <doctest/doctest.h>

using namespace tlc;
using Clock = std::chrono::steady_clock;

TEST_CASE("pollWithNaps returns the first look that is not Again") {
  int looks = 0;
  CHECK(pollWithNaps(
            [&] { return ++looks == 4 ? PollStep::Done : PollStep::Again; }, 0,
            std::chrono::milliseconds(50)) == PollStep::Done);
  CHECK(looks == 4);
  looks = 0;
  CHECK(pollWithNaps(
            [&] { return ++looks == 2 ? PollStep::Failed : PollStep::Again; },
            10, std::chrono::milliseconds(50)) == PollStep::Failed);
  CHECK(looks == 2);
}

TEST_CASE("pollWithNaps naps 1 ms, doubling up to the ceiling") {
  // The gaps between looks: at least 1, 2, 4, 8, 8, 8 ms (ceiling 8 ms).
  std::vector<Clock::time_point> times;
  pollWithNaps(
      [&] {
        times.push_back(Clock::now());
        return times.size() == 7 ? PollStep::Done : PollStep::Again;
      },
      0, std::chrono::milliseconds(8));
  REQUIRE(times.size() == 7);
  const int least[] = {1, 2, 4, 8, 8, 8};
  for (int i = 0; i < 6; ++i)
    CHECK(times[i + 1] - times[i] >= std::chrono::milliseconds(least[i]));
}

TEST_CASE("pollWithNaps gives up after its limit with Again") {
  int looks = 0;
  Clock::time_point start = Clock::now();
  CHECK(pollWithNaps(
            [&] {
              ++looks;
              return PollStep::Again;
            },
            1, std::chrono::milliseconds(20)) == PollStep::Again);
  CHECK(Clock::now() - start >= std::chrono::seconds(1));
  CHECK(looks > 5);
}
