//===- Tcgen05DescriptorTest.cpp - tcgen05 descriptor encoding ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The expected values are worked out by hand from the PTX ISA's tables
// "Instruction descriptor format for .kind::tf32, .kind::f16,
// .kind::f8f6f4 and .kind::i8" (D type bits 4-5, A type 7-9, B type
// 10-12, transpose A/B bits 15/16, N >> 3 in 17-22, M >> 4 in 24-28) and
// "Shared memory descriptor layout" (start >> 4 in 0-13, LBO >> 4 in 16-29,
// SBO >> 4 in 32-45, 0b001 in 46-48, swizzle 61-63: 2 = 128B, 4 = 64B,
// 6 = 32B), not computed with the code under test.
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/CUDA/Tcgen05Descriptor.h"

#include <doctest/doctest.h>

#include <optional>

using namespace tlc::target;

static uint32_t instr(Tcgen05Type a, Tcgen05Type b, Tcgen05Type d, int64_t m,
                      int64_t n, bool mnA, bool mnB, int group = 1) {
  Tcgen05Instr i;
  i.a = a;
  i.b = b;
  i.d = d;
  i.m = m;
  i.n = n;
  i.mnMajorA = mnA;
  i.mnMajorB = mnB;
  i.ctaGroup = group;
  llvm::Expected<uint32_t> v = encodeTcgen05InstrDescriptor(i);
  REQUIRE(static_cast<bool>(v));
  return *v;
}

static bool refused(Tcgen05Type a, Tcgen05Type b, Tcgen05Type d, int64_t m,
                    int64_t n, int group = 1) {
  Tcgen05Instr i;
  i.a = a;
  i.b = b;
  i.d = d;
  i.m = m;
  i.n = n;
  i.ctaGroup = group;
  llvm::Expected<uint32_t> v = encodeTcgen05InstrDescriptor(i);
  if (v)
    return false;
  llvm::consumeError(v.takeError());
  return true;
}

TEST_CASE("instruction descriptor, kind::f16") {
  using T = Tcgen05Type;
  // bf16 x bf16 -> f32, M 128, N 256, both K-major: D F32 = 1 << 4 (0x10),
  // A BF16 = 1 << 7 (0x80), B BF16 = 1 << 10 (0x400), N >> 3 = 32 << 17
  // (0x400000), M >> 4 = 8 << 24 (0x8000000).
  CHECK(instr(T::BF16, T::BF16, T::F32, 128, 256, false, false) == 0x08400490u);
  // f16 x f16 -> f16, M 64, N 8, B MN-major: D F16 = 0, A/B F16 = 0,
  // transpose B = 1 << 16, N >> 3 = 1 << 17, M >> 4 = 4 << 24.
  CHECK(instr(T::F16, T::F16, T::F16, 64, 8, false, true) == 0x04030000u);
  // f16 -> f32, M 128, N 128, A MN-major: 0x10 | 1 << 15 | 16 << 17 |
  // 8 << 24.
  CHECK(instr(T::F16, T::F16, T::F32, 128, 128, true, false) == 0x08208010u);
}

TEST_CASE("instruction descriptor, other kinds") {
  using T = Tcgen05Type;
  // tf32 -> f32, M 128, N 64: A/B TF32 = 2 (2 << 7 = 0x100, 2 << 10 =
  // 0x800), N >> 3 = 8 << 17 = 0x100000.
  CHECK(instr(T::TF32, T::TF32, T::F32, 128, 64, false, false) == 0x08100910u);
  // e4m3 x e5m2 -> f32, M 128, N 16: A E4M3 = 0, B E5M2 = 1 << 10, N >> 3
  // = 2 << 17.
  CHECK(instr(T::E4M3, T::E5M2, T::F32, 128, 16, false, false) == 0x08040410u);
  // s8 x s8 -> s32, M 64, N 32: D S32 = 2 << 4, A/B S8 = 1 (0x80, 0x400),
  // N >> 3 = 4 << 17, M >> 4 = 4 << 24.
  CHECK(instr(T::S8, T::S8, T::S32, 64, 32, false, false) == 0x040804A0u);
  // cta_group::2, M 256, N 256, bf16 -> f32: M >> 4 = 16 << 24.
  CHECK(instr(T::BF16, T::BF16, T::F32, 256, 256, false, false, 2) ==
        0x10400490u);
}

TEST_CASE("instruction descriptor, shapes and types it refuses") {
  using T = Tcgen05Type;
  CHECK(refused(T::BF16, T::BF16, T::F32, 128, 8));     // N % 16 at M 128
  CHECK(refused(T::BF16, T::BF16, T::F32, 128, 272));   // N > 256
  CHECK(refused(T::BF16, T::BF16, T::F32, 256, 64));    // M 256 is 2-CTA
  CHECK(refused(T::BF16, T::BF16, T::F32, 128, 48, 2)); // N % 32, 2-CTA M 128
  CHECK(refused(T::BF16, T::F16, T::F32, 128, 64));  // mixed A and B (kind ok)
  CHECK(refused(T::BF16, T::E4M3, T::F32, 128, 64)); // different kinds
  CHECK(refused(T::TF32, T::TF32, T::F16, 128, 64)); // tf32 accumulates f32
  CHECK(refused(T::F32, T::F32, T::F32, 128, 64));   // no 32-bit operands
  CHECK(refused(T::S8, T::S8, T::F32, 128, 64));     // i8 accumulates s32
}

