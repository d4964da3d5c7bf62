//===- HostTensorTest.cpp - Random inputs of tlc-run ----------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// HostTensor::fillRandom fills large tensors in parallel chunks; every
// element must be the one a single sequential pass of SplitMix64 (Vigna's
// published generator, written out here from its definition) gives, so
// that seeded inputs do not depend on the host's core count.
//
//===----------------------------------------------------------------------===//

#include "tlc/runtime/HostTensor.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

using namespace tlc::runtime;

namespace {

/// SplitMix64 as published: state += 0x9E3779B97F4A7C15, then two
/// xor-shift-multiply rounds and a final xor-shift.
uint64_t splitMix(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

} // namespace

TEST_CASE("fillRandom: parallel chunks give the sequential stream") {
  // Three chunks of 2^20 and a ragged tail; int8 (one Box-Muller pair per
  // element, two draws) and uint8 (one draw per element).
  const int64_t n = 3 * (int64_t(1) << 20) + 12345;
  for (const char *name : {"int8", "uint8"}) {
    CAPTURE(name);
    HostTensor t(*lookupDType(name), {n});
    t.fillRandom(/*seed=*/7, /*stream=*/3);
    uint64_t state = 7 * 0x100000001B3ull + 3 * 0x9E3779B97F4A7C15ull;
    bool same = true;
    int64_t firstBad = -1;
    for (int64_t i = 0; i < n && same; ++i) {
      double want;
      if (std::string(name) == "int8") {
        double u = (double(splitMix(state) >> 11) + 0.5) * 0x1.0p-53;
        double v = (double(splitMix(state) >> 11) + 0.5) * 0x1.0p-53;
        double x = std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * v);
        want = std::max(-128.0, std::min(127.0, std::round(4.0 * x)));
      } else {
        want = double(splitMix(state) % 256);
      }
      if (t.get(i) != want) {
        same = false;
        firstBad = i;
      }
    }
    CAPTURE(firstBad);
    CHECK(same);
  }
}
