//===- cpu/types.h - Element types of CPU kernels ---------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Storage types of the small float formats (f16, bf16, fp8 e4m3fn/e5m2 and
/// their fnuz variants, e8m0, fp4 e2m1) with round-to-nearest-even
/// conversions from float as the GPU stores them (fp8 saturating to the
/// largest finite value, like CUDA's `satfinite` conversion), int4 / uint4,
/// references to packed sub-byte elements, the element conversion `cast`,
/// and `printValue` (T.print of one value).
///
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CPU_TYPES_H
#define TLC_DEVICE_CPU_TYPES_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <type_traits>

#include "tlc_device/fp4.h"

namespace tlc {
namespace cpu {

//===----------------------------------------------------------------------===//
// Small float formats
//===----------------------------------------------------------------------===//

/// The bits of float \p x.
inline uint32_t floatBits(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}

/// The float with bits \p b.
inline float bitsFloat(uint32_t b) {
  float x;
  std::memcpy(&x, &b, 4);
  return x;
}

/// IEEE binary16 bits of \p x, round to nearest even; overflow gives
/// infinity, NaN becomes the quiet NaN 0x7E00 (with the sign). Selects
/// only (no branches, no variable shifts), so that loops storing f16
/// vectorise: every candidate is computed and the magnitude picks one. A
/// normal half rounds the mantissa in place (adding half a unit minus one
/// plus the kept lowest bit; a carry moves into the exponent, up to
/// infinity at 65520) and rebiases the exponent (127 -> 15). Below 2^-14
/// (a subnormal half or zero), |x| + 0.5f is |x| rounded to a multiple of
/// 2^-24, the spacing of floats in [0.5, 1), by the host's float addition
/// (round to nearest even), whose low mantissa bits are then the half's
/// (0x400, the smallest normal, when it rounds up into the normals).
inline uint16_t floatToHalfBits(float x) {
  uint32_t bits = floatBits(x);
  uint32_t sign = (bits >> 16) & 0x8000u;
  uint32_t ax = bits & 0x7FFFFFFFu;
  uint32_t normal = (ax + 0xFFFu + ((ax >> 13) & 1u) - 0x38000000u) >> 13;
  uint32_t subnormal = floatBits(bitsFloat(ax) + 0.5f) - 0x3F000000u;
  uint32_t r = ax < 0x38800000u ? subnormal : normal;
  r = ax >= 0x477FF000u ? 0x7C00u : r; // >= 65520 and infinity
  r = ax > 0x7F800000u ? 0x7E00u : r;  // NaN
  return uint16_t(sign | r);
}

/// The float value of binary16 bits \p h (exact). Branch-free (selects
/// only), so that loops converting f16 vectorise: a normal or infinite/NaN
/// half moves its exponent and mantissa into place and rebiases (15 -> 127,
/// twice for the all-ones exponent); a subnormal one is m * 2^-24, which
/// int -> float conversion computes exactly.
inline float halfBitsToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t e = h & 0x7C00u;
  uint32_t m = h & 0x3FFu;
  uint32_t normal = (uint32_t(h & 0x7FFFu) << 13) + (112u << 23);
  normal += e == 0x7C00u ? (112u << 23) : 0u;
  uint32_t subnormal = floatBits(float(int32_t(m)) * 0x1p-24f);
  return bitsFloat(sign | (e == 0 ? subnormal : normal));
}

/// bfloat16 bits of \p x, round to nearest even; NaN stays a quiet NaN.
inline uint16_t floatToBFloat16Bits(float x) {
  uint32_t bits = floatBits(x);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u)
    return uint16_t((bits >> 16) | 0x40u);
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return uint16_t(bits >> 16);
}

/// The float value of bfloat16 bits \p b (exact).
inline float bfloat16BitsToFloat(uint16_t b) { return bitsFloat(uint32_t(b) << 16); }