TEST_CASE("instruction descriptor, kind::f8f6f4 with e2m1") {
  using T = Tcgen05Type;
  // e2m1 x e2m1 -> f32, M 128, N 64, K-major: D F32 = 0x10, A E2M1 =
  // 5 << 7 = 0x280, B E2M1 = 5 << 10 = 0x1400, N >> 3 = 8 << 17 =
  // 0x100000, M >> 4 = 8 << 24.
  CHECK(instr(T::E2M1, T::E2M1, T::F32, 128, 64, false, false) == 0x08101690u);
}

TEST_CASE("instruction descriptor, block-scaled kind::mxf8f6f4") {
  using T = Tcgen05Type;
  auto blockScaled = [](T a, T b, int64_t m, int64_t n, bool mnA, bool mnB,
                        int ctaGroup = 1) -> std::optional<uint32_t> {
    Tcgen05Instr i;
    i.ctaGroup = ctaGroup;
    i.a = a;
    i.b = b;
    i.m = m;
    i.n = n;
    i.mnMajorA = mnA;
    i.mnMajorB = mnB;
    llvm::Expected<uint32_t> v = encodeTcgen05BlockScaledInstrDescriptor(i);
    if (!v) {
      llvm::consumeError(v.takeError());
      return std::nullopt;
    }
    return *v;
  };
  // The block-scaled table: no D type field (bits 4-5 are B's scale factor
  // id, 0 here); e4m3 x e4m3, M 128, N 256, B MN-major: transpose B 1 << 16
  // = 0x10000, N >> 3 = 32 << 17 = 0x400000, UE8M0 1 << 23 = 0x800000,
  // M >> 4 = 8 << 24 = 0x8000000.
  CHECK(blockScaled(T::E4M3, T::E4M3, 128, 256, false, true) == 0x08C10000u);
  // e5m2 x e4m3, M 128, N 128, both K-major: A E5M2 = 1 << 7 = 0x80, N >> 3
  // = 16 << 17 = 0x200000.
  CHECK(blockScaled(T::E5M2, T::E4M3, 128, 128, false, false) == 0x08A00080u);
  CHECK_FALSE(blockScaled(T::E2M1, T::E2M1, 128, 128, false, false));
  CHECK_FALSE(blockScaled(T::BF16, T::BF16, 128, 128, false, false));
  CHECK_FALSE(blockScaled(T::E4M3, T::E4M3, 64, 128, false, false));
  CHECK_FALSE(blockScaled(T::E4M3, T::E4M3, 128, 264, false, false));
  // The CTA pair (cta_group::2): M = 256 (128 rows a CTA) is M >> 4 = 16
  // << 24 = 0x10000000; e4m3 x e4m3, N 256, B MN-major: 0x10000 | 0x400000
  // | 0x800000 | 0x10000000 = 0x10C10000. M = 128 is cta_group::1's.
  CHECK(blockScaled(T::E4M3, T::E4M3, 256, 256, false, true, 2) == 0x10C10000u);
  CHECK_FALSE(blockScaled(T::E4M3, T::E4M3, 128, 256, false, true, 2));
  CHECK_FALSE(blockScaled(T::E4M3, T::E4M3, 256, 256, false, true, 1));
}

TEST_CASE("shared memory descriptor") {
  auto encode = [](uint32_t start, uint32_t lbo, uint32_t sbo,
                   WgmmaSwizzle mode) {
    llvm::Expected<uint64_t> d =
        encodeTcgen05SmemDescriptor(start, lbo, sbo, mode);
    REQUIRE(static_cast<bool>(d));
    return *d;
  };
  // 0x400 >> 4 = 0x40; LBO 16 >> 4 = 1 at bit 16; SBO 1024 >> 4 = 0x40 at
  // bit 32; 0b001 at bit 46 (0x4000 << 32); 128B = 2 at bit 61 (1 << 62).
  CHECK(encode(0x400, 16, 1024, WgmmaSwizzle::B128) == 0x4000404000010040ull);
  // 64B = 4 at bit 61 (1 << 63); 0x12340 >> 4 = 0x1234; LBO 0x2000 >> 4 =
  // 0x200 at bit 16; SBO 512 >> 4 = 0x20.
  CHECK(encode(0x12340, 0x2000, 512, WgmmaSwizzle::B64) ==
        0x8000402002001234ull);
  // 32B = 6 at bit 61 (3 << 62); SBO 256 >> 4 = 0x10.
  CHECK(encode(0, 16, 256, WgmmaSwizzle::B32) == 0xC000401000010000ull);
  // No swizzle: only the version bit above the offsets. LBO 128 >> 4 = 8.
  CHECK(encode(0x80, 128, 256, WgmmaSwizzle::None) == 0x0000401000080008ull);
  llvm::Expected<uint64_t> bad =
      encodeTcgen05SmemDescriptor(8, 16, 1024, WgmmaSwizzle::B128);
  CHECK(!bad);
  llvm::consumeError(bad.takeError());
}
