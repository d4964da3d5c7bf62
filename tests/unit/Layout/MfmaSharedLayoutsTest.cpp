//===- MfmaSharedLayoutsTest.cpp - LDS swizzles of MFMA operands ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The oracle is written here from the hardware facts, not from the
// library's access lists: the MFMA operand lanes of the CDNA3 ISA (lane l
// of a T x T tile passes row l % T, k = perStep (l / T) .. + perStep - 1),
// LDS as 32 banks of 4 bytes, and the lanes CDNA serves together (16 for
// 8-byte reads, 8 in the groups 0-3 + 20-23, 4-7 + 16-19, 8-11 + 28-31,
// 12-15 + 24-27 for 16-byte reads, 32 otherwise). Every swizzle chosen must
// be a bijection, keep a lane's vector contiguous and read every operand
// conflict-free; the NVIDIA 16-byte chunk swizzle, for contrast, does not.
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/MfmaSharedLayouts.h"
#include "tlc/Layout/SharedLayouts.h"

#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <set>

using namespace tlc::layout;

namespace {
/// The lanes CDNA serves in one cycle for a read of \p bytes per lane.
std::vector<std::vector<int>> lanesServedTogether(int64_t bytes) {
  std::vector<std::vector<int>> groups;
  if (bytes == 16) {
    for (auto [a, b] : {std::pair{0, 20}, {4, 16}, {8, 28}, {12, 24}})
      for (int half : {0, 32}) {
        std::vector<int> g;
        for (int i = 0; i < 4; ++i) {
          g.push_back(half + a + i);
          g.push_back(half + b + i);
        }
        groups.push_back(g);
      }
    return groups;
  }
  int n = bytes == 8 ? 16 : 32;
  for (int first = 0; first < 64; first += n) {
    std::vector<int> g;
    for (int l = first; l < first + n; ++l)
      g.push_back(l);
    groups.push_back(g);
  }
  return groups;
}

/// The worst number of distinct dwords one bank serves in one cycle, over
/// every read of an operand tile [rows, cont] at byte offsets \p byteOf.
int64_t worstReadDegree(int64_t tile, int64_t perStep, bool kInner,
                        bool vector, int64_t bytes, int64_t rows, int64_t cont,
                        const std::function<int64_t(int64_t, int64_t)> &byteOf) {
  int64_t kExtent = kInner ? cont : rows, mnExtent = kInner ? rows : cont;
  int64_t step = (64 / tile) * perStep, width = vector ? perStep * bytes : bytes;
  int64_t worst = 0;
  for (int64_t k0 = 0; k0 + step <= kExtent; k0 += step)
    for (int64_t mn0 = 0; mn0 + tile <= mnExtent; mn0 += tile)
      for (int64_t v = 0; v < (vector ? 1 : perStep); ++v)
        for (const std::vector<int> &group : lanesServedTogether(width)) {
          std::map<int64_t, std::set<int64_t>> bankWords;
          for (int l : group) {
            int64_t mn = mn0 + l % tile, k = k0 + perStep * (l / tile) + v;
            int64_t b = kInner ? byteOf(mn, k) : byteOf(k, mn);
            for (int64_t w = b / 4; w <= (b + width - 1) / 4; ++w)
              bankWords[w % 32].insert(w);
          }
          for (auto &[bank, words] : bankWords)
            worst = std::max<int64_t>(worst, words.size());
        }
  return worst;
}
} // namespace

TEST_CASE("MFMA operand swizzles: conflict-free, bijective, vectors whole") {
  int checked = 0;
  for (int64_t bytes : {2, 1})
    for (int64_t kPack : {1, 2})
      for (int64_t tile : {16, 32})
        for (bool kInner : {true, false})
          for (int64_t cont : {32, 64, 128, 256}) {
            MfmaOperandReads r;
            r.tile = tile;
            r.elementBytes = bytes;
            r.perStep = (bytes == 1 ? 8 : 4) * kPack;
            r.kInner = kInner;
            r.vector = kInner;
            int64_t rows = kInner ? 64 : 2 * r.step();
            if (cont % r.step() != 0 && kInner)
              continue;
            if (!kInner && cont % tile != 0)
              continue;
            CAPTURE(bytes);
            CAPTURE(kPack);
            CAPTURE(tile);
            CAPTURE(kInner);
            CAPTURE(cont);
            XorSwizzle s = chooseMfmaSwizzle(r, rows, cont);
            llvm::Expected<Layout> l =
                makeXorSwizzleLayout({2, rows, cont}, bytes * 8, s);
            REQUIRE(static_cast<bool>(l));
            CHECK(l->isBijective());
            // The layout is the formula the device header evaluates.
            for (int64_t row : {int64_t(0), int64_t(3), rows + 5})
              for (int64_t col = 0; col < cont; col += 3) {
                std::optional<std::vector<int64_t>> out =
                    l->apply({row / rows, row % rows, col});
                REQUIRE(out);
                CHECK((*out)[0] == s.offset(row, col, cont));
              }
            if (kInner)
              CHECK(s.vec % r.perStep == 0);
            auto byteOf = [&](int64_t row, int64_t col) {
              return s.offset(row, col, cont) * bytes;
            };
            CHECK(worstReadDegree(tile, r.perStep, kInner, kInner, bytes,
                                  rows, cont, byteOf) == 1);
            ++checked;
          }
  CHECK(checked >= 48);
}

TEST_CASE("MFMA operand swizzles: the 16-byte chunk swizzle conflicts") {
  // A_s[64, 32] f16 read K-contiguous as ds_read_b64 by 32x32x8 tiles:
  // rows of 64 bytes, 16 rows per cycle, and the chunk swizzle leaves the
  // 8-byte half of a chunk in place: two rows per bank group.
  Layout chunk = *makeRowSwizzledLayout({64, 32}, 16);
  auto chunkBytes = [&](int64_t row, int64_t col) {
    return (*chunk.apply({row, col}))[0] * 2;
  };
  CHECK(worstReadDegree(32, 4, true, true, 2, 64, 32, chunkBytes) == 2);
  MfmaOperandReads r;
  r.tile = 32;
  r.perStep = 4;
  r.vector = true;
  XorSwizzle s = chooseMfmaSwizzle(r, 64, 32);
  CHECK(s.vec == 4);
  CHECK(s.maxPhase > 1);
}