/// Rounds \p x to a float format with \p manBits mantissa bits, exponent
/// bias \p bias and largest finite value \p maxFinite (subnormals
/// included), round to nearest even, saturating to +-maxFinite; returns the
/// sign, biased exponent and mantissa fields packed as s|e|m. \p nanBits is
/// returned (with the sign) for NaN.
inline uint8_t floatToMiniFloatBits(float x, int manBits, int bias,
                                    double maxFinite, uint8_t nanBits) {
  unsigned signBit = 1u << 7;
  uint8_t sign = std::signbit(x) ? uint8_t(signBit) : uint8_t(0);
  if (std::isnan(x))
    return uint8_t(sign | nanBits);
  double a = std::fabs(double(x));
  if (a > maxFinite) // infinities included: satfinite
    a = maxFinite;
  if (a == 0)
    return sign;
  int exp2;
  std::frexp(a, &exp2); // a = f * 2^exp2, f in [0.5, 1)
  int e = std::max(exp2 - 1, 1 - bias);
  double quantum = std::ldexp(1.0, e - manBits);
  double q = std::nearbyint(a / quantum) * quantum; // ties to even
  if (q > maxFinite)
    q = maxFinite;
  if (q == 0)
    return sign;
  std::frexp(q, &exp2);
  int qe = exp2 - 1;
  if (qe < 1 - bias) { // subnormal
    auto mant = unsigned(std::ldexp(q, bias - 1 + manBits));
    return uint8_t(sign | mant);
  }
  auto mant = unsigned(std::ldexp(q, manBits - qe)) - (1u << manBits);
  return uint8_t(sign | (unsigned(qe + bias) << manBits) | mant);
}

/// The bits of an OCP float8 format with \p ManBits mantissa bits and
/// exponent bias \p Bias (e4m3fn, e5m2) for \p x: round to nearest even,
/// saturating to the largest finite value \p MaxBits (infinities too), NaN
/// 0x7F with the sign. The same results as floatToMiniFloatBits, computed
/// on the float's bits with selects only (no libm calls), so that loops
/// converting to fp8 vectorise: a normal result rounds the mantissa in
/// place (adding half a unit minus one plus the kept lowest bit) and moves
/// the exponent to the format's bias; a subnormal one is the float
/// a * 2^(Bias - 1 + ManBits) rounded to an integer by adding and
/// subtracting 2^23 (exact below 2^22, round to nearest even), whose
/// largest value 2^ManBits is the bits of the smallest normal.
template <int ManBits, int Bias, uint32_t MaxBits>
inline uint8_t floatToOcpFloat8Bits(float x) {
  uint32_t bits = floatBits(x);
  uint32_t sign = (bits >> 24) & 0x80u;
  uint32_t ax = bits & 0x7FFFFFFFu;
  constexpr int drop = 23 - ManBits;
  // |x| as the format's magnitude bits when it is normal there.
  uint32_t rounded = ax + ((1u << (drop - 1)) - 1) + ((ax >> drop) & 1u);
  uint32_t normal = (rounded >> drop) - (uint32_t(127 - Bias) << ManBits);
  // The largest finite value, as a float, and the smallest normal one.
  constexpr float maxFinite =
      float((1u << ManBits) | (MaxBits & ((1u << ManBits) - 1))) /
      float(1u << ManBits) * float(1ull << ((MaxBits >> ManBits) - Bias));
  constexpr uint32_t minNormalBits = uint32_t(127 + 1 - Bias) << 23;
  float a = bitsFloat(ax);
  // Only a magnitude below the smallest normal takes the subnormal path;
  // any other is 0 there (a large float or an infinity converted to an
  // integer would be undefined behaviour).
  float small = ax < minNormalBits ? a : 0.0f;
  float scaled = small * float(1ull << (Bias - 1 + ManBits));
  uint32_t subnormal = uint32_t((scaled + 0x1p23f) - 0x1p23f);
  uint32_t mag = ax < minNormalBits ? subnormal : normal;
  mag = a > maxFinite ? MaxBits : mag;
  mag = ax > 0x7F800000u ? 0x7Fu : mag;
  return uint8_t(sign | mag);
}

/// float8_e4m3fn bits of \p x (round to nearest even, satfinite; NaN 0x7F).
inline uint8_t floatToE4M3Bits(float x) {
  return floatToOcpFloat8Bits<3, 7, 0x7Eu>(x);
}

