//===- SharedLayoutsTest.cpp - Swizzle and padding layouts ----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The oracle for the XOR swizzles is the hardware's byte-level definition
// (CuTe `Swizzle<B, 4, 3>`, the TMA / WGMMA swizzle modes) applied to the
// row-major byte offset inside a column panel: bits [7, 7 + B) of the byte
// offset are XORed into bits [4, 4 + B). The library builds the same map
// from element-level floordiv/mod/xor formulas.
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/SharedLayouts.h"
#include "tlc/Layout/WgmmaLayouts.h"

#include <limits>
#include <vector>

#include <doctest/doctest.h>

using namespace tlc::layout;

namespace {
/// Element offset of (row, col) in a [rows, cont] tile of elemBytes-wide
/// elements under a `Swizzle<B,4,3>` of swizzleBytes-wide panels.
int64_t cuteSwizzleOffset(int64_t row, int64_t col, int64_t rows,
                          int64_t elemBytes, int64_t swizzleBytes, int bBits) {
  int64_t panelWidth = swizzleBytes / elemBytes;
  int64_t panel = col / panelWidth;
  int64_t byte = row * swizzleBytes + (col % panelWidth) * elemBytes;
  int64_t mask = ((int64_t(1) << bBits) - 1) << 7;
  int64_t swizzled = byte ^ ((byte & mask) >> 3);
  return panel * rows * panelWidth + swizzled / elemBytes;
}

void checkOffset(const Layout &layout, std::vector<int64_t> coord,
                 int64_t expected) {
  std::optional<std::vector<int64_t>> out = layout.apply(coord);
  REQUIRE(out);
  REQUIRE(out->size() == 1);
  CHECK((*out)[0] == expected);
}
} // namespace

TEST_CASE("swizzles: hand-computed addresses") {
  // B_shared[32, 128] f16, 128B: row 1 chunk 0 moves to chunk 1.
  Layout b = *makeSwizzledLayout({32, 128}, 16, SwizzleMode::B128);
  checkOffset(b, {0, 0}, 0);
  checkOffset(b, {0, 9}, 9);
  checkOffset(b, {1, 0}, 72);
  checkOffset(b, {1, 8}, 64);
  checkOffset(b, {7, 0}, 7 * 64 + 56);
  // Row 9 is in the second 8-row atom (+512), column 70 in the second
  // 64-column panel (+32 * 64).
  checkOffset(b, {9, 70}, 2048 + 512 + 72 + 6);
  CHECK(b.getOutputShape() == std::vector<int64_t>{4096});
  // A_shared[128, 32] f16, 64B: byte 3*64 + 17*2 = 226, bit 7 set -> ^16.
  Layout a = *makeSwizzledLayout({128, 32}, 16, SwizzleMode::B64);
  checkOffset(a, {3, 17}, 121);
  checkOffset(a, {0, 17}, 17);
  // 32B with f32: 8 elements per row, rows 4..7 swap their two chunks.
  Layout q = *makeSwizzledLayout({8, 8}, 32, SwizzleMode::B32);
  checkOffset(q, {3, 0}, 24);
  checkOffset(q, {4, 0}, 36);
  checkOffset(q, {4, 5}, 33);
}

TEST_CASE("swizzles: match the byte-level hardware definition") {
  int checked = 0;
  for (unsigned bits : {8u, 16u, 32u, 64u})
    for (int64_t rows : {8, 16, 24, 64, 128})
      for (int64_t cont : {8, 16, 32, 64, 128, 256})
        for (SwizzleMode mode :
             {SwizzleMode::B32, SwizzleMode::B64, SwizzleMode::B128}) {
          llvm::Expected<Layout> l = makeSwizzledLayout({rows, cont}, bits,
                                                        mode);
          if (!canSwizzle(mode, rows, cont, bits)) {
            CHECK(!l);
            llvm::consumeError(l.takeError());
            continue;
          }
          REQUIRE(l);
          INFO(rows << "x" << cont << " " << bits << "-bit "
                    << stringifyLayoutKind(layoutKindOf(mode)).str());
          CHECK(l->isBijective());
          int bBits = cuteSwizzleBytes(mode)[0];
          for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cont; ++c)
              REQUIRE((*l->apply({r, c}))[0] ==
                      cuteSwizzleOffset(r, c, rows, bits / 8,
                                        swizzleBytes(mode), bBits));
          CHECK(detectSwizzleMode(*l) == mode);
          ++checked;
        }
  CHECK(checked > 100);
}

TEST_CASE("property: every shared layout is a bijection on its tile") {
  for (unsigned bits : {8u, 16u, 32u})
    for (int64_t rows : {8, 16, 32, 64})
      for (int64_t cont : {16, 32, 64, 128})
        for (bool kInner : {true, false}) {
          INFO(rows << "x" << cont << " " << bits << "-bit kInner " << kInner);
          Layout sm80 = makeGemmABLayoutSm80({rows, cont}, bits, kInner);
          if (sm80.getKind() == LayoutKind::Padded) {
            CHECK(sm80.isInjective());
            CHECK(sm80.getOutputShape()[0] == rows * (cont + 128 / bits) -
                                                  128 / bits);
          } else {
            CHECK(sm80.isBijective());
          }
          CHECK(makeGemmABLayoutHopper({rows, cont}, bits).isBijective());
          // With pipeline stages in front.
          CHECK(makeGemmABLayoutHopper({2, rows, cont}, bits).isBijective());
          llvm::Expected<Layout> mc =
              makeMatrixCoreSwizzleLayout({rows, cont}, bits);
          if (mc)
            CHECK(mc->isBijective());
          else
            llvm::consumeError(mc.takeError());
        }
}

