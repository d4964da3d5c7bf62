//===- PhiloxTest.cpp - tlc_device/philox.h -------------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The Philox4x32-10 bijection of tlc_device/philox.h (T.rng_* on every
// target) against Random123's published known-answer vectors, and its
// curand-style state: the subsequence is the counter's upper 64 bits, an
// offset skips that many values, a block of four values follows the next.
//
//===----------------------------------------------------------------------===//

#include "tlc_device/philox.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

namespace {

struct Kat {
  unsigned ctr[4];
  unsigned key[2];
  unsigned out[4];
};

/// Random123's kat_vectors, "philox4x32 10" lines: counter, key, output.
const Kat kats[] = {
    {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

} // namespace

TEST_CASE("philox4x32x10 matches Random123's known answers") {
  for (const Kat &k : kats) {
    tlc::PhiloxWords c{{k.ctr[0], k.ctr[1], k.ctr[2], k.ctr[3]}};
    tlc::PhiloxWords o = tlc::philox4x32x10(c, k.key[0], k.key[1]);
    for (int i = 0; i < 4; ++i)
      CHECK(o.w[i] == k.out[i]);
  }
}

TEST_CASE("PhiloxState: seed is the key, subsequence the counter's top") {
  // Counter (0, 0, 0x13198a2e, 0x03707344) under the third vector's key:
  // its first block, then the next counter value's.
  uint64_t seed = 0x299f31d0a4093822ull;
  uint64_t seq = 0x0370734413198a2eull;
  tlc::PhiloxState s;
  s.init(seed, seq, 0);
  for (unsigned block = 0; block < 3; ++block) {
    tlc::PhiloxWords c{{block, 0, 0x13198a2e, 0x03707344}};
    tlc::PhiloxWords o = tlc::philox4x32x10(c, 0xa4093822, 0x299f31d0);
    for (int i = 0; i < 4; ++i)
      CHECK(s.next() == o.w[i]);
  }
}

TEST_CASE("PhiloxState: an offset skips values, across blocks") {
  tlc::PhiloxState a;
  a.init(42, 7, 0);
  std::vector<unsigned> all;
  for (int i = 0; i < 40; ++i)
    all.push_back(a.next());
  for (unsigned off = 0; off < 20; ++off) {
    tlc::PhiloxState b;
    b.init(42, 7, off);
    for (unsigned i = 0; i < 12; ++i)
      CHECK(b.next() == all[off + i]);
  }
}

TEST_CASE("PhiloxState: 64-bit subsequences and offsets") {
  // Subsequence 2^32 - 1 is the counter (0, 0, 0xffffffff, 0).
  tlc::PhiloxState s;
  s.init(0, 0xffffffffull, 0);
  tlc::PhiloxWords c{{0, 0, 0xffffffff, 0}};
  CHECK(s.next() == tlc::philox4x32x10(c, 0, 0).w[0]);
  // Offset 2^64 - 1: value 3 of block 2^62 - 1 (words 0xffffffff,
  // 0x3fffffff), then block 2^62, the low word carried into the second.
  tlc::PhiloxState t;
  t.init(0, 5, ~0ull);
  tlc::PhiloxWords last{{0xffffffff, 0x3fffffff, 5, 0}};
  CHECK(t.next() == tlc::philox4x32x10(last, 0, 0).w[3]);
  tlc::PhiloxWords after{{0, 0x40000000, 5, 0}};
  CHECK(t.next() == tlc::philox4x32x10(after, 0, 0).w[0]);
}

TEST_CASE("PhiloxState: uniform floats lie in (0, 1]") {
  tlc::PhiloxState s;
  s.init(1, 2, 3);
  for (int i = 0; i < 1000; ++i) {
    float f = s.uniform();
    double d = s.uniformDouble();
    CHECK((f > 0.0f && f <= 1.0f));
    CHECK((d > 0.0 && d < 1.0));
  }
}
