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
#include <cstring>

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

TEST_CASE("poison: a NaN no arithmetic produces, told apart from computed NaNs") {
  // The poison's bits, written out from the IEEE formats: quiet NaNs
  // (exponent all ones, top fraction bit set) with a payload.
  struct Case {
    const char *name;
    uint64_t bits;
  };
  for (Case c : {Case{"float16", 0x7e5a}, Case{"bfloat16", 0x7fda},
                 Case{"float32", 0x7fe5a5a5}, Case{"tfloat32", 0x7fe5a5a5},
                 Case{"float64", 0x7ffa5a5a5a5a5a5aull},
                 Case{"float8_e5m2", 0x7d}}) {
    CAPTURE(c.name);
    HostTensor t(*lookupDType(c.name), {3});
    t.poison();
    uint64_t stored = 0;
    std::memcpy(&stored, t.bytes.data(), t.dtype.size);
    CHECK(stored == c.bits);
    CHECK(std::isnan(t.get(0)));
    CHECK(t.isPoisoned(0));
    // A NaN that arithmetic made (0/0) and a number are not the poison.
    volatile double zero = 0.0;
    t.set(1, zero / zero);
    t.set(2, 1.5);
    CHECK(std::isnan(t.get(1)));
    CHECK_FALSE(t.isPoisoned(1));
    CHECK_FALSE(t.isPoisoned(2));
  }
  // e4m3fn has one NaN: any NaN counts as the poison; integers are zeroed
  // and never poisoned.
  HostTensor e4(*lookupDType("float8_e4m3fn"), {1});
  e4.poison();
  CHECK(e4.isPoisoned(0));
  HostTensor i32(*lookupDType("int32"), {1});
  i32.poison();
  CHECK(i32.get(0) == 0);
  CHECK_FALSE(i32.isPoisoned(0));
}