TEST_CASE("operand layout selection") {
  auto label = [](const Layout &l) { return l.shortLabel(); };
  CHECK(label(makeGemmABLayoutSm80({128, 32}, 16, true)) == "swizzle 64B");
  CHECK(label(makeGemmABLayoutSm80({32, 128}, 16, false)) == "swizzle 128B");
  CHECK(label(makeGemmABLayoutSm80({64, 16}, 16, true)) == "swizzle 32B");
  CHECK(label(makeGemmABLayoutSm80({64, 8}, 16, true)) == "linear");
  CHECK(label(makeGemmABLayoutSm80({12, 64}, 16, true)) == "padded +8");
  CHECK(label(makeGemmABLayoutSm80({64, 128}, 8, false)) == "padded +16");
  CHECK(label(makeGemmABLayoutSm80({64, 128}, 8, true)) == "swizzle 128B");
  CHECK(label(makeGemmABLayoutHopper({12, 64}, 16)) == "linear");
  CHECK(label(makeGemmABLayoutHopper({64, 64}, 16)) == "swizzle 128B");
  // An N-major B whose instructions start every 224 (or 96) columns: the
  // widest atom row dividing the step, 32 f16 (64 bytes); every 16 columns:
  // 32 bytes; every 192: 128 bytes.
  CHECK(label(makeWgmmaOperandLayout({64, 448}, 16, 224)) == "swizzle 64B");
  CHECK(label(makeWgmmaOperandLayout({64, 192}, 16, 96)) == "swizzle 64B");
  CHECK(label(makeWgmmaOperandLayout({64, 448}, 16, 16 * 7)) == "swizzle 32B");
  CHECK(label(makeWgmmaOperandLayout({64, 384}, 16, 192)) == "swizzle 128B");
}

TEST_CASE("wgmma instruction N") {
  CHECK(wgmmaInstructionN(224) == 224);
  CHECK(wgmmaInstructionN(256) == 256);
  CHECK(wgmmaInstructionN(320) == 160);
  CHECK(wgmmaInstructionN(512) == 256);
  CHECK(wgmmaInstructionN(8) == 8);
}

TEST_CASE("matrix-core swizzle follows its formula") {
  // f16, cont 32: vecSize 4, perPhase max(1, 64 / 32) = 2,
  // maxPhase min(16 / 2, 32 / 4) = 8; row 2 has phase 1.
  Layout l = *makeMatrixCoreSwizzleLayout({16, 32}, 16);
  checkOffset(l, {2, 0}, 2 * 32 + 4);
  checkOffset(l, {2, 5}, 2 * 32 + 1);
  checkOffset(l, {3, 9}, 3 * 32 + 13);
  checkOffset(l, {15, 0}, 15 * 32 + 7 * 4);
}

TEST_CASE("merging shared layouts") {
  Layout s128 = *makeSwizzledLayout({32, 128}, 16, SwizzleMode::B128);
  Layout s64 = *makeSwizzledLayout({32, 128}, 16, SwizzleMode::B64);
  Layout pad = *makePaddedLayout({32, 128}, 16, 8);
  CHECK((*mergeSharedLayouts(s128, s64)).shortLabel() == "swizzle 64B");
  CHECK((*mergeSharedLayouts(s64, s128)).shortLabel() == "swizzle 64B");
  CHECK((*mergeSharedLayouts(pad, pad)).shortLabel() == "padded +8");
  llvm::Expected<Layout> bad = mergeSharedLayouts(s128, pad);
  REQUIRE(!bad);
  CHECK(llvm::toString(bad.takeError()) ==
        "conflicting shared layouts: swizzle 128B vs padded +8");
  CHECK(!detectSwizzleMode(pad));
  // A custom layout equal to a swizzle is recognised as that swizzle.
  Layout custom = *Layout::get({32, 128}, s128.getForward().vec());
  custom.setElementBits(16);
  CHECK(detectSwizzleMode(custom) == SwizzleMode::B128);
}

TEST_CASE("shared layouts past 64-bit offsets are errors, not overflow") {
  // (2^62, 64) f16: `rows * width` of a 128-byte panel is 2^68.
  std::vector<int64_t> huge = {int64_t(1) << 62, 64};
  llvm::Expected<Layout> swz = makeSwizzledLayout(huge, 16, SwizzleMode::B128);
  REQUIRE(!swz);
  CHECK(llvm::toString(swz.takeError()) ==
        "a shared layout of [4611686018427387904, 64] has more elements than "
        "64-bit offsets can address");
  llvm::Expected<Layout> pad = makePaddedLayout(huge, 16, 8);
  REQUIRE(!pad);
  llvm::consumeError(pad.takeError());
  llvm::Expected<Layout> row = makeRowSwizzledLayout(huge, 16);
  REQUIRE(!row);
  llvm::consumeError(row.takeError());
  llvm::Expected<Layout> mc = makeMatrixCoreSwizzleLayout(huge, 16, 1);
  REQUIRE(!mc);
  llvm::consumeError(mc.takeError());
  // A padded pitch that itself overflows.
  llvm::Expected<Layout> pitch =
      makePaddedLayout({8, std::numeric_limits<int64_t>::max()}, 8, 8);
  REQUIRE(!pitch);
  llvm::consumeError(pitch.takeError());
}
