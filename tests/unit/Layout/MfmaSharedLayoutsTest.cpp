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
  for (int64_t bytes : {2, 1, 4})
    for (int64_t kPack : {1, 2})
      for (int64_t tile : {16, 32})
        for (bool kInner : {true, false})
          for (int64_t cont : {32, 64, 128, 256}) {
            MfmaOperandReads r;
            r.tile = tile;
            r.elementBytes = bytes;
            r.perStep = (bytes == 1 ? 8 : 4) * kPack;
            r.kInner = kInner;
            // A lane's values are one ds_read_b64 / _b128 (the printer's
            // vector reads; f32 with k_pack 2 is 32 bytes: element reads).
            r.vector =
                kInner && (r.perStep * bytes == 8 || r.perStep * bytes == 16);
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
            if (r.vector)
              CHECK(s.vec % r.perStep == 0);
            auto byteOf = [&](int64_t row, int64_t col) {
              return s.offset(row, col, cont) * bytes;
            };
            // f32 with k_pack 2 reads 8 values a lane one dword at a time
            // (32 bytes is no single LDS read); the swizzles
            // chooseMfmaSwizzle tries leave those reads 2-way.
            bool elementF32 = bytes == 4 && kInner && !r.vector;
            CHECK(worstReadDegree(tile, r.perStep, kInner, r.vector, bytes,
                                  rows, cont, byteOf) == (elementF32 ? 2 : 1));
            ++checked;
          }
  CHECK(checked >= 72);
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

TEST_CASE("MFMA operand swizzles: f32 operand tiles conflict row-major") {
  // A_s[64, 32] f32 read K-contiguous as ds_read_b128 by 16x16 tiles (four
  // v_mfma_f32_16x16x4f32 a step): rows of 128 bytes start in bank 0, so
  // the 8 lanes served together read two rows' chunks in the same banks.
  auto rowMajor = [](int64_t row, int64_t col) { return (row * 32 + col) * 4; };
  CHECK(worstReadDegree(16, 4, true, true, 4, 64, 32, rowMajor) > 1);
  MfmaOperandReads r;
  r.tile = 16;
  r.perStep = 4;
  r.vector = true;
  r.elementBytes = 4;
  XorSwizzle s = chooseMfmaSwizzle(r, 64, 32);
  CHECK(s.vec == 4);
  CHECK(s.maxPhase > 1);
  auto swizzled = [&](int64_t row, int64_t col) {
    return s.offset(row, col, 32) * 4;
  };
  CHECK(worstReadDegree(16, 4, true, true, 4, 64, 32, swizzled) == 1);
}

TEST_CASE("MFMA operand swizzles: transposed chunk reads conflict-free") {
  // An MN-contiguous 16- or 8-bit operand read as 8-byte chunks: per step,
  // each row of 16 lanes (one LDS phase for 8-byte reads) covers an n x 16
  // block, n = 8 / bytes k rows from perStep (l / T) + n h and 16 columns
  // from 16 ((l % T) / 16) of the tile; which lane reads which chunk is the
  // instruction's business (gfx950's ds_read_b64_tr_b*, a DPP transpose
  // elsewhere) and leaves the phase's words the same.
  int checked = 0;
  for (int64_t bytes : {2, 1})
    for (int64_t kPack : {1, 2})
      for (int64_t tile : {16, 32})
        for (int64_t cont : {32, 64, 128, 256}) {
          MfmaOperandReads r;
          r.tile = tile;
          r.elementBytes = bytes;
          r.perStep = (bytes == 1 ? 8 : 4) * kPack;
          r.kInner = false;
          r.transposed = true;
          const int64_t n = 8 / bytes, rows = 2 * r.step();
          CAPTURE(bytes);
          CAPTURE(kPack);
          CAPTURE(tile);
          CAPTURE(cont);
          XorSwizzle s = chooseMfmaSwizzle(r, rows, cont);
          CHECK((s.maxPhase == 1 || s.vec % n == 0));
          int64_t worst = 0;
          for (int64_t k0 = 0; k0 < rows; k0 += r.step())
            for (int64_t mn0 = 0; mn0 < cont; mn0 += tile)
              for (int64_t h = 0; h < r.perStep / n; ++h)
                for (int64_t g = 0; g < 4; ++g) {
                  // Row g of 16 lanes: lanes 16 g .. 16 g + 15.
                  int64_t kFirst = k0 + r.perStep * (16 * g / tile) + n * h;
                  int64_t mnFirst = mn0 + 16 * ((16 * g) % tile / 16);
                  std::map<int64_t, std::set<int64_t>> bankWords;
                  for (int64_t kr = 0; kr < n; ++kr)
                    for (int64_t c = 0; c < 16; c += n) {
                      int64_t b =
                          s.offset(kFirst + kr, mnFirst + c, cont) * bytes;
                      // The chunk is whole: its last element follows.
                      CHECK(s.offset(kFirst + kr, mnFirst + c + n - 1, cont) ==
                            s.offset(kFirst + kr, mnFirst + c, cont) + n - 1);
                      for (int64_t w = b / 4; w <= (b + 7) / 4; ++w)
                        bankWords[w % 32].insert(w);
                    }
                  for (auto &[bank, words] : bankWords)
                    worst = std::max<int64_t>(worst, words.size());
                }
          CHECK(worst == 1);
          ++checked;
        }
  CHECK(checked == 32);
}
