//===- LayoutSliceTest.cpp - Threads and banks a slice of a tile covers ---===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Oracles: the PTX ISA's mma.m16n8 accumulator table (lane 4 (i % 8) +
// (j % 8) / 2 holds element (i, j)), written-out replicated and padded
// layouts, the device runtime's swizzle formula (chunk XOR row bits), and
// byte arithmetic for banks (byte / 4 % 32). Boxes are drawn at random,
// partly past the tile.
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/LayoutSlice.h"
#include "tlc/Layout/GemmLayouts.h"
#include "tlc/Layout/SharedLayouts.h"

#include <doctest/doctest.h>

#include <map>
#include <random>
#include <set>

using namespace tlc::layout;

namespace {
/// A random box of a rows x cols tile, reaching up to 4 past either end.
SliceBox randomBox(std::mt19937 &rng, int64_t rows, int64_t cols) {
  auto pick = [&](int64_t n) {
    int64_t b = std::uniform_int_distribution<int64_t>(-2, n - 1)(rng);
    int64_t e = std::uniform_int_distribution<int64_t>(0, n - b + 2)(rng);
    return std::pair{b, e};
  };
  auto [r, re] = pick(rows);
  auto [c, ce] = pick(cols);
  return SliceBox{{r, c}, {re, ce}};
}
} // namespace

TEST_CASE("fragment slice: mma.C threads against the PTX table") {
  GemmConfig c;
  c.m = 16, c.n = 8, c.k = 16, c.threads = 32;
  llvm::Expected<Fragment> f = gemmAccumulatorFragment(c);
  REQUIRE(f);
  std::mt19937 rng(7);
  for (int trial = 0; trial < 500; ++trial) {
    SliceBox box = randomBox(rng, 16, 8);
    INFO(sliceText(box));
    // Brute force over the PTX formula: elements per lane, and outside.
    std::map<int64_t, int64_t> perLane;
    int64_t outside = 0;
    for (int64_t i = box.begin[0]; i < box.begin[0] + box.extent[0]; ++i)
      for (int64_t j = box.begin[1]; j < box.begin[1] + box.extent[1]; ++j) {
        if (i < 0 || i >= 16 || j < 0 || j >= 8) {
          ++outside;
          continue;
        }
        ++perLane[4 * (i % 8) + (j % 8) / 2];
      }
    llvm::Expected<FragmentSliceCover> cover = coverFragmentSlice(*f, box);
    REQUIRE(cover);
    CHECK(cover->outside == outside);
    CHECK(cover->threadExtent == 32);
    REQUIRE(cover->registers.size() == perLane.size());
    int64_t total = 0;
    for (const auto &[lane, count] : perLane) {
      REQUIRE(cover->registers.count(lane));
      // One register per element: no thread holds one twice.
      CHECK(int64_t(cover->registers.at(lane).size()) == count);
      total += count;
    }
    CHECK(cover->elements == total);
  }
}

TEST_CASE("fragment slice: replicas hold it too") {
  // Element (i, j) in register j of threads i and i + 4.
  llvm::Expected<Fragment> f =
      Fragment::parse({4, 8}, {"j"}, "i + 4 * rep", /*replicate=*/2);
  REQUIRE(f);
  llvm::Expected<FragmentSliceCover> cover =
      coverFragmentSlice(*f, SliceBox{{1, 2}, {2, 3}});
  REQUIRE(cover);
  CHECK(cover->elements == 6);
  CHECK(cover->replicate == 2);
  std::vector<int64_t> threads;
  for (const auto &[t, regs] : cover->registers) {
    threads.push_back(t);
    CHECK(regs == std::vector<int64_t>{2, 3, 4});
  }
  CHECK(threads == std::vector<int64_t>{1, 2, 5, 6});
  std::string text = describeSlice(*cover);
  CHECK(text.find("6 elements · 4 of 8 threads hold it (2 replicas), 3 "
                  "registers each (r2–4)") == 0);
  CHECK(text.find("threads 1–2, 5–6") != std::string::npos);
}

TEST_CASE("fragment slice: one row of a 4-warp accumulator") {
  GemmConfig c;
  c.m = 64, c.n = 64, c.k = 16, c.threads = 128;
  llvm::Expected<Fragment> f = gemmAccumulatorFragment(c);
  REQUIRE(f);
  llvm::Expected<LayoutMap> map = mapFragment(*f, "acc");
  REQUIRE(map);
  // Row 3: the threads of the map's row 3, each 2 columns of every 8.
  std::set<int64_t> expected;
  for (int64_t j = 0; j < 64; ++j)
    expected.insert(map->at(3, j).thread);
  llvm::Expected<FragmentSliceCover> cover =
      coverFragmentSlice(*f, SliceBox{{3, 0}, {1, 64}});
  REQUIRE(cover);
  std::set<int64_t> got;
  for (const auto &[t, regs] : cover->registers)
    got.insert(t);
  CHECK(got == expected);
  // Within each warp the PTX table puts row 3 in lanes 12..15.
  for (int64_t t : got)
    CHECK((t % 32) / 4 == 3);
  CHECK(describeSlice(*cover).find("lanes 12–15 of warps") !=
        std::string::npos);
}

