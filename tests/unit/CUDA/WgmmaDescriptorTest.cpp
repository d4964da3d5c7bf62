//===- WgmmaDescriptorTest.cpp - wgmma matrix descriptor encoding -----===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The expected values are worked out by hand from the PTX ISA's "Matrix
// Descriptor Format" (start address >> 4 in bits 0-13, leading dimension
// byte offset >> 4 in 16-29, stride dimension byte offset >> 4 in 32-45,
// base offset 49-51, swizzle mode 62-63 with 1 = 128B, 2 = 64B, 3 = 32B)
// and from the swizzle-atom shapes of "Shared Memory Matrix Layout" (an
// atom is 8 rows of the swizzle's bytes; K-major atoms stack along M/N,
// MN-major ones along K), not computed with the code under test.
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/CUDA/WgmmaDescriptor.h"

#include <doctest/doctest.h>

using namespace tlc::target;

static uint64_t encode(uint32_t start, uint32_t lbo, uint32_t sbo,
                       WgmmaSwizzle mode) {
  llvm::Expected<uint64_t> d = encodeWgmmaDescriptor(start, lbo, sbo, mode);
  REQUIRE(static_cast<bool>(d));
  return *d;
}

TEST_CASE("descriptor fields") {
  // 0x400 >> 4 = 0x40; LBO 16 >> 4 = 1 at bit 16; SBO 1024 >> 4 = 0x40 at
  // bit 32; 128B swizzle = 1 at bit 62.
  CHECK(encode(0x400, 16, 1024, WgmmaSwizzle::B128) == 0x4000004000010040ull);
  // 0x12340 >> 4 = 0x1234; 0x2000 >> 4 = 0x200 at bit 16; 512 >> 4 = 0x20
  // at bit 32; 64B swizzle = 2 at bit 62.
  CHECK(encode(0x12340, 0x2000, 512, WgmmaSwizzle::B64) ==
        0x8000002002001234ull);
  // 32B swizzle = 3 at bit 62; SBO 256 >> 4 = 0x10.
  CHECK(encode(0, 16, 256, WgmmaSwizzle::B32) == 0xC000001000010000ull);
  // The largest start address: 0x3FFF0 >> 4 fills bits 0-13.
  CHECK(encode(0x3FFF0, 0, 0, WgmmaSwizzle::None) == 0x3FFFull);
}

TEST_CASE("descriptor fields out of range") {
  llvm::Expected<uint64_t> unaligned =
      encodeWgmmaDescriptor(8, 16, 1024, WgmmaSwizzle::B128);
  CHECK(!unaligned);
  llvm::consumeError(unaligned.takeError());
  llvm::Expected<uint64_t> big =
      encodeWgmmaDescriptor(0, 16, 1u << 18, WgmmaSwizzle::B128);
  CHECK(!big);
  llvm::consumeError(big.takeError());
}

static WgmmaOperandAccess access(WgmmaOperandTile tile, int64_t mn,
                                 int64_t k) {
  llvm::Expected<WgmmaOperandAccess> a = getWgmmaOperandAccess(tile, mn, k);
  REQUIRE(static_cast<bool>(a));
  return *a;
}

TEST_CASE("K-major operand, 128B swizzle") {
  // A [128, 64] f16: one panel of 128 rows x 128 bytes. Rows 64.. start at
  // 64 * 128 bytes; k = 16 is 32 bytes into the row. 8-row atoms are 1024
  // bytes apart (SBO); LBO is unused (1 by convention = 16 bytes).
  WgmmaOperandTile t{128, 64, 2, WgmmaSwizzle::B128, /*kMajor=*/true};
  WgmmaOperandAccess a = access(t, 64, 16);
  CHECK(a.startOffset == 8224);
  CHECK(a.strideByteOffset == 1024);
  CHECK(a.leadingByteOffset == 16);
  // A [64, 128] f16: two panels of 64 x 64; k = 80 is in panel 1
  // (64 * 128 bytes further), 16 elements = 32 bytes into its row.
  WgmmaOperandTile wide{64, 128, 2, WgmmaSwizzle::B128, true};
  CHECK(access(wide, 0, 80).startOffset == 8192 + 32);
}

TEST_CASE("K-major operand, 64B swizzle") {
  // A [128, 32] f16: rows of 64 bytes, 8-row atoms of 512 bytes.
  WgmmaOperandTile t{128, 32, 2, WgmmaSwizzle::B64, true};
  WgmmaOperandAccess a = access(t, 64, 16);
  CHECK(a.startOffset == 64 * 64 + 32);
  CHECK(a.strideByteOffset == 512);
}

TEST_CASE("MN-major operand, 128B swizzle") {
  // B [32, 128] f16 stored [K, N]: two panels of 32 rows x 128 bytes
  // (4096 bytes each). N = 64.. is panel 1 (LBO = 4096 apart); k = 16 is 16
  // rows of 128 bytes down; 8 rows of K are 1024 bytes apart (SBO).
  WgmmaOperandTile t{32, 128, 2, WgmmaSwizzle::B128, /*kMajor=*/false};
  WgmmaOperandAccess a = access(t, 64, 16);
  CHECK(a.startOffset == 4096 + 2048);
  CHECK(a.leadingByteOffset == 4096);
  CHECK(a.strideByteOffset == 1024);
  // N = 32 would start 64 bytes into an atom row: an N-major descriptor
  // reads 64 N elements of each K row from its start, so the instruction
  // would take N = 64..95 from the next K row. Refused (the H100 and the
  // sim device both computed a wrong product from such a start, session 44).
  llvm::Expected<WgmmaOperandAccess> inside = getWgmmaOperandAccess(t, 32, 0);
  CHECK(!inside);
  llvm::consumeError(inside.takeError());
}

TEST_CASE("MN-major operand, 64B swizzle: starts on 32-element rows") {
  // B [64, 448] f16 [K, N] in 64-byte atom rows (32 elements): a warpgroup
  // column starting at N = 224 starts panel 7.
  WgmmaOperandTile t{64, 448, 2, WgmmaSwizzle::B64, /*kMajor=*/false};
  WgmmaOperandAccess a = access(t, 224, 16);
  CHECK(a.startOffset == 7 * 64 * 64 + 16 * 64);
  CHECK(a.leadingByteOffset == 64 * 64);
  CHECK(a.strideByteOffset == 8 * 64);
}

TEST_CASE("8-bit K-major operand") {
  // [128, 128] e4m3: rows of 128 bytes = 128 elements; k = 32 is 32 bytes in.
  WgmmaOperandTile t{128, 128, 1, WgmmaSwizzle::B128, true};
  CHECK(access(t, 0, 32).startOffset == 32);
  CHECK(access(t, 8, 0).startOffset == 1024);
}

TEST_CASE("tiles a descriptor cannot read") {
  for (WgmmaOperandTile bad :
       {WgmmaOperandTile{12, 64, 2, WgmmaSwizzle::B128, true},
        WgmmaOperandTile{64, 96, 2, WgmmaSwizzle::B128, true},
        WgmmaOperandTile{64, 64, 2, WgmmaSwizzle::None, true}}) {
    llvm::Expected<WgmmaOperandAccess> a = getWgmmaOperandAccess(bad, 0, 0);
    CHECK(!a);
    llvm::consumeError(a.takeError());
  }
}
