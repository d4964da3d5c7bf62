//===- convert.h - 16-bit float conversions (HIP) ---------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// f32 <-> f16 (the _Float16 conversions, round to nearest even), f32 <->
// bf16 (the high 16 bits, rounded to nearest even; NaN stays a quiet NaN)
// and f32 <-> OCP e4m3 / e5m2 and FNUZ e4m3 / e5m2, shared by the device
// and the sim device's host build.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_CONVERT_H
#define TLC_DEVICE_HIP_CONVERT_H

#include "tlc_device/hip/common.h"

namespace tlc {
namespace hip {

TLC_DEVICE half toHalf(float x) { return static_cast<half>(x); }
TLC_DEVICE bfloat16 toBFloat16(float x) {
  uint32_t bits = bitCast<uint32_t>(x);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return bfloat16{uint16_t((bits >> 16) | 0x40u)};
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return bfloat16{uint16_t(bits >> 16)};
}
TLC_DEVICE float toFloat(half x) { return static_cast<float>(x); }
TLC_DEVICE float toFloat(bfloat16 x) {
  return bitCast<float>(uint32_t(x.bits) << 16);
}
TLC_DEVICE float toFloat(float x) { return x; }

/// f32 -> the bits of an OCP fp8 format with \p M mantissa bits and
/// exponent bias \p Bias whose largest finite encoding is \p MaxBits,
/// rounded to nearest even and saturated to it, NaN kept, in integer
/// arithmetic (CDNA3's own fp8 is the FNUZ variant).
template <int M, int Bias, uint32_t MaxBits>
TLC_DEVICE uint8_t toFp8Bits(float x) {
  uint32_t u = bitCast<uint32_t>(x);
  uint8_t sign = uint8_t((u >> 24) & 0x80u);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return uint8_t(sign | 0x7fu);
  int e = int((u >> 23) & 0xffu) - 127;
  uint32_t mant = (u & 0x7fffffu) | (e > -127 ? 0x800000u : 0u);
  // Keep M fraction bits of a normal (e >= 1 - Bias) or multiples of the
  // smallest subnormal 2^(1 - Bias - M).
  bool normal = e >= 1 - Bias;
  int shift = normal ? 23 - M : 23 - (M + Bias - 1) - e;
  uint32_t q = 0;
  if (shift < 32) {
    q = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1u), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1u)))
      ++q;
  }
  uint32_t bits;
  if (normal) {
    if (q == 2u << M) // rounded up to the next binade
      q = 1u << M, ++e;
    bits = e > int(MaxBits >> M) - Bias
               ? MaxBits
               : uint32_t(e + Bias) << M | (q - (1u << M));
  } else {
    bits = q; // 1 << M is the smallest normal
  }
  if (bits > MaxBits)
    bits = MaxBits;
  return uint8_t(sign | bits);
}

/// f32 -> OCP float8_e4m3fn (bias 7, no infinities, NaN 0x7f), rounded to
/// nearest even and saturated to +-448 (like CUDA's __NV_SATFINITE).
TLC_DEVICE uint8_t toFp8E4M3(float x) { return toFp8Bits<3, 7, 0x7eu>(x); }
/// OCP float8_e4m3fn -> f32 (exact).
TLC_DEVICE float fp8E4M3ToFloat(uint8_t x) {
  uint32_t e = (x >> 3) & 0xfu, m = x & 7u;
  float v;
  if ((x & 0x7fu) == 0x7fu)
    v = __builtin_nanf("");
  else if (e == 0)
    v = float(m) * (1.0f / 512.0f);
  else
    v = bitCast<float>((e + 120u) << 23 | m << 20);
  return (x & 0x80u) ? -v : v;
}

/// f32 -> OCP float8_e5m2 (bias 15, 2 mantissa bits), rounded to nearest
/// even and saturated to +-57344 (infinities included), NaN kept.
TLC_DEVICE uint8_t toFp8E5M2(float x) { return toFp8Bits<2, 15, 0x7bu>(x); }
/// OCP float8_e5m2 -> f32 (exact: e5m2 is the top byte of an f16).
TLC_DEVICE float fp8E5M2ToFloat(uint8_t x) {
  return toFloat(bitCast<half>(uint16_t(uint16_t(x) << 8)));
}

/// f32 -> a FNUZ fp8 format (AMD's: exponent bias one more than OCP's, no
/// infinities, no negative zero, 0x80 the one NaN), rounded to nearest even
/// and saturated to the largest finite value (encoding 0x7f); -0 and
/// values rounding to zero give +0 (the CPU target's floatToFnuzBits).
template <int M, int Bias> TLC_DEVICE uint8_t toFnuzBits(float x) {
  if ((bitCast<uint32_t>(x) & 0x7fffffffu) > 0x7f800000u)
    return 0x80u;
  uint8_t b = toFp8Bits<M, Bias, 0x7fu>(x);
  return b == 0x80u ? uint8_t(0) : b;
}

/// FNUZ fp8 bits with \p M mantissa bits and bias \p Bias -> f32 (exact).
template <int M, int Bias> TLC_DEVICE float fnuzBitsToFloat(uint8_t x) {
  if (x == 0x80u)
    return __builtin_nanf("");
  uint32_t e = (x & 0x7fu) >> M, m = x & ((1u << M) - 1u);
  float v = e == 0 ? float(m) * bitCast<float>(uint32_t(128 - Bias - M) << 23)
                   : bitCast<float>((e + 127u - Bias) << 23 | m << (23 - M));
  return (x & 0x80u) ? -v : v;
}

/// f32 <-> float8_e4m3fnuz (bias 8, largest finite 240; CDNA3's fp8).
TLC_DEVICE uint8_t toFp8E4M3Fnuz(float x) { return toFnuzBits<3, 8>(x); }
TLC_DEVICE float fp8E4M3FnuzToFloat(uint8_t x) {
  return fnuzBitsToFloat<3, 8>(x);
}
/// f32 <-> float8_e5m2fnuz (bias 16, largest finite 57344; CDNA3's bf8).
TLC_DEVICE uint8_t toFp8E5M2Fnuz(float x) { return toFnuzBits<2, 16>(x); }
TLC_DEVICE float fp8E5M2FnuzToFloat(uint8_t x) {
  return fnuzBitsToFloat<2, 16>(x);
}

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_CONVERT_H