/// The value of float8_e4m3fn bits \p b. Selects only (vectorises): a
/// normal value moves its fields into a float (exponent rebiased 7 -> 127),
/// a subnormal one is m * 2^-9, exactly; 0x7F/0xFF are NaN.
inline float e4m3BitsToFloat(uint8_t b) {
  uint32_t sign = uint32_t(b & 0x80u) << 24;
  uint32_t e = (b >> 3) & 0xFu, m = b & 0x7u;
  uint32_t normal = (uint32_t(b & 0x7Fu) << 20) + (120u << 23);
  uint32_t subnormal = floatBits(float(int32_t(m)) * 0x1p-9f);
  uint32_t mag = e == 0 ? subnormal : normal;
  mag = (b & 0x7Fu) == 0x7Fu ? 0x7FC00000u : mag;
  return bitsFloat(sign | mag);
}

/// float8_e5m2 bits of \p x (round to nearest even, satfinite; NaN 0x7F).
inline uint8_t floatToE5M2Bits(float x) {
  return floatToOcpFloat8Bits<2, 15, 0x7Bu>(x);
}

/// The value of float8_e5m2 bits \p b (the upper byte of a binary16).
inline float e5m2BitsToFloat(uint8_t b) { return halfBitsToFloat(uint16_t(b) << 8); }

/// The FNUZ formats (AMD's fp8): no infinity and no negative zero; 0x80 is
/// their one NaN. Round to nearest even, satfinite; -0 becomes +0.
inline uint8_t floatToFnuzBits(float x, int manBits, int bias,
                               double maxFinite) {
  if (std::isnan(x))
    return 0x80;
  uint8_t b = floatToMiniFloatBits(x, manBits, bias, maxFinite, 0);
  return b == 0x80 ? uint8_t(0) : b;
}

/// The value of FNUZ bits \p b with \p manBits mantissa bits and exponent
/// bias \p bias.
inline float fnuzBitsToFloat(uint8_t b, int manBits, int bias) {
  if (b == 0x80)
    return std::numeric_limits<float>::quiet_NaN();
  bool neg = b & 0x80;
  unsigned e = (b & 0x7F) >> manBits, m = b & ((1u << manBits) - 1);
  float v = e == 0 ? std::ldexp(float(m), 1 - bias - manBits)
                   : std::ldexp(float((1u << manBits) + m),
                                int(e) - bias - manBits);
  return neg ? -v : v;
}

/// float8_e4m3fnuz bits of \p x (largest finite value 240).
inline uint8_t floatToE4M3FnuzBits(float x) {
  return floatToFnuzBits(x, 3, 8, 240.0);
}
inline float e4m3FnuzBitsToFloat(uint8_t b) { return fnuzBitsToFloat(b, 3, 8); }

/// float8_e5m2fnuz bits of \p x (largest finite value 57344).
inline uint8_t floatToE5M2FnuzBits(float x) {
  return floatToFnuzBits(x, 2, 16, 57344.0);
}
inline float e5m2FnuzBitsToFloat(uint8_t b) { return fnuzBitsToFloat(b, 2, 16); }

/// float8_e8m0fnu bits of \p x: an exponent alone (the OCP MX block scale,
/// 2^(b - 127), 0xFF the NaN), PyTorch's rule (c10/util/Float8_e8m0fnu.h):
/// the sign is ignored; NaN and infinities give NaN; the float32 exponent
/// field rounds up when the mantissa reaches half (x >= 1.5 * 2^e, ties
/// up) for normal inputs and passes half for subnormal ones (zero gives
/// 2^-127); rounding up from 2^127 gives the NaN code (no saturation).
inline uint8_t floatToE8M0Bits(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  uint32_t field = (bits >> 23) & 0xFFu, mantissa = bits & 0x7FFFFFu;
  if (field == 0xFFu)
    return 0xFF;
  bool up = field != 0 ? mantissa >= 0x400000u : mantissa > 0x400000u;
  return uint8_t(field + (up ? 1u : 0u));
}
inline float e8m0BitsToFloat(uint8_t b) {
  if (b == 0xFF)
    return std::numeric_limits<float>::quiet_NaN();
  return float(std::ldexp(1.0, int(b) - 127));
}

