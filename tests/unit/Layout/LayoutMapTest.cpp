//===- LayoutMapTest.cpp - Layout maps and their text grid ----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Oracles: the PTX ISA's table of the mma.m16n8 accumulator fragment
// (lane l holds rows l / 4 and l / 4 + 8, columns 2 (l % 4) and
// 2 (l % 4) + 1) and byte arithmetic for banks (byte / 4 % 32).
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/LayoutMap.h"
#include "tlc/Layout/GemmLayouts.h"
#include "tlc/Layout/SharedLayouts.h"

#include <doctest/doctest.h>

#include <set>

using namespace tlc::layout;

TEST_CASE("fragment map of one mma.C tile") {
  GemmConfig c;
  c.m = 16, c.n = 8, c.k = 16, c.threads = 32;
  llvm::Expected<Fragment> f = gemmAccumulatorFragment(c);
  REQUIRE(f);
  llvm::Expected<LayoutMap> map = mapFragment(*f, "C_local", "float32");
  REQUIRE(map);
  CHECK(map->rows == 16);
  CHECK(map->cols == 8);
  CHECK(map->threads == 32);
  CHECK(map->regsPerThread == 4);
  CHECK(map->instruction == "mma.C");
  std::set<std::pair<int64_t, int64_t>> slots;
  for (int64_t r = 0; r < 16; ++r)
    for (int64_t col = 0; col < 8; ++col) {
      const LayoutCell &cell = map->at(r, col);
      INFO(r << "," << col);
      CHECK(cell.thread == (r % 8) * 4 + col / 2);
      CHECK(slots.insert({cell.thread, cell.index}).second);
    }
  CHECK(map->title().find("C_local — fragment 16×8 float32") == 0);
  std::string text = renderLayoutText(*map);
  // Row 9 is lanes 4 .. 7, two columns each.
  CHECK(text.find("9 |  4  4  5  5  6  6  7  7\n") != std::string::npos);
}

TEST_CASE("text grid is clipped") {
  GemmConfig c;
  c.m = 64, c.n = 64, c.k = 16, c.threads = 128;
  llvm::Expected<Fragment> f = gemmAccumulatorFragment(c);
  REQUIRE(f);
  llvm::Expected<LayoutMap> map = mapFragment(*f, "acc");
  REQUIRE(map);
  std::string text = renderLayoutText(*map, 4, 6);
  CHECK(text.find("(showing 4 of 64 rows, 6 of 64 columns)") !=
        std::string::npos);
  // Title, legend line, header, ruler, 4 rows, the clipping note.
  CHECK(std::count(text.begin(), text.end(), '\n') == 9);
}

TEST_CASE("replicas are listed") {
  llvm::Expected<Fragment> f =
      Fragment::parse({4, 8}, {"j"}, "i + 4 * rep", /*replicate=*/2);
  REQUIRE(f);
  llvm::Expected<LayoutMap> map = mapFragment(*f, "row");
  REQUIRE(map);
  CHECK(map->replicate == 2);
  REQUIRE(map->replicaThreads.size() == 32);
  CHECK(map->at(3, 5).thread == 3);
  CHECK(map->replicaThreads[3 * 8 + 5] == 7);
}

TEST_CASE("shared map: banks and swizzle phases") {
  Layout linear = Layout::linear({8, 64});
  llvm::Expected<LayoutMap> lin = mapShared(linear, 2, "A_shared", "float16");
  REQUIRE(lin);
  for (int64_t r = 0; r < 8; ++r)
    for (int64_t col = 0; col < 64; ++col) {
      CHECK(lin->at(r, col).bank == ((r * 64 + col) * 2 / 4) % 32);
      CHECK(lin->at(r, col).phase == 0);
    }
  llvm::Expected<Layout> swz = makeRowSwizzledLayout({8, 64}, 16);
  REQUIRE(swz);
  llvm::Expected<LayoutMap> s = mapShared(*swz, 2, "A_shared", "float16");
  REQUIRE(s);
  // Row r's chunk q lands in chunk q ^ r: the phase is r.
  for (int64_t r = 0; r < 8; ++r) {
    CHECK(s->at(r, 0).phase == r);
    CHECK(s->at(r, 0).bank == ((r * 64 + (0 ^ r) * 8) * 2 / 4) % 32);
  }
  CHECK(renderLayoutText(*s).find("cells: bank") != std::string::npos);
}

TEST_CASE("colours") {
  std::set<std::string> threads;
  for (int64_t t = 0; t < 1024; ++t)
    threads.insert(threadColour(t));
  CHECK(threads.size() == 1024);
  std::set<std::string> banks;
  for (int64_t b = 0; b < 32; ++b)
    banks.insert(bankColour(b));
  CHECK(banks.size() == 32);
}