TEST_CASE("shared slice: offsets and banks by byte arithmetic") {
  std::mt19937 rng(11);
  for (auto [rows, cols, bits, pad] :
       {std::tuple{32, 32, 32, 0}, {32, 32, 32, 1}, {16, 64, 16, 8},
        {64, 64, 16, 0}, {8, 128, 8, 16}}) {
    llvm::Expected<Layout> l = makePaddedLayout({rows, cols}, bits, pad);
    REQUIRE(l);
    int64_t bytes = bits / 8;
    for (int trial = 0; trial < 100; ++trial) {
      SliceBox box = randomBox(rng, rows, cols);
      INFO(rows << "x" << cols << " pad " << pad << " " << sliceText(box));
      std::vector<int64_t> offsets;
      std::array<int64_t, 32> banks{};
      for (int64_t i = box.begin[0]; i < box.begin[0] + box.extent[0]; ++i)
        for (int64_t j = box.begin[1]; j < box.begin[1] + box.extent[1];
             ++j) {
          if (i < 0 || i >= rows || j < 0 || j >= cols)
            continue;
          int64_t off = i * (cols + pad) + j;
          offsets.push_back(off);
          ++banks[off * bytes / 4 % 32];
        }
      std::sort(offsets.begin(), offsets.end());
      llvm::Expected<SharedSliceCover> cover =
          coverSharedSlice(*l, bytes, box);
      REQUIRE(cover);
      CHECK(cover->offsets == offsets);
      CHECK(cover->perBank == banks);
    }
  }
}

TEST_CASE("shared slice: a column, unpadded, padded and swizzled") {
  // 32 x 32 floats: column 5 is 32 elements in bank 5; padded by one
  // float, one in each bank.
  llvm::Expected<Layout> plain = makePaddedLayout({32, 32}, 32, 0);
  llvm::Expected<Layout> padded = makePaddedLayout({32, 32}, 32, 1);
  REQUIRE(plain);
  REQUIRE(padded);
  SliceBox column{{0, 5}, {32, 1}};
  CHECK(sliceText(column) == "[0:32, 5]");
  llvm::Expected<SharedSliceCover> a = coverSharedSlice(*plain, 4, column);
  llvm::Expected<SharedSliceCover> b = coverSharedSlice(*padded, 4, column);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(describeSlice(*a) ==
        "32 elements · bytes 20–3991 of the tile, in 32 contiguous runs\n\n"
        "starting in banks 5, 32 elements in each\n");
  CHECK(describeSlice(*b).find("starting in banks 0–31, 1 element in each") !=
        std::string::npos);
  // A 64 x 64 f16 tile in the runtime's row swizzle: the 16-byte chunk of
  // column 0 moves with the row (chunk XOR row % 8), so the first 8 rows
  // of column 0 start in banks 0, 4, ..., 28.
  llvm::Expected<Layout> swizzled = makeRowSwizzledLayout({64, 64}, 16);
  REQUIRE(swizzled);
  llvm::Expected<SharedSliceCover> s =
      coverSharedSlice(*swizzled, 2, SliceBox{{0, 0}, {8, 1}});
  REQUIRE(s);
  std::array<int64_t, 32> banks{};
  for (int64_t r = 0; r < 8; ++r) {
    int64_t off = r * 64 + ((0 / 8) ^ (r & 7)) * 8;
    ++banks[off * 2 / 4 % 32];
  }
  CHECK(s->perBank == banks);
  CHECK(describeSlice(*s).find("banks 0, 4, 8, 12, 16, 20, 24, 28") !=
        std::string::npos);
}

TEST_CASE("slice text grid") {
  GemmConfig c;
  c.m = 16, c.n = 8, c.k = 16, c.threads = 32;
  llvm::Expected<Fragment> f = gemmAccumulatorFragment(c);
  REQUIRE(f);
  llvm::Expected<LayoutMap> map = mapFragment(*f, "acc");
  REQUIRE(map);
  // Rows 8 and 9, columns 2..5: lanes 4 (i % 8) + j / 2.
  std::string text = renderSliceText(*map, SliceBox{{8, 2}, {2, 4}});
  CHECK(text == "cells: thread; rows i, columns j\n"
                "  |  2  3  4  5\n"
                "--+------------\n"
                "8 |  1  1  2  2\n"
                "9 |  5  5  6  6\n");
  // Past the end: only the rows and columns inside; clipped with a note.
  std::string clipped = renderSliceText(*map, SliceBox{{14, 0}, {4, 8}}, 1, 3);
  CHECK(clipped.find("14 |") != std::string::npos);
  CHECK(clipped.find("(showing 1 of 2 rows, 3 of 8 columns of the slice)") !=
        std::string::npos);
  // A box wholly outside draws nothing.
  CHECK(renderSliceText(*map, SliceBox{{16, 0}, {2, 2}}).empty());
}

TEST_CASE("runs and slice text") {
  CHECK(formatRuns({0, 1, 2, 3, 8, 9, 10, 11, 16}) == "0–3, 8–11, 16");
  CHECK(formatRuns({0, 2, 4, 6, 8}, 3) == "0, 2, 4, … (2 more)");
  CHECK(formatRuns({}).empty());
  CHECK(sliceText(SliceBox{{3, 0}, {1, 64}}) == "[3, 0:64]");
  // Rank mismatches and negative extents are errors, not crashes.
  Layout l = Layout::linear({4, 4});
  llvm::Expected<SharedSliceCover> bad =
      coverSharedSlice(l, 4, SliceBox{{0}, {4}});
  CHECK(!bad);
  llvm::consumeError(bad.takeError());
  llvm::Expected<SharedSliceCover> negative =
      coverSharedSlice(l, 4, SliceBox{{0, 0}, {-1, 4}});
  CHECK(!negative);
  llvm::consumeError(negative.takeError());
}
