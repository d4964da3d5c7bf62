//===- ConversionTest.cpp - f16/bf16/fp8 rounding of the CPU target -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Hand-computed expectations for the conversions in tlc_device/cpu.h that
// the CPU target uses wherever the GPU stores a small float: round to
// nearest even, subnormals, overflow (f16/bf16 to infinity, fp8 saturating)
// and NaN. check_conversions.py compares many more values with NumPy.
//
//===----------------------------------------------------------------------===//

#include "tlc_device/cpu.h"

#include <doctest/doctest.h>

#include <cmath>
#include <ios>
#include <limits>

using namespace tlc::cpu;

namespace {

const float inf = std::numeric_limits<float>::infinity();
const float qnan = std::numeric_limits<float>::quiet_NaN();

/// One conversion: \p encode(x) must give \p bits, and (for non-NaN
/// values) decoding \p bits must give \p decoded.
template <typename Bits>
void check(Bits (*encode)(float), float (*decode)(Bits), float x, unsigned bits,
           float decoded) {
  CAPTURE(x);
  CHECK(unsigned(encode(x)) == bits);
  if (std::isnan(decoded))
    CHECK(std::isnan(decode(Bits(bits))));
  else
    CHECK(decode(Bits(bits)) == decoded);
}

void checkF16(float x, unsigned bits, float v) {
  check<uint16_t>(floatToHalfBits, halfBitsToFloat, x, bits, v);
}
void checkBF16(float x, unsigned bits, float v) {
  check<uint16_t>(floatToBFloat16Bits, bfloat16BitsToFloat, x, bits, v);
}
void checkE4M3(float x, unsigned bits, float v) {
  check<uint8_t>(floatToE4M3Bits, e4m3BitsToFloat, x, bits, v);
}
void checkE5M2(float x, unsigned bits, float v) {
  check<uint8_t>(floatToE5M2Bits, e5m2BitsToFloat, x, bits, v);
}

} // namespace

TEST_CASE("float16: round to nearest even, subnormals, overflow") {
  checkF16(1.0f, 0x3C00, 1.0f);
  checkF16(-2.0f, 0xC000, -2.0f);
  checkF16(0.0f, 0x0000, 0.0f);
  checkF16(-0.0f, 0x8000, -0.0f);
  checkF16(0.1f, 0x2E66, 0.0999755859375f);
  checkF16(1.0f + 0x1p-11f, 0x3C00, 1.0f);              // tie -> even
  checkF16(1.0f + 3 * 0x1p-11f, 0x3C02, 1.0f + 0x1p-9f); // tie -> even (up)
  checkF16(1.0f + 0x1p-11f + 0x1p-20f, 0x3C01, 1.0f + 0x1p-10f);
  checkF16(65504.0f, 0x7BFF, 65504.0f);
  checkF16(65519.0f, 0x7BFF, 65504.0f);
  checkF16(65520.0f, 0x7C00, inf); // halfway to 2^16 rounds to infinity
  checkF16(1e9f, 0x7C00, inf);
  checkF16(-inf, 0xFC00, -inf);
  checkF16(qnan, 0x7E00, qnan);
  checkF16(0x1p-14f, 0x0400, 0x1p-14f);         // smallest normal
  checkF16(0x1p-24f, 0x0001, 0x1p-24f);         // smallest subnormal
  checkF16(0x1p-25f, 0x0000, 0.0f);             // tie -> even zero
  checkF16(1.5f * 0x1p-25f, 0x0001, 0x1p-24f);
  checkF16(3 * 0x1p-25f, 0x0002, 0x1p-23f);     // 1.5 quanta: tie -> 2
  checkF16(0x1p-14f - 0x1p-25f, 0x0400, 0x1p-14f); // rounds up into the normals
  checkF16(1e-10f, 0x0000, 0.0f);
}

TEST_CASE("bfloat16: round to nearest even, overflow, NaN") {
  checkBF16(1.0f, 0x3F80, 1.0f);
  checkBF16(0.1f, 0x3DCD, 0.10009765625f);
  checkBF16(1.0f + 0x1p-8f, 0x3F80, 1.0f);           // tie -> even
  checkBF16(1.0f + 3 * 0x1p-8f, 0x3F82, 1.0f + 0x1p-6f);
  checkBF16(-3.0f, 0xC040, -3.0f);
  checkBF16(std::numeric_limits<float>::max(), 0x7F80, inf);
  checkBF16(inf, 0x7F80, inf);
  checkBF16(qnan, 0x7FC0, qnan);
  checkBF16(0x1p-133f, 0x0001, 0x1p-133f); // float subnormal kept
}