/// Stochastic rounding of \p x to a small float format (T.cast(...,
/// round="rs", rbits=...)), the rule of PTX's cvt.rs: \p encode /
/// \p decode are the format's round-to-nearest encoder and exact decoder,
/// \p maxBits its largest finite magnitude and \p signBit its sign. |x|
/// lies between two values lo <= |x| < hi of the format; the gap's
/// fraction (|x| - lo) / (hi - lo), truncated to \p n bits (the bits the
/// conversion drops, for a normal result), plus the \p n random bits
/// \p rnd rounds away from zero (to hi) when the sum carries out of n bits.
/// Saturates to the largest finite value (satfinite); NaN stays NaN.
template <typename Bits>
inline Bits floatToBitsStochastic(float x, uint32_t rnd, int n,
                                  Bits (*encode)(float), float (*decode)(Bits),
                                  Bits maxBits, Bits signBit) {
  if (x != x)
    return encode(x);
  Bits sign = std::signbit(x) ? signBit : Bits(0);
  float a = std::fabs(x);
  if (a >= decode(maxBits))
    return Bits(sign | maxBits);
  // The nearest code, and its neighbour on the other side of |x| (codes of
  // non-negative values grow with the value).
  Bits near = Bits(encode(a) & Bits(~signBit));
  float v = decode(near);
  if (v == a)
    return Bits(sign | near);
  Bits lo = v < a ? near : Bits(near - 1);
  double low = decode(lo), high = decode(Bits(lo + 1));
  uint64_t one = uint64_t(1) << n;
  uint64_t frac = uint64_t((double(a) - low) / (high - low) * double(one));
  bool up = frac + (rnd & (one - 1)) >= one;
  return Bits(sign | (up ? Bits(lo + 1) : lo));
}
/// The OCP float8 formats: the low 16 bits of \p rbits, n = 16.
inline uint8_t floatToFloat8BitsStochastic(float x, uint32_t rbits,
                                           uint8_t (*encode)(float),
                                           float (*decode)(uint8_t),
                                           uint8_t maxBits) {
  return floatToBitsStochastic<uint8_t>(x, rbits & 0xFFFFu, 16, encode, decode,
                                        maxBits, 0x80u);
}
/// float8_e4m3fn bits of \p x, rounded stochastically with \p rbits.
inline uint8_t floatToE4M3BitsStochastic(float x, uint32_t rbits) {
  return floatToFloat8BitsStochastic(x, rbits, floatToE4M3Bits,
                                     e4m3BitsToFloat, 0x7Eu);
}
/// float8_e5m2 bits of \p x, rounded stochastically with \p rbits.
inline uint8_t floatToE5M2BitsStochastic(float x, uint32_t rbits) {
  return floatToFloat8BitsStochastic(x, rbits, floatToE5M2Bits,
                                     e5m2BitsToFloat, 0x7Bu);
}

/// float16 bits of \p x, rounded stochastically with the low 13 bits of
/// \p rbits (cvt.rs.satfinite.f16x2.f32: 13 random bits a lane).
inline uint16_t floatToHalfBitsStochastic(float x, uint32_t rbits) {
  return floatToBitsStochastic<uint16_t>(x, rbits & 0x1FFFu, 13,
                                         floatToHalfBits, halfBitsToFloat,
                                         0x7BFFu, 0x8000u);
}
/// bfloat16 bits of \p x, rounded stochastically with the low 16 bits of
/// \p rbits (cvt.rs.satfinite.bf16x2.f32: 16 random bits a lane).
inline uint16_t floatToBFloat16BitsStochastic(float x, uint32_t rbits) {
  return floatToBitsStochastic<uint16_t>(x, rbits & 0xFFFFu, 16,
                                         floatToBFloat16Bits,
                                         bfloat16BitsToFloat, 0x7F7Fu, 0x8000u);
}

/// Storage type of a small float format: holds the bits, converts to float
/// exactly and from float with the format's rounding. Arithmetic happens in
/// float and is rounded back at every result, which matches the GPU's
/// correctly rounded f16/bf16 operations (float has more than twice the
/// precision plus two bits).
template <typename Bits, Bits (*Encode)(float), float (*Decode)(Bits)>
struct MiniFloat {
  Bits bits;
  MiniFloat() = default;
  /// Copies the bits. User-provided (not `= default`) so that copying an
  /// element is a scalar load and store: GCC keeps the copy of a trivially
  /// copyable struct as an aggregate copy, which its vectoriser refuses
  /// ("more than one data ref in stmt"), so no f16/bf16 T.Parallel loop
  /// over views (`const f16 x = A.at(...)`) was vectorised.
  MiniFloat(const MiniFloat &o) : bits(o.bits) {}
  MiniFloat &operator=(const MiniFloat &o) {
    bits = o.bits;
    return *this;
  }
  /// Rounds \p x to the format.
  explicit MiniFloat(float x) : bits(Encode(x)) {}
  /// The exact value.
  explicit operator float() const { return Decode(bits); }
  /// Nonzero, as C++ tests a float (NaN is true): `bool(x)` of an element
  /// (T.any_of / T.all_of over an f16 row).
  explicit operator bool() const { return Decode(bits) != 0.0f; }
  /// The value from raw bits.
  static MiniFloat fromBits(Bits b) {
    MiniFloat r;
    r.bits = b;
    return r;
  }
};

using f16 = MiniFloat<uint16_t, floatToHalfBits, halfBitsToFloat>;
using bf16 = MiniFloat<uint16_t, floatToBFloat16Bits, bfloat16BitsToFloat>;
using f8e4m3 = MiniFloat<uint8_t, floatToE4M3Bits, e4m3BitsToFloat>;
using f8e5m2 = MiniFloat<uint8_t, floatToE5M2Bits, e5m2BitsToFloat>;
using f8e4m3fnuz =
    MiniFloat<uint8_t, floatToE4M3FnuzBits, e4m3FnuzBitsToFloat>;
using f8e5m2fnuz =
    MiniFloat<uint8_t, floatToE5M2FnuzBits, e5m2FnuzBitsToFloat>;
using f8e8m0 = MiniFloat<uint8_t, floatToE8M0Bits, e8m0BitsToFloat>;

/// fp4 e2m1 (tlc_device/fp4.h): a value holds one code, memory two a byte
/// (element 2k in the low nibble), so a View of it hands out references to
/// nibbles (`ElementRef`).
inline uint8_t floatToE2M1Bits(float x) { return tlc::fp4::e2m1FromFloat(x); }
inline float e2m1BitsToFloat(uint8_t b) { return tlc::fp4::e2m1ToFloat(b); }
/// float4_e2m1fn code of \p x, rounded stochastically with the low 8 bits
/// of \p rbits (cvt.rs.satfinite.e2m1x4.f32, the lowest lane).
inline uint8_t floatToE2M1BitsStochastic(float x, uint32_t rbits) {
  return floatToBitsStochastic<uint8_t>(x, rbits & 0xFFu, 8, floatToE2M1Bits,
                                        e2m1BitsToFloat, 0x7u, 0x8u);
}
using f4e2m1 = MiniFloat<uint8_t, floatToE2M1Bits, e2m1BitsToFloat>;

/// int4 (\p Signed) or uint4 (tlc_device/fp4.h): a value holds one code
/// (its own byte), memory two a byte like f4e2m1. Arithmetic converts to
/// `int`; making a 4-bit value of an integer wraps modulo 16 (the MLIR
/// arith semantics of i4), of a float rounds toward zero and saturates
/// (`cast`).
template <bool Signed> struct Int4 {
  uint8_t bits;
  Int4() = default;
  /// \p v modulo 16.
  constexpr Int4(long long v) : bits(uint8_t(v & 0xf)) {}
  constexpr operator int() const {
    return Signed ? int((bits & 0xfu) ^ 0x8u) - 8 : int(bits & 0xfu);
  }
  Int4 &operator+=(int v) { return *this = Int4(int(*this) + v); }
  Int4 &operator-=(int v) { return *this = Int4(int(*this) - v); }
  Int4 &operator*=(int v) { return *this = Int4(int(*this) * v); }
  Int4 &operator++() { return *this += 1; }
  Int4 &operator--() { return *this -= 1; }
  static Int4 fromBits(uint8_t b) {
    Int4 r;
    r.bits = b;
    return r;
  }
};
using i4 = Int4<true>;
using u4 = Int4<false>;