TEST_CASE("float8_e4m3fn: satfinite, subnormals, NaN") {
  checkE4M3(1.0f, 0x38, 1.0f);
  checkE4M3(-1.0f, 0xB8, -1.0f);
  checkE4M3(1.0625f, 0x38, 1.0f);  // tie between 1 and 1.125 -> even
  checkE4M3(1.1875f, 0x3A, 1.25f); // tie between 1.125 and 1.25 -> even
  checkE4M3(448.0f, 0x7E, 448.0f);
  checkE4M3(464.0f, 0x7E, 448.0f); // would round to 480: saturates
  checkE4M3(1e6f, 0x7E, 448.0f);
  checkE4M3(-inf, 0xFE, -448.0f);
  checkE4M3(qnan, 0x7F, qnan);
  checkE4M3(0x1p-6f, 0x08, 0x1p-6f);  // smallest normal
  checkE4M3(0x1p-9f, 0x01, 0x1p-9f);  // smallest subnormal
  checkE4M3(0x1p-10f, 0x00, 0.0f);    // tie -> even zero
  checkE4M3(3 * 0x1p-10f, 0x02, 0x1p-8f);
  checkE4M3(0.3f, 0x2A, 0.3125f);
}

TEST_CASE("float8_e5m2: satfinite, subnormals, NaN") {
  checkE5M2(1.0f, 0x3C, 1.0f);
  checkE5M2(1.125f, 0x3C, 1.0f);  // tie -> even
  checkE5M2(1.375f, 0x3E, 1.5f);  // tie -> even
  checkE5M2(57344.0f, 0x7B, 57344.0f);
  checkE5M2(1e6f, 0x7B, 57344.0f);
  checkE5M2(inf, 0x7B, 57344.0f);
  checkE5M2(qnan, 0x7F, qnan);
  checkE5M2(0x1p-16f, 0x01, 0x1p-16f);
  checkE5M2(0x1p-17f, 0x00, 0.0f);
  checkE5M2(-0.3f, 0xB5, -0.3125f);
}

TEST_CASE("float8 e4m3fn/e5m2: bit-level conversions equal frexp rounding") {
  // floatToE4M3Bits/floatToE5M2Bits work on the float's bits (selects, so
  // they vectorise); floatToMiniFloatBits rounds the value in double with
  // frexp/nearbyint. Every 4099th float bit pattern (all exponents and
  // signs, NaNs and infinities) and every float within 64 ulps of each fp8
  // value and midpoint must agree; decoding every byte must give the value
  // ldexp gives.
  auto agree = [](float x) {
    CAPTURE(x);
    CHECK(unsigned(floatToE4M3Bits(x)) ==
          unsigned(floatToMiniFloatBits(x, 3, 7, 448.0, 0x7F)));
    CHECK(unsigned(floatToE5M2Bits(x)) ==
          unsigned(floatToMiniFloatBits(x, 2, 15, 57344.0, 0x7F)));
  };
  for (uint64_t b = 0; b <= 0xFFFFFFFFull; b += 4099)
    agree(bitsFloat(uint32_t(b)));
  for (unsigned byte = 0; byte < 256; ++byte) {
    for (float v : {e4m3BitsToFloat(uint8_t(byte)),
                    e5m2BitsToFloat(uint8_t(byte))}) {
      if (std::isnan(v))
        continue;
      uint32_t vb = floatBits(v);
      for (int d = -64; d <= 64; ++d)
        agree(bitsFloat(vb + uint32_t(d)));
    }
    unsigned e = (byte >> 3) & 0xF, m = byte & 7;
    float want = (e == 0xF && m == 7) ? qnan
                 : e == 0             ? std::ldexp(float(m), -9)
                                      : std::ldexp(float(8 + m), int(e) - 10);
    if (byte & 0x80)
      want = -want;
    float got = e4m3BitsToFloat(uint8_t(byte));
    CAPTURE(byte);
    if (std::isnan(want))
      CHECK(std::isnan(got));
    else
      CHECK(floatBits(got) == floatBits(want));
  }
  // Midpoints between neighbouring e4m3 values (ties to even).
  for (unsigned byte = 0; byte < 0x7E; ++byte) {
    double lo = e4m3BitsToFloat(uint8_t(byte)),
           hi = e4m3BitsToFloat(uint8_t(byte + 1));
    float mid = float((lo + hi) / 2);
    for (int d = -2; d <= 2; ++d)
      agree(bitsFloat(floatBits(mid) + uint32_t(d)));
  }
}