/// What `View<T, R>::at` returns: a T& for every type stored whole.
template <typename T> struct ElementRef {
  using type = T &;
  static T &at(T *base, int64_t offset) { return base[offset]; }
};
/// The packed fp4 element at an element offset: reads give the value,
/// assignments replace its nibble (atomically: the block scheduler's
/// workers may write the byte's other nibble at the same time).
struct F4Ref {
  tlc::fp4::E2M1Ref<true> ref;
  operator f4e2m1() const { return f4e2m1::fromBits(uint8_t(ref)); }
  explicit operator float() const { return e2m1BitsToFloat(uint8_t(ref)); }
  const F4Ref &operator=(f4e2m1 v) const {
    ref = v.bits;
    return *this;
  }
  const F4Ref &operator=(const F4Ref &other) const {
    ref = other.ref;
    return *this;
  }
};
template <> struct ElementRef<f4e2m1> {
  using type = F4Ref;
  static F4Ref at(f4e2m1 *base, int64_t offset) {
    return F4Ref{{reinterpret_cast<uint8_t *>(base), offset}};
  }
};

/// A packed int4/uint4 element (like F4Ref).
template <bool Signed> struct Int4Ref {
  tlc::fp4::E2M1Ref<true> ref;
  operator Int4<Signed>() const {
    return Int4<Signed>::fromBits(uint8_t(ref));
  }
  const Int4Ref &operator=(Int4<Signed> v) const {
    ref = v.bits;
    return *this;
  }
  const Int4Ref &operator=(const Int4Ref &other) const {
    ref = other.ref;
    return *this;
  }
};
template <bool Signed> struct ElementRef<Int4<Signed>> {
  using type = Int4Ref<Signed>;
  static Int4Ref<Signed> at(Int4<Signed> *base, int64_t offset) {
    return Int4Ref<Signed>{{reinterpret_cast<uint8_t *>(base), offset}};
  }
};

template <typename T> struct IsInt4 : std::false_type {};
template <bool S> struct IsInt4<Int4<S>> : std::true_type {};
template <typename T> struct IsInt4Ref : std::false_type {};
template <bool S> struct IsInt4Ref<Int4Ref<S>> : std::true_type {
  using Value = Int4<S>;
};

/// Converts between any two element types: floats through float (small
/// formats round on the way in), float -> integer saturating with NaN -> 0
/// like the GPU's cvt.rzi.sat, integers by C++ conversion.
template <typename To, typename From> inline To cast(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (IsInt4Ref<From>::value) {
    return cast<To>(typename IsInt4Ref<From>::Value(v));
  } else if constexpr (IsInt4<From>::value) {
    return cast<To>(int(v));
  } else if constexpr (IsInt4<To>::value) {
    if constexpr (std::is_class_v<From> || std::is_floating_point_v<From>)
      return To(tlc::fp4::int4FromFloat(
          float(v), std::is_same_v<To, i4> ? -8 : 0,
          std::is_same_v<To, i4> ? 7 : 15));
    else
      return To((long long)v);
  } else if constexpr (std::is_class_v<From>) {
    return cast<To>(float(v));
  } else if constexpr (std::is_class_v<To>) {
    return To(float(v));
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    if constexpr (std::is_same_v<To, bool>) {
      return v != 0;
    } else {
      if (std::isnan(v))
        return To(0);
      if (v <= From(std::numeric_limits<To>::min()))
        return std::numeric_limits<To>::min();
      if (v >= From(std::numeric_limits<To>::max()))
        return std::numeric_limits<To>::max();
      return To(v);
    }
  } else {
    return To(v);
  }
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

/// Prints one value for `T.print`.
template <typename T> inline void printValue(T v) {
  if constexpr (std::is_class_v<T>)
    std::printf("%g", double(float(v)));
  else if constexpr (std::is_floating_point_v<T>)
    std::printf("%g", double(v));
  else if constexpr (std::is_same_v<T, bool>)
    std::printf("%s", v ? "true" : "false");
  else if constexpr (std::is_signed_v<T>)
    std::printf("%lld", (long long)v);
  else
    std::printf("%llu", (unsigned long long)v);
}

} // namespace cpu
} // namespace tlc

#endif // TLC_DEVICE_CPU_TYPES_H