namespace {

/// binary16 bits of \p x by frexp and rounding in double (an oracle written
/// independently of floatToHalfBits's bit manipulation): round to nearest
/// even at the half's precision (11 significant bits, fewer for
/// subnormals), infinity from 65520 on, NaN as 0x7E00.
unsigned halfBitsByFrexp(float x) {
  unsigned sign = std::signbit(x) ? 0x8000u : 0u;
  if (std::isnan(x))
    return sign | 0x7E00u;
  double a = std::fabs(double(x));
  if (a >= 65520.0)
    return sign | 0x7C00u;
  if (a == 0.0)
    return sign;
  int e;
  std::frexp(a, &e); // a = f * 2^e, 0.5 <= f < 1
  // The unit of the last place: 2^(e - 11) for normals, 2^-24 below 2^-14.
  int ulp = std::max(e - 11, -24);
  double q = std::nearbyint(std::ldexp(a, -ulp)); // round to nearest even
  double v = std::ldexp(q, ulp);
  if (v == 0.0)
    return sign;
  int ve;
  std::frexp(v, &ve);
  if (ve - 1 < -14) // subnormal: v / 2^-24
    return sign | unsigned(std::ldexp(v, 24));
  unsigned m = unsigned(std::ldexp(v, 11 - ve)) - 1024u; // 10 fraction bits
  return sign | unsigned(ve - 1 + 15) << 10 | m;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/// Mismatches of floatToHalfBits against the F16C instruction vcvtps2ph
/// (round to nearest even) over all 2^32 float bit patterns; NaN compares
/// as 0x7E00 with the sign (vcvtps2ph keeps the payload). -1: no F16C.
__attribute__((target("avx2,f16c"))) long long
halfMismatchesF16C(uint32_t &first) {
  if (!__builtin_cpu_supports("f16c") || !__builtin_cpu_supports("avx2"))
    return -1;
  constexpr int kChunk = 4096;
  alignas(32) float xs[kChunk];
  alignas(32) uint16_t hw[kChunk], sw[kChunk];
  long long bad = 0;
  for (uint64_t base = 0; base < (uint64_t(1) << 32); base += kChunk) {
    for (int i = 0; i < kChunk; ++i)
      xs[i] = bitsFloat(uint32_t(base + i));
    for (int i = 0; i < kChunk; i += 8)
      _mm_store_si128(reinterpret_cast<__m128i *>(hw + i),
                      _mm256_cvtps_ph(_mm256_load_ps(xs + i), 0));
    for (int i = 0; i < kChunk; ++i)
      sw[i] = floatToHalfBits(xs[i]);
    for (int i = 0; i < kChunk; ++i) {
      unsigned h = hw[i];
      if (std::isnan(xs[i]))
        h = (h & 0x8000u) | 0x7E00u;
      if (sw[i] != h && bad++ == 0)
        first = uint32_t(base + i);
    }
  }
  return bad;
}
#endif

} // namespace

TEST_CASE("float16: the branch-free rounding equals frexp rounding and F16C") {
  // Every 61st bit pattern (all exponents, all signs) against frexp.
  long long checked = 0, bad = 0;
  for (uint64_t b = 0; b < (uint64_t(1) << 32); b += 61, ++checked) {
    float x = bitsFloat(uint32_t(b));
    if (unsigned(floatToHalfBits(x)) != halfBitsByFrexp(x) && bad++ < 5)
      FAIL_CHECK("bits 0x" << std::hex << b << ": " << floatToHalfBits(x)
                           << " != " << halfBitsByFrexp(x));
  }
  CHECK(bad == 0);
  CHECK(checked > 70000000);
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  uint32_t first = 0;
  long long hwBad = halfMismatchesF16C(first);
  if (hwBad >= 0) {
    CAPTURE(first);
    CHECK(hwBad == 0);
  }
#endif
}

TEST_CASE("cast: float to integer saturates, NaN gives zero") {
  CHECK(cast<int8_t>(300.0f) == 127);
  CHECK(cast<int8_t>(-300.0f) == -128);
  CHECK(cast<int32_t>(qnan) == 0);
  CHECK(cast<int32_t>(-2.7f) == -2);
  CHECK(cast<uint8_t>(-1.0f) == 0);
  CHECK(float(cast<f16>(cast<bf16>(1.0f + 0x1p-8f))) == 1.0f);
}

TEST_CASE("integer helpers follow Python") {
  CHECK(floorDiv<int64_t>(-7, 2) == -4);
  CHECK(floorDiv<int64_t>(7, -2) == -4);
  CHECK(floorMod<int64_t>(-7, 3) == 2);
  CHECK(floorMod<int64_t>(7, -3) == -2);
  CHECK(ceilDiv<int64_t>(7, 2) == 4);
  CHECK(ceilDiv<int64_t>(-7, 2) == -3);
  CHECK(ceilDiv<int64_t>(100, 128) == 1);
}
