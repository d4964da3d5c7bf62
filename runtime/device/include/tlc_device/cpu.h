//===- cpu.h - Support code of kernels generated for the CPU target -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Everything the C++ that `tlc-build --target=cpu` generates needs, in one
// self-contained header (the build copies it next to the generated source):
//
//  * the kernel ABI (`tlc_cpu_args`, the entry point's one argument);
//  * storage types of the small float formats (f16, bf16, fp8 e4m3fn/e5m2)
//    with round-to-nearest-even conversions from float, as the GPU stores
//    them (fp8 saturating to the largest finite value, like CUDA's
//    `satfinite` conversion);
//  * `View`, a strided window on a buffer that knows which of its indices
//    are in bounds: out-of-range reads of global memory give zero, writes
//    are dropped (TileLang's guards); out-of-range accesses to on-chip
//    buffers are reported as errors with the source location;
//  * the range tests of the generated code's unchecked fast paths
//    (`spans`, `covers`) and their row copy (`copyRow`);
//  * `gemm`: packed operands and a register-blocked, vectorised
//    micro-kernel that keeps the loop nest's per-element k order;
//  * atomics, integer helpers with Python semantics, the block scheduler.
//
// It is also included by the runtime (storage conversions for `--save`)
// and by the unit tests of the conversions.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CPU_H
#define TLC_DEVICE_CPU_H

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include <ucontext.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
#endif

#include "tlc_device/fp4.h"
#include "tlc_device/mrg32k3a.h"
#include "tlc_device/philox.h"
#include "tlc_device/xorwow.h"

//===----------------------------------------------------------------------===//
// Kernel ABI
//===----------------------------------------------------------------------===//

extern "C" {
/// Version of tlc_cpu_args; bumped when its layout changes.
#define TLC_CPU_ABI_VERSION 1

/// The single argument of a CPU kernel entry point
/// `extern "C" int ENTRY(const tlc_cpu_args *)`. The entry returns 0 on
/// success; otherwise it wrote a message (with the DSL source location) into
/// `error`.
struct tlc_cpu_args {
  /// TLC_CPU_ABI_VERSION of the caller.
  uint32_t abiVersion;
  /// Number of entries of `params` (checked against the kernel's).
  uint32_t numParams;
  /// One per kernel parameter in order: the data pointer of a tensor (row
  /// major, dense), or a pointer to the value of a scalar parameter.
  void *const *params;
  /// Number of entries of `symbols` (checked against the kernel's).
  uint32_t numSymbols;
  /// The values of the kernel's symbols, in manifest order.
  const int64_t *symbols;
  /// Host threads that run blocks concurrently (<= 1: in sequence).
  int32_t numWorkers;
  /// Receives a NUL-terminated error message; may be null.
  char *error;
  /// Capacity of `error` in bytes.
  size_t errorSize;
};
}

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

/// float8_e8m0fnu bits of \p x: an exponent alone (the MX block scale),
/// 2^(b - 127), 0xFF the NaN. The format has no zero and no sign: NaN, zero
/// and negative values give NaN; others round to the nearest power of two
/// (ties to the even exponent field) and saturate to 2^-127 .. 2^127.
inline uint8_t floatToE8M0Bits(float x) {
  if (!(x > 0))
    return 0xFF;
  int exp2;
  double f = std::frexp(double(x), &exp2); // x = f * 2^exp2, f in [0.5, 1)
  int e = exp2 - 1;                        // x = (2f) * 2^e, 2f in [1, 2)
  double m = 2 * f;
  if (m > 1.5 || (m == 1.5 && ((e + 127) & 1)))
    ++e;
  return uint8_t(std::clamp(e, -127, 127) + 127);
}
inline float e8m0BitsToFloat(uint8_t b) {
  if (b == 0xFF)
    return std::numeric_limits<float>::quiet_NaN();
  return float(std::ldexp(1.0, int(b) - 127));
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
// Integer helpers with Python/MLIR semantics
//===----------------------------------------------------------------------===//

/// Floor division (rounds toward negative infinity); 0 for b == 0.
template <typename T> inline T floorDiv(T a, T b) {
  if (b == 0)
    return 0;
  T q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

/// Ceiling division; 0 for b == 0.
template <typename T> inline T ceilDiv(T a, T b) {
  if (b == 0)
    return 0;
  T q = a / b;
  if ((a % b != 0) && ((a < 0) == (b < 0)))
    ++q;
  return q;
}

/// Modulo with the sign of the divisor (Python `%`); 0 for b == 0.
template <typename T> inline T floorMod(T a, T b) {
  if (b == 0)
    return 0;
  T r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

/// Truncating division and remainder that do not trap on b == 0.
template <typename T> inline T truncDiv(T a, T b) { return b == 0 ? 0 : a / b; }
template <typename T> inline T truncRem(T a, T b) { return b == 0 ? 0 : a % b; }

/// `maximumf`/`minimumf`: NaN if either operand is NaN.
inline float maximumF(float a, float b) {
  return (std::isnan(a) || std::isnan(b)) ? std::numeric_limits<float>::quiet_NaN()
                                          : std::max(a, b);
}
inline float minimumF(float a, float b) {
  return (std::isnan(a) || std::isnan(b)) ? std::numeric_limits<float>::quiet_NaN()
                                          : std::min(a, b);
}
inline double maximumF(double a, double b) {
  return (std::isnan(a) || std::isnan(b)) ? std::numeric_limits<double>::quiet_NaN()
                                          : std::max(a, b);
}
inline double minimumF(double a, double b) {
  return (std::isnan(a) || std::isnan(b)) ? std::numeric_limits<double>::quiet_NaN()
                                          : std::min(a, b);
}

/// Reinterprets the bits of \p v as a \p To of the same size.
template <typename To, typename From> inline To bitCast(From v) {
  static_assert(sizeof(To) == sizeof(From), "bitcast between sizes");
  To r;
  std::memcpy(&r, &v, sizeof(To));
  return r;
}

/// Leading zero bits of \p v (its width for zero).
template <typename U> inline int countLeadingZeros(U v) {
  int n = 0;
  for (int b = int(sizeof(U) * 8) - 1; b >= 0 && !((v >> b) & 1); --b)
    ++n;
  return n;
}

/// 1 / sqrt(x).
inline float rsqrt(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// The error state of one kernel call, shared by all worker threads. The
/// first error wins; the scheduler stops handing out blocks after it.
struct Status {
  std::atomic<bool> failed{false};
  char *message = nullptr;
  size_t size = 0;

  /// Records `LOC: error: WHAT` unless an error was recorded already.
  void fail(const char *loc, const char *what) {
    bool expected = false;
    if (!failed.compare_exchange_strong(expected, true))
      return;
    if (message && size)
      std::snprintf(message, size, "%s: error: %s", loc, what);
  }
  /// True once an error was recorded.
  bool hasFailed() const { return failed.load(std::memory_order_relaxed); }
};

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

/// A rank-R strided window on a buffer of T: `shape` is the window's
/// extent, and index i of dimension d is in bounds when lo[d] <= i < hi[d]
/// (the parts of the window that lie inside the underlying buffer). A view
/// of a whole buffer has lo = 0 and hi = shape.
template <typename T, int R> struct View {
  T *base = nullptr;
  int64_t origin = 0;
  int64_t shape[R] = {};
  int64_t stride[R] = {};
  int64_t lo[R] = {};
  int64_t hi[R] = {};

  /// The linear element offset of an index (no bounds check).
  int64_t offset(const int64_t (&idx)[R]) const {
    int64_t o = origin;
    for (int d = 0; d < R; ++d)
      o += idx[d] * stride[d];
    return o;
  }
  /// True when \p idx lies inside the underlying buffer.
  bool inBounds(const int64_t (&idx)[R]) const {
    for (int d = 0; d < R; ++d)
      if (idx[d] < lo[d] || idx[d] >= hi[d])
        return false;
    return true;
  }
  /// The element at \p idx (must be in bounds).
  typename ElementRef<T>::type at(const int64_t (&idx)[R]) const {
    return ElementRef<T>::at(base, offset(idx));
  }
};

/// A dense row-major view of \p data with extents \p shape.
template <typename T, int R>
inline View<T, R> denseView(T *data, const int64_t (&shape)[R]) {
  View<T, R> v;
  v.base = data;
  int64_t s = 1;
  for (int d = R - 1; d >= 0; --d) {
    v.shape[d] = shape[d];
    v.stride[d] = s;
    v.lo[d] = 0;
    v.hi[d] = shape[d];
    s *= shape[d];
  }
  return v;
}

/// A view of \p data with extents \p shape and element strides \p strides
/// (a transposed or padded parameter: `T.StridedTensor`).
template <typename T, int R>
inline View<T, R> stridedView(T *data, const int64_t (&shape)[R],
                              const int64_t (&strides)[R]) {
  View<T, R> v = denseView(data, shape);
  for (int d = 0; d < R; ++d)
    v.stride[d] = strides[d];
  return v;
}

/// The number of elements of extents \p shape (0 if any is negative).
template <int R> inline int64_t numElements(const int64_t (&shape)[R]) {
  int64_t n = 1;
  for (int d = 0; d < R; ++d)
    n *= std::max<int64_t>(shape[d], 0);
  return n;
}

/// Storage of an on-chip buffer (shared, fragment, local, var) of one
/// block: zero-initialised, freed at the end of the block.
/// The element storage of a Local: T itself, except for bool, whose
/// std::vector packs bits and has no data(); a one-byte cell holding a bool
/// is pointer-interconvertible with it.
template <typename T> struct LocalCell { using type = T; };
template <> struct LocalCell<bool> {
  struct type {
    bool value;
  };
};

template <typename T, int R> struct Local {
  std::vector<typename LocalCell<T>::type> data;
  View<T, R> view;
  explicit Local(const int64_t (&shape)[R])
      : data(size_t(numElements(shape)), typename LocalCell<T>::type()) {
    view = denseView(reinterpret_cast<T *>(data.data()), shape);
  }
};

/// The sub-window of \p src at \p offsets with extents \p shape. Bounds
/// follow the source: an index is in bounds if it is in the source's.
template <typename T, int R>
inline View<T, R> region(const View<T, R> &src, const int64_t (&offsets)[R],
                         const int64_t (&shape)[R]) {
  View<T, R> v = src;
  for (int d = 0; d < R; ++d) {
    v.origin += offsets[d] * src.stride[d];
    v.shape[d] = shape[d];
    v.lo[d] = src.lo[d] - offsets[d];
    v.hi[d] = src.hi[d] - offsets[d];
  }
  return v;
}

/// The elements of \p src in row-major order seen with extents \p shape and
/// element type U (`T.reshape`, `T.view`; U's storage is T's bits when the
/// types differ). \p src must be a whole dense buffer; otherwise the
/// program fails at \p loc and the view covers no element.
template <typename U, int R2, typename T, int R>
inline View<U, R2> reshape(Status &st, const char *loc, const View<T, R> &src,
                           const int64_t (&shape)[R2]) {
  int64_t s = 1;
  bool dense = true;
  for (int d = R - 1; d >= 0; --d) {
    dense &= src.stride[d] == s && src.lo[d] == 0 && src.hi[d] == src.shape[d];
    s *= std::max<int64_t>(src.shape[d], 0);
  }
  if (!dense) {
    st.fail(loc, "T.reshape/T.view of a buffer that is not whole and dense");
    View<U, R2> none;
    return none;
  }
  return denseView(reinterpret_cast<U *>(src.base + src.origin), shape);
}

/// Guarded read of global memory: zero outside the buffer.
template <typename T, int R>
inline T load(const View<T, R> &v, const int64_t (&idx)[R]) {
  return v.inBounds(idx) ? v.at(idx) : T();
}

/// Guarded read of global memory under T.annotate_safe_value: \p safe
/// outside the buffer.
template <typename T, int R>
inline T loadOr(const View<T, R> &v, const int64_t (&idx)[R], T safe) {
  return v.inBounds(idx) ? v.at(idx) : safe;
}

/// Guarded write of global memory: dropped outside the buffer.
template <typename T, int R>
inline void store(const View<T, R> &v, const int64_t (&idx)[R], T value) {
  if (v.inBounds(idx))
    v.at(idx) = value;
}

/// True when every index between \p min and \p max (inclusive, per
/// dimension) lies inside the buffer of \p v; true for an empty range. The
/// fast paths of the generated loops run unchecked when this holds.
template <typename T, int R>
inline bool spans(const View<T, R> &v, const int64_t (&min)[R],
                  const int64_t (&max)[R]) {
  bool ok = true;
  for (int d = 0; d < R; ++d) {
    if (max[d] < min[d])
      return true;
    ok &= v.lo[d] <= min[d] && max[d] < v.hi[d];
  }
  return ok;
}

/// True when the box [0, ext) of indices lies inside \p v's buffer.
template <typename T, int R>
inline bool covers(const View<T, R> &v, const int64_t (&ext)[R]) {
  int64_t max[R], min[R] = {};
  for (int d = 0; d < R; ++d)
    max[d] = ext[d] - 1;
  return spans(v, min, max);
}

/// dst[j * dstStride] = To(src[j * srcStride]) for j < n: the innermost
/// loop of an unchecked T.copy. Contiguous rows of one type are copied as
/// bytes; contiguous converting rows run as a plain loop GCC vectorises.
template <typename To, typename From>
inline void copyRow(To *dst, int64_t dstStride, const From *src,
                    int64_t srcStride, int64_t n) {
  if (n <= 0)
    return;
  if (dstStride == 1 && srcStride == 1) {
    if constexpr (std::is_same_v<To, From>) {
      std::memmove(dst, src, size_t(n) * sizeof(To));
    } else {
      for (int64_t j = 0; j < n; ++j)
        dst[j] = cast<To>(src[j]);
    }
    return;
  }
  for (int64_t j = 0; j < n; ++j)
    dst[j * dstStride] = cast<To>(src[j * srcStride]);
}

/// The least (\p greatest false) or the greatest value of x * y, x max y
/// or x min y for x in [a0, a1] and y in [b0, b1] (at the corners).
inline int64_t mulRange(bool greatest, int64_t a0, int64_t a1, int64_t b0,
                        int64_t b1) {
  int64_t p[4] = {a0 * b0, a0 * b1, a1 * b0, a1 * b1};
  return greatest ? *std::max_element(p, p + 4) : *std::min_element(p, p + 4);
}
inline int64_t maxRange(bool greatest, int64_t a0, int64_t a1, int64_t b0,
                        int64_t b1) {
  return greatest ? std::max(a1, b1) : std::max(a0, b0);
}
inline int64_t minRange(bool greatest, int64_t a0, int64_t a1, int64_t b0,
                        int64_t b1) {
  return greatest ? std::min(a1, b1) : std::min(a0, b0);
}

/// Checked access to an on-chip buffer: an index outside it is a program
/// error, reported at \p loc; reads give zero and writes are dropped then.
template <typename T, int R>
inline T loadChecked(Status &st, const char *loc, const View<T, R> &v,
                     const int64_t (&idx)[R]) {
  if (v.inBounds(idx))
    return v.at(idx);
  st.fail(loc, "index out of range of an on-chip buffer");
  return T();
}
template <typename T, int R>
inline void storeChecked(Status &st, const char *loc, const View<T, R> &v,
                         const int64_t (&idx)[R], T value) {
  if (v.inBounds(idx))
    v.at(idx) = value;
  else
    st.fail(loc, "index out of range of an on-chip buffer");
}

//===----------------------------------------------------------------------===//
// Matrix multiply
//===----------------------------------------------------------------------===//

/// Element (r, c) of the two innermost dimensions of \p v (the leading
/// indices 0), zero outside the underlying buffer.
template <typename T, int R>
inline T loadMatrix(const View<T, R> &v, int64_t r, int64_t c) {
  static_assert(R >= 2, "a matrix view has rank >= 2");
  int64_t idx[R] = {};
  idx[R - 2] = r;
  idx[R - 1] = c;
  return load(v, idx);
}

/// True when the \p rows x \p cols matrix at the origin of the two
/// innermost dimensions of \p v (leading indices 0) lies inside the
/// underlying buffer, so that element (r, c) is
/// `v.base[v.origin + r * v.stride[R - 2] + c * v.stride[R - 1]]`.
template <typename T, int R>
inline bool matrixInBounds(const View<T, R> &v, int64_t rows, int64_t cols) {
  for (int d = 0; d < R - 2; ++d)
    if (v.lo[d] > 0 || v.hi[d] <= 0)
      return false;
  return v.lo[R - 2] <= 0 && v.hi[R - 2] >= rows && v.lo[R - 1] <= 0 &&
         v.hi[R - 1] >= cols;
}

namespace detail {

/// Rows of the gemm micro-kernel's register tile.
constexpr int kGemmRows = 6;

/// The micro-kernel of gemm with vectors of \p VB bytes: for every
/// kGemmRows x NR tile of C (NR = two vectors of Acc), loads the tile into
/// registers, adds `a[i][kk] * b[kk][j]` for kk = 0, 1, ..., k-1 in that
/// order (a product rounded to Acc, then a sum rounded to Acc: the code is
/// compiled with -ffp-contract=off, so never fused), and stores it back.
/// Each element of C therefore sees exactly the sums of the loop nest
/// `acc += a * b`; only the order in which elements are computed changes.
/// \p pa holds A row-major (`pa[i*k + kk]`) with zero rows up to a
/// multiple of kGemmRows (the micro-kernel broadcasts its elements from
/// kGemmRows row streams), \p pb holds B in panels of NR columns
/// (`pb[q*k*NR + kk*NR + c]`), zero padded; \p c is m x n with row stride
/// \p ldc.
template <typename Acc, int VB>
__attribute__((always_inline)) inline void
gemmTiles(const Acc *__restrict pa, const Acc *__restrict pb, Acc *__restrict c,
          int64_t ldc, int64_t m, int64_t n, int64_t k) {
  typedef Acc V __attribute__((vector_size(VB)));
  constexpr int L = VB / int(sizeof(Acc));
  constexpr int MR = kGemmRows, NR = 2 * L;
  for (int64_t j0 = 0; j0 < n; j0 += NR) {
    const Acc *bp = pb + (j0 / NR) * k * NR;
    const int64_t nr = std::min<int64_t>(NR, n - j0);
    for (int64_t i0 = 0; i0 < m; i0 += MR) {
      const Acc *ap = pa + i0 * k;
      const int64_t mr = std::min<int64_t>(MR, m - i0);
      bool full = mr == MR && nr == NR;
      Acc edge[MR][NR];
      V acc[MR][2];
      if (full) {
        for (int r = 0; r < MR; ++r) {
          __builtin_memcpy(&acc[r][0], c + (i0 + r) * ldc + j0, VB);
          __builtin_memcpy(&acc[r][1], c + (i0 + r) * ldc + j0 + L, VB);
        }
      } else {
        for (int r = 0; r < MR; ++r)
          for (int j = 0; j < NR; ++j)
            edge[r][j] =
                (r < mr && j < nr) ? c[(i0 + r) * ldc + j0 + j] : Acc();
        for (int r = 0; r < MR; ++r) {
          __builtin_memcpy(&acc[r][0], &edge[r][0], VB);
          __builtin_memcpy(&acc[r][1], &edge[r][L], VB);
        }
      }
      for (int64_t kk = 0; kk < k; ++kk) {
        V b0, b1;
        __builtin_memcpy(&b0, bp + kk * NR, VB);
        __builtin_memcpy(&b1, bp + kk * NR + L, VB);
#pragma GCC unroll 16
        for (int r = 0; r < MR; ++r) {
          Acc a = ap[r * k + kk];
          acc[r][0] = acc[r][0] + a * b0;
          acc[r][1] = acc[r][1] + a * b1;
        }
      }
      if (full) {
        for (int r = 0; r < MR; ++r) {
          __builtin_memcpy(c + (i0 + r) * ldc + j0, &acc[r][0], VB);
          __builtin_memcpy(c + (i0 + r) * ldc + j0 + L, &acc[r][1], VB);
        }
      } else {
        for (int r = 0; r < MR; ++r) {
          __builtin_memcpy(&edge[r][0], &acc[r][0], VB);
          __builtin_memcpy(&edge[r][L], &acc[r][1], VB);
        }
        for (int r = 0; r < mr; ++r)
          for (int j = 0; j < nr; ++j)
            c[(i0 + r) * ldc + j0 + j] = edge[r][j];
      }
    }
  }
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TLC_CPU_GEMM_DISPATCH 1
template <typename Acc>
__attribute__((target("avx512f"))) void
gemmTiles512(const Acc *pa, const Acc *pb, Acc *c, int64_t ldc, int64_t m,
             int64_t n, int64_t k) {
  gemmTiles<Acc, 64>(pa, pb, c, ldc, m, n, k);
}
template <typename Acc>
__attribute__((target("avx2"))) void
gemmTiles256(const Acc *pa, const Acc *pb, Acc *c, int64_t ldc, int64_t m,
             int64_t n, int64_t k) {
  gemmTiles<Acc, 32>(pa, pb, c, ldc, m, n, k);
}
#endif

/// The vector width (bytes) of the micro-kernel this host runs: 64 with
/// AVX-512, 32 with AVX2, else 16. The arithmetic is the same for every
/// width (no fused multiply-add), so results do not depend on the host.
inline int gemmVectorBytes() {
#ifdef TLC_CPU_GEMM_DISPATCH
  static const int bytes =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("f16c") ? 64
      : __builtin_cpu_supports("avx2")                                    ? 32
                                                                          : 16;
  return bytes;
#else
  return 16;
#endif
}

/// Copies the \p rows x \p cols matrix of \p v (transposed when \p trans:
/// element (r, c) is v's (c, r)) into \p dst in panels of \p P rows
/// (`dst[p*cols*P + c*P + r%P]`), converted to Acc and zero padded to a
/// multiple of P rows; reads outside v's buffer give zero.
/// The most rows of a panel packPanels converts through its row buffer
/// (kGemmRows for A, two 64-byte vectors of the narrowest accumulator for
/// B), and the columns it converts at a time.
constexpr int64_t kPackRows = 32, kPackCols = 16;

/// packPanels of a matrix whose rows are contiguous (\p base, row stride
/// \p sr): blocks of kPackCols columns of a panel's rows are converted row
/// by row into a small buffer (contiguous, so the conversion vectorises),
/// then written out column by column (contiguous writes). \p FixedP > 0
/// is the panel height P known at compile time (\p P otherwise).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/// dst[j] = the float value of binary16 bits src[j], j < n, by the F16C
/// conversion (vcvtph2ps: exact, as halfBitsToFloat; a signalling NaN comes
/// out quiet, which the gemm's first operation does to it anyway).
__attribute__((target("avx512f,f16c"))) inline void
halfRunToFloat512(float *dst, const uint16_t *src, int64_t n) {
  int64_t j = 0;
  for (; j + 16 <= n; j += 16)
    _mm512_storeu_ps(dst + j, _mm512_cvtph_ps(_mm256_loadu_si256(
                                  reinterpret_cast<const __m256i *>(src + j))));
  for (; j < n; ++j)
    dst[j] = halfBitsToFloat(src[j]);
}
#endif

/// dst[j] = Acc(src[j]) for j < n; with \p Wide (inlined into the AVX-512
/// packing), f16 -> float by the F16C instruction.
template <bool Wide, typename Acc, typename T>
__attribute__((always_inline)) inline void convertRun(Acc *dst, const T *src,
                                                      int64_t n) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
  if constexpr (Wide && std::is_same_v<Acc, float> && std::is_same_v<T, f16>) {
    halfRunToFloat512(dst, reinterpret_cast<const uint16_t *>(src), n);
    return;
  }
#endif
  for (int64_t j = 0; j < n; ++j)
    dst[j] = cast<Acc>(src[j]);
}

template <typename Acc, int FixedP, bool Wide, typename T>
__attribute__((always_inline)) inline void
packRowBlocks(Acc *dst, const T *base, int64_t sr, int64_t rows, int64_t cols,
              int64_t P = FixedP) {
  if constexpr (FixedP > 0)
    P = FixedP;
  int64_t panels = (rows + P - 1) / P;
  Acc tmp[kPackRows][kPackCols];
  for (int64_t p = 0; p < panels; ++p) {
    Acc *out = dst + p * cols * P;
    int64_t n = std::min<int64_t>(P, rows - p * P);
    for (int64_t r = n; r < P; ++r)
      for (int64_t c = 0; c < kPackCols; ++c)
        tmp[r][c] = Acc();
    int64_t c0 = 0;
    for (; c0 + kPackCols <= cols; c0 += kPackCols) {
      for (int64_t r = 0; r < n; ++r)
        convertRun<Wide>(&tmp[r][0], base + (p * P + r) * sr + c0, kPackCols);
      for (int64_t c = 0; c < kPackCols; ++c)
        for (int64_t r = 0; r < P; ++r)
          out[(c0 + c) * P + r] = tmp[r][c];
    }
    for (; c0 < cols; ++c0)
      for (int64_t r = 0; r < P; ++r)
        out[c0 * P + r] =
            r < n ? cast<Acc>(base[(p * P + r) * sr + c0]) : Acc();
  }
}

template <typename Acc, bool Wide, typename T, int R>
__attribute__((always_inline)) inline void
packPanelsImpl(Acc *dst, const View<T, R> &v, bool trans, int64_t rows,
               int64_t cols, int64_t P) {
  int64_t panels = (rows + P - 1) / P;
  bool inside =
      trans ? matrixInBounds(v, cols, rows) : matrixInBounds(v, rows, cols);
  const T *base = v.base + v.origin;
  int64_t sr = v.stride[R - 2], sc = v.stride[R - 1];
  if (trans)
    std::swap(sr, sc);
  if (inside && sr == 1) {
    // Rows adjacent in memory (B in its usual layout): read and write
    // contiguously, P rows at a time.
    for (int64_t p = 0; p < panels; ++p) {
      Acc *out = dst + p * cols * P;
      int64_t n = std::min<int64_t>(P, rows - p * P);
      for (int64_t c = 0; c < cols; ++c) {
        convertRun<Wide>(out + c * P, base + p * P + c * sc, n);
        for (int64_t r = n; r < P; ++r)
          out[c * P + r] = Acc();
      }
    }
    return;
  }
  if (inside && sc == 1 && P <= kPackRows) {
    // Rows contiguous in memory (A in its usual layout, B transposed).
    if (P == kGemmRows)
      packRowBlocks<Acc, kGemmRows, Wide>(dst, base, sr, rows, cols);
    else if (P == 16)
      packRowBlocks<Acc, 16, Wide>(dst, base, sr, rows, cols);
    else if (P == 32)
      packRowBlocks<Acc, 32, Wide>(dst, base, sr, rows, cols);
    else
      packRowBlocks<Acc, 0, Wide>(dst, base, sr, rows, cols, P);
    return;
  }
  for (int64_t p = 0; p < panels; ++p) {
    Acc *out = dst + p * cols * P;
    for (int64_t r = 0; r < P; ++r) {
      int64_t row = p * P + r;
      if (row >= rows) {
        for (int64_t c = 0; c < cols; ++c)
          out[c * P + r] = Acc();
      } else if (inside) {
        const T *src = base + row * sr;
        for (int64_t c = 0; c < cols; ++c)
          out[c * P + r] = cast<Acc>(src[c * sc]);
      } else {
        for (int64_t c = 0; c < cols; ++c)
          out[c * P + r] =
              cast<Acc>(trans ? loadMatrix(v, c, row) : loadMatrix(v, row, c));
      }
    }
  }
}

#ifdef TLC_CPU_GEMM_DISPATCH
template <typename Acc, typename T, int R>
__attribute__((target("avx512f,f16c"))) void
packPanels512(Acc *dst, const View<T, R> &v, bool trans, int64_t rows,
              int64_t cols, int64_t P) {
  packPanelsImpl<Acc, true>(dst, v, trans, rows, cols, P);
}
#endif

/// packPanelsImpl, compiled for AVX-512 where the micro-kernel uses it (the
/// conversions are the same operations, on wider vectors).
template <typename Acc, typename T, int R>
inline void packPanels(Acc *dst, const View<T, R> &v, bool trans, int64_t rows,
                       int64_t cols, int64_t P) {
#ifdef TLC_CPU_GEMM_DISPATCH
  if (gemmVectorBytes() == 64)
    return packPanels512<Acc>(dst, v, trans, rows, cols, P);
#endif
  packPanelsImpl<Acc, false>(dst, v, trans, rows, cols, P);
}

} // namespace detail

/// T.gemm on the host: C[m, n] (+)= op(A)[m, k] * op(B)[k, n] over the two
/// innermost dimensions of each view, accumulated in Acc and rounded to C's
/// type once at the end.
///
/// The order of the arithmetic is that of the loop nest
///
///     for i, j:  acc = clear ? 0 : Acc(C[i][j])
///                for kk = 0 .. k-1:  acc = acc + Acc(A[i][kk]) * Acc(B[kk][j])
///                C[i][j] = TC(acc)
///
/// with every product and every sum rounded to Acc (never fused), bit for
/// bit: operands are converted to Acc once (into packed panels), and a
/// register-blocked, vectorised micro-kernel computes kGemmRows x (two
/// vectors) tiles of C, each element still summing its k products in k
/// order. Reads outside a view's buffer give zero and writes there are
/// dropped (the guards of global memory).
///
/// With \p tf32 (f32 operands) each operand is first read as tf32, as the
/// CUDA mma.sync/wgmma .tf32 instructions read the f32 bit patterns TileLang
/// gives them: the 13 low mantissa bits are dropped (truncation toward
/// zero). The products of two tf32 values are exact in f32.
///
/// With \p roundEvery > 0, K is taken in slices of that many, C being
/// stored (rounded to its type) after each: an f16 accumulator as the CUDA
/// mma.sync .f16 instructions keep it, rounded after every k16 step.
template <typename Acc, typename TA, int RA, typename TB, int RB, typename TC,
          int RC>
inline void gemm(const View<TA, RA> &a, const View<TB, RB> &b,
                 const View<TC, RC> &c, int64_t m, int64_t n, int64_t k,
                 bool transA, bool transB, bool clear, bool tf32 = false,
                 int64_t roundEvery = 0) {
  if (m <= 0 || n <= 0)
    return;
  if (roundEvery > 0 && k > roundEvery) {
    const int ka = transA ? RA - 2 : RA - 1, kb = transB ? RB - 1 : RB - 2;
    for (int64_t k0 = 0; k0 < k; k0 += roundEvery) {
      int64_t ao[RA] = {}, as[RA], bo[RB] = {}, bs[RB];
      for (int d = 0; d < RA; ++d)
        as[d] = a.shape[d];
      for (int d = 0; d < RB; ++d)
        bs[d] = b.shape[d];
      int64_t kc = std::min(roundEvery, k - k0);
      ao[ka] = k0, as[ka] = kc, bo[kb] = k0, bs[kb] = kc;
      gemm<Acc>(region(a, ao, as), region(b, bo, bs), c, m, n, kc, transA,
                transB, clear && k0 == 0, tf32, 0);
    }
    return;
  }
  k = std::max<int64_t>(k, 0);
  const int vb = detail::gemmVectorBytes();
  const int64_t MR = detail::kGemmRows;
  const int64_t NR = 2 * vb / int64_t(sizeof(Acc));
  thread_local std::vector<Acc> sa, sb, sc;
  const int64_t mPad = (m + MR - 1) / MR * MR;
  sa.resize(size_t(mPad * k));
  sb.resize(size_t((n + NR - 1) / NR * NR * k));
  // A row-major: op(A)^T packed as one panel of k rows (a plain conversion
  // when A's rows are contiguous), then the padding rows.
  if (k > 0)
    detail::packPanels<Acc>(sa.data(), a, !transA, k, m, k);
  std::fill(sa.begin() + m * k, sa.end(), Acc());
  // B's panels are of columns: pack op(B)^T, whose rows are B's columns.
  detail::packPanels<Acc>(sb.data(), b, !transB, n, k, NR);
  if constexpr (std::is_same_v<Acc, float>) {
    if (tf32)
      for (std::vector<float> *panel : {&sa, &sb})
        for (float &x : *panel) {
          uint32_t bits;
          std::memcpy(&bits, &x, 4);
          bits &= 0xffffe000u;
          std::memcpy(&x, &bits, 4);
        }
  }

  // C: worked on in place when it is of type Acc, inside its buffer and
  // contiguous along rows; otherwise through row-major scratch.
  Acc *cp;
  int64_t ldc;
  bool direct = false;
  if constexpr (std::is_same_v<TC, Acc>)
    direct = matrixInBounds(c, m, n) && c.stride[RC - 1] == 1;
  if (direct) {
    cp = reinterpret_cast<Acc *>(c.base + c.origin);
    ldc = c.stride[RC - 2];
    if (clear)
      for (int64_t i = 0; i < m; ++i)
        std::fill(cp + i * ldc, cp + i * ldc + n, Acc());
  } else {
    sc.resize(size_t(m) * size_t(n));
    cp = sc.data();
    ldc = n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        sc[i * n + j] = clear ? Acc() : cast<Acc>(loadMatrix(c, i, j));
  }
#ifdef TLC_CPU_GEMM_DISPATCH
  if (vb == 64)
    detail::gemmTiles512<Acc>(sa.data(), sb.data(), cp, ldc, m, n, k);
  else if (vb == 32)
    detail::gemmTiles256<Acc>(sa.data(), sb.data(), cp, ldc, m, n, k);
  else
#endif
    detail::gemmTiles<Acc, 16>(sa.data(), sb.data(), cp, ldc, m, n, k);
  if (direct)
    return;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t idx[RC] = {};
      idx[RC - 2] = i;
      idx[RC - 1] = j;
      store(c, idx, cast<TC>(sc[i * n + j]));
    }
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

/// Atomically adds \p value to \p *ptr (compare-and-swap on the storage
/// bits; the sum is computed in float for the small formats) and returns
/// the previous value.
template <typename T> inline T atomicAdd(T *ptr, T value) {
  if constexpr (std::is_integral_v<T>) {
    return __atomic_fetch_add(ptr, value, __ATOMIC_RELAXED);
  } else {
    using Bits = std::conditional_t<
        sizeof(T) == 8, uint64_t,
        std::conditional_t<sizeof(T) == 4, uint32_t,
                           std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>>;
    static_assert(sizeof(Bits) == sizeof(T), "unexpected storage size");
    Bits *bits = reinterpret_cast<Bits *>(ptr);
    Bits oldBits = __atomic_load_n(bits, __ATOMIC_RELAXED);
    while (true) {
      T oldValue, newValue;
      std::memcpy(&oldValue, &oldBits, sizeof(T));
      if constexpr (std::is_floating_point_v<T>)
        newValue = oldValue + value;
      else
        newValue = T(float(oldValue) + float(value));
      Bits newBits;
      std::memcpy(&newBits, &newValue, sizeof(T));
      if (__atomic_compare_exchange_n(bits, &oldBits, newBits, /*weak=*/false,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        return oldValue;
    }
  }
}

/// Atomic add into global memory at \p idx; dropped (returning zero)
/// outside the buffer, like a guarded GPU atomic.
template <typename T, int R>
inline T atomicAddGuarded(const View<T, R> &v, const int64_t (&idx)[R], T value) {
  if (!v.inBounds(idx))
    return T();
  return atomicAdd(&v.at(idx), value);
}

/// Atomic add into an on-chip buffer; out of range is a reported error.
template <typename T, int R>
inline T atomicAddChecked(Status &st, const char *loc, const View<T, R> &v,
                          const int64_t (&idx)[R], T value) {
  if (!v.inBounds(idx)) {
    st.fail(loc, "index out of range of an on-chip buffer");
    return T();
  }
  return atomicAdd(&v.at(idx), value);
}

/// Atomically replaces \p *ptr by \p update(old) (compare-and-swap on the
/// storage bits) and returns the old value: the ordered atomics
/// (T.atomic_load/store/max/min/or), whose order the blocks' host threads
/// need no more than this.
template <typename T, typename F> inline T atomicUpdate(T *ptr, F update) {
  using Bits = std::conditional_t<
      sizeof(T) == 8, uint64_t,
      std::conditional_t<
          sizeof(T) == 4, uint32_t,
          std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>>;
  static_assert(sizeof(Bits) == sizeof(T), "unexpected storage size");
  Bits *bits = reinterpret_cast<Bits *>(ptr);
  Bits oldBits = __atomic_load_n(bits, __ATOMIC_SEQ_CST);
  while (true) {
    T oldValue;
    std::memcpy(&oldValue, &oldBits, sizeof(T));
    T newValue = update(oldValue);
    Bits newBits;
    std::memcpy(&newBits, &newValue, sizeof(T));
    if (newBits == oldBits ||
        __atomic_compare_exchange_n(bits, &oldBits, newBits, /*weak=*/false,
                                    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
      return oldValue;
  }
}

/// atomicUpdate in global memory at \p idx; dropped (returning zero)
/// outside the buffer, like a guarded GPU atomic.
template <typename T, int R, typename F>
inline T atomicUpdateGuarded(const View<T, R> &v, const int64_t (&idx)[R],
                             F update) {
  if (!v.inBounds(idx))
    return T();
  return atomicUpdate(&v.at(idx), update);
}

/// atomicUpdate of an on-chip buffer; out of range is a reported error.
template <typename T, int R, typename F>
inline T atomicUpdateChecked(Status &st, const char *loc, const View<T, R> &v,
                             const int64_t (&idx)[R], F update) {
  if (!v.inBounds(idx)) {
    st.fail(loc, "index out of range of an on-chip buffer");
    return T();
  }
  return atomicUpdate(&v.at(idx), update);
}

//===----------------------------------------------------------------------===//
// IEEE single precision with a rounding direction (T.ieee_*)
//===----------------------------------------------------------------------===//

/// The rounding directions of CUDA's __f*_rn/rz/ru/rd.
enum class Rounding { Nearest, TowardZero, Up, Down };

/// The float nearest \p s + \p err (an exact double-double value, |err|
/// far below an ulp of s) in direction \p mode, without the host's
/// rounding mode: round to nearest, then step once if that went the wrong
/// way.
inline float roundDirected(double s, double err, Rounding mode) {
  float f = float(s);
  if (mode == Rounding::Nearest || std::isnan(s) || std::isinf(s))
    return f;
  // f - (s + err), by its sign: (f - s) is exact (f and s are within a
  // factor of two), err is exact.
  double d = double(f) - s;
  bool above = d > err, below = d < err;
  bool up =
      mode == Rounding::Up || (mode == Rounding::TowardZero && s + err < 0);
  if (up && below)
    return std::nextafter(f, std::numeric_limits<float>::infinity());
  if (!up && above)
    return std::nextafter(f, -std::numeric_limits<float>::infinity());
  return f;
}

/// a + b exactly as s + err (TwoSum).
inline double twoSum(double a, double b, double &err) {
  double s = a + b;
  double bv = s - a;
  err = (a - (s - bv)) + (b - bv);
  return s;
}

inline float ieeeAdd(float a, float b, Rounding m) {
  double e;
  double s = twoSum(a, b, e);
  return roundDirected(s, e, m);
}
inline float ieeeSub(float a, float b, Rounding m) { return ieeeAdd(a, -b, m); }
inline float ieeeMul(float a, float b, Rounding m) {
  return roundDirected(double(a) * double(b), 0, m); // exact in double
}
inline float ieeeFma(float a, float b, float c, Rounding m) {
  double e;
  double s = twoSum(double(a) * double(b), c, e); // the product is exact
  return roundDirected(s, e, m);
}
inline float ieeeDiv(float a, float b, Rounding m) {
  double q = double(a) / double(b);
  if (!std::isfinite(q) || b == 0)
    return float(q);
  // a - q b exactly (fma); a / b - q has its sign times b's.
  double r = std::fma(-q, double(b), double(a));
  // A stand-in of that sign far below any nonzero f - q.
  double tiny = std::numeric_limits<double>::denorm_min();
  double e = r == 0 ? 0 : ((r > 0) == (b > 0) ? tiny : -tiny);
  return roundDirected(q, e, m);
}
inline float ieeeRcp(float x, Rounding m) { return ieeeDiv(1.0f, x, m); }
inline float ieeeSqrt(float x, Rounding m) {
  double q = std::sqrt(double(x));
  if (!std::isfinite(q) || x <= 0)
    return float(q);
  double r = std::fma(-q, q, double(x)); // x - q^2: the sign of sqrt(x) - q
  double tiny = std::numeric_limits<double>::denorm_min();
  double e = r == 0 ? 0 : (r > 0 ? tiny : -tiny);
  return roundDirected(q, e, m);
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

//===----------------------------------------------------------------------===//
// Block scheduling
//===----------------------------------------------------------------------===//

/// Runs \p body(bx, by, bz) for every block of the grid \p gx x \p gy x
/// \p gz, on up to \p workers host threads (in sequence when <= 1). Stops
/// handing out blocks once \p st has failed.
template <typename Body>
inline void launch(Status &st, int workers, int64_t gx, int64_t gy, int64_t gz,
                   const Body &body) {
  if (gx <= 0 || gy <= 0 || gz <= 0)
    return;
  int64_t total = gx * gy * gz;
  auto runBlock = [&](int64_t b) {
    int64_t x = b % gx, y = (b / gx) % gy, z = b / (gx * gy);
    body(x, y, z);
  };
  if (workers <= 1 || total == 1) {
    for (int64_t b = 0; b < total && !st.hasFailed(); ++b)
      runBlock(b);
    return;
  }
  std::atomic<int64_t> next{0};
  auto work = [&] {
    for (int64_t b = next++; b < total && !st.hasFailed(); b = next++)
      runBlock(b);
  };
  int n = int(std::min<int64_t>(workers, total));
  std::vector<std::thread> pool;
  for (int i = 1; i < n; ++i)
    pool.emplace_back(work);
  work();
  for (std::thread &t : pool)
    t.join();
}

/// The grid-wide barrier of a cooperative launch (T.sync_grid): every block
/// runs on a host thread of its own, all at once, as a cooperative CUDA
/// launch keeps every block resident. A block that returns while others
/// wait at the barrier breaks it: those waits fail (on a GPU they would
/// never end).
class GridBarrier {
public:
  explicit GridBarrier(int64_t total) : total(total) {}
  /// Waits until every block of the grid has arrived; false when one
  /// returned instead.
  bool sync() {
    std::unique_lock<std::mutex> lock(mutex);
    if (broken)
      return false;
    int64_t generation = passed;
    if (++arrived + exited == total) {
      if (exited)
        broken = true;
      arrived = 0;
      ++passed;
      changed.notify_all();
      return !broken;
    }
    changed.wait(lock, [&] { return passed != generation || broken; });
    return !broken;
  }
  /// A block returned.
  void exit() {
    std::lock_guard<std::mutex> lock(mutex);
    ++exited;
    if (arrived > 0 && arrived + exited == total) {
      broken = true;
      changed.notify_all();
    }
  }

private:
  std::mutex mutex;
  std::condition_variable changed;
  int64_t total, arrived = 0, exited = 0, passed = 0;
  bool broken = false;
};

/// The barrier of the cooperative launch the calling host thread runs a
/// block of (null outside one).
inline GridBarrier *&currentGridBarrier() {
  static thread_local GridBarrier *grid = nullptr;
  return grid;
}

/// The most blocks a cooperative launch runs (one host thread each).
constexpr int64_t kMaxCooperativeBlocks = 4096;

/// launch() for a kernel that calls T.sync_grid: every block at once, each
/// on its own host thread, sharing one GridBarrier.
template <typename Body>
inline void launchCooperative(Status &st, const char *loc, int64_t gx,
                              int64_t gy, int64_t gz, const Body &body) {
  if (gx <= 0 || gy <= 0 || gz <= 0)
    return;
  int64_t total = gx * gy * gz;
  if (total > kMaxCooperativeBlocks) {
    char what[160];
    std::snprintf(what, sizeof what,
                  "a kernel that calls T.sync_grid runs every block at once; "
                  "%lld blocks are more than the CPU target runs (%lld)",
                  (long long)total, (long long)kMaxCooperativeBlocks);
    st.fail(loc, what);
    return;
  }
  GridBarrier grid(total);
  std::vector<std::thread> blocks;
  blocks.reserve(size_t(total));
  for (int64_t b = 0; b < total; ++b)
    blocks.emplace_back([&, b] {
      currentGridBarrier() = &grid;
      body(b % gx, (b / gx) % gy, b / (gx * gy));
      grid.exit();
    });
  for (std::thread &t : blocks)
    t.join();
}

/// The hardware barrier of a thread-block cluster (barrier.cluster.arrive /
/// .wait, PTX ISA): a block's arrival completes the current phase when
/// every block of the cluster has arrived; a wait ends once the phase of
/// the block's last arrival has completed. The CPU target runs a block as
/// one executor, so a block arrives once (its threads' arrivals are one
/// statement). A block that returns while others wait breaks the barrier.
class ClusterBarrier {
public:
  explicit ClusterBarrier(int64_t blocks) : blocks(blocks) {}
  /// Arrives; the phase the arrival belongs to.
  int64_t arrive() {
    std::lock_guard<std::mutex> lock(mutex);
    int64_t phase = completed;
    if (++arrived + exited == blocks)
      complete();
    return phase;
  }
  /// Waits for \p phase to complete; false when a block returned first.
  bool wait(int64_t phase) {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return completed > phase || broken; });
    return completed > phase;
  }
  /// A block returned.
  void exit() {
    std::lock_guard<std::mutex> lock(mutex);
    ++exited;
    if (arrived > 0 && arrived + exited == blocks) {
      broken = true;
      changed.notify_all();
    }
  }

private:
  void complete() {
    arrived = 0;
    ++completed;
    changed.notify_all();
  }
  std::mutex mutex;
  std::condition_variable changed;
  int64_t blocks, arrived = 0, exited = 0, completed = 0;
  bool broken = false;
};

/// The cluster the calling host thread runs a block of.
struct ClusterContext {
  ClusterBarrier *barrier = nullptr;
  /// The block's rank in its cluster (x fastest) and the cluster's size.
  int64_t rank = 0, size = 1;
  /// The phase of an arrival not yet waited for (-1: none).
  int64_t pending = -1;
};
inline ClusterContext &currentCluster() {
  static thread_local ClusterContext cluster;
  return cluster;
}

/// launch() for a kernel of thread-block clusters that synchronise
/// (T.cluster_arrive / wait / sync): the clusters one after the other, the
/// blocks of each at once, each on a host thread of its own (the GPU
/// schedules a cluster's blocks together). The grid's extents must be
/// multiples of the cluster's (as cudaLaunchKernelEx requires).
template <typename Body>
inline void launchClusters(Status &st, const char *loc, int64_t gx,
                           int64_t gy, int64_t gz, int64_t cx, int64_t cy,
                           int64_t cz, const Body &body) {
  if (gx <= 0 || gy <= 0 || gz <= 0)
    return;
  if (gx % cx || gy % cy || gz % cz) {
    char what[200];
    std::snprintf(what, sizeof what,
                  "the grid (%lld, %lld, %lld) is not a multiple of the "
                  "cluster dimensions (%lld, %lld, %lld)",
                  (long long)gx, (long long)gy, (long long)gz, (long long)cx,
                  (long long)cy, (long long)cz);
    st.fail(loc, what);
    return;
  }
  int64_t size = cx * cy * cz;
  for (int64_t z0 = 0; z0 < gz; z0 += cz)
    for (int64_t y0 = 0; y0 < gy; y0 += cy)
      for (int64_t x0 = 0; x0 < gx; x0 += cx) {
        ClusterBarrier barrier(size);
        std::vector<std::thread> blocks;
        blocks.reserve(size_t(size));
        for (int64_t r = 0; r < size; ++r)
          blocks.emplace_back([&, r] {
            ClusterContext &c = currentCluster();
            c = ClusterContext{&barrier, r, size, -1};
            body(x0 + r % cx, y0 + (r / cx) % cy, z0 + r / (cx * cy));
            barrier.exit();
            c = ClusterContext();
          });
        for (std::thread &t : blocks)
          t.join();
        if (st.hasFailed())
          return;
      }
}

/// T.cluster_arrive (\p wait false), T.cluster_wait (\p arrive false) and
/// T.cluster_sync (both) for the calling block. A block outside a cluster
/// launch is a cluster of one: the barrier completes at once.
inline void clusterBarrier(Status &st, const char *loc, bool arrive,
                           bool wait) {
  ClusterContext &c = currentCluster();
  if (arrive) {
    if (c.pending >= 0) {
      st.fail(loc, "T.cluster_arrive: the block arrived already and has not "
                   "waited (an arrival without T.cluster_wait)");
      return;
    }
    c.pending = c.barrier ? c.barrier->arrive() : 0;
  }
  if (!wait)
    return;
  if (c.pending < 0) {
    st.fail(loc, "T.cluster_wait without a T.cluster_arrive before it");
    return;
  }
  int64_t phase = c.pending;
  c.pending = -1;
  if (c.barrier && !c.barrier->wait(phase))
    st.fail(loc, "cluster barrier: a block of the cluster returned without "
                 "arriving (on a GPU the others would wait forever)");
}

/// T.sync_grid: waits for every block of the cooperative launch.
inline void syncGrid(Status &st, const char *loc) {
  GridBarrier *grid = currentGridBarrier();
  if (!grid)
    st.fail(loc, "T.sync_grid outside a cooperative launch");
  else if (!grid->sync())
    st.fail(loc, "T.sync_grid: a block of the grid returned without "
                 "reaching this barrier (every block must reach each grid "
                 "barrier; on a GPU the others would wait forever)");
}

//===----------------------------------------------------------------------===//
// The threads of a block (kernels with per-thread code)
//===----------------------------------------------------------------------===//
//
// A kernel that reads its thread index (T.get_thread_binding, lane and warp
// indices, warp shuffles and votes) runs the threads of each block one after
// the other, once per phase between two barriers: the generated code loops
// over the threads for every run of per-thread statements, keeps the values
// that live from one run to a later one in Lanes arrays, and keeps every
// T.alloc_local / T.alloc_var buffer once per thread (a leading dimension
// of the thread count, see lane()). A warp operation ends a run; it is then
// computed for each thread from the other lanes' values, as the PTX ISA
// defines it. Threads are numbered as CUDA numbers them (x fastest); warp w
// holds threads 32w .. 32w + 31.

/// One value of type T per thread of a block.
template <typename T> struct Lanes {
  std::unique_ptr<T[]> v;
  explicit Lanes(int64_t n) : v(new T[size_t(n > 0 ? n : 1)]()) {}
  T &operator[](int64_t t) const { return v[t]; }
};

/// Thread \p t's copy of a per-thread buffer whose copies are the leading
/// dimension of \p all.
template <typename T, int R>
inline View<T, R - 1> lane(const View<T, R> &all, int64_t t) {
  View<T, R - 1> v;
  v.base = all.base;
  v.origin = all.origin + t * all.stride[0];
  for (int d = 1; d < R; ++d) {
    v.shape[d - 1] = all.shape[d];
    v.stride[d - 1] = all.stride[d];
    v.lo[d - 1] = all.lo[d];
    v.hi[d - 1] = all.hi[d];
  }
  return v;
}

/// Equal values (NaNs equal to each other; small floats by value).
template <typename T> inline bool sameValue(const T &a, const T &b) {
  if constexpr (std::is_integral_v<T>) {
    return a == b;
  } else if constexpr (std::is_floating_point_v<T>) {
    return a == b || (a != a && b != b);
  } else {
    float x = float(a), y = float(b);
    return x == y || (x != x && y != y);
  }
}

/// Equal views: the same elements of the same buffer with the same bounds
/// (a tile operation after a barrier takes one view its threads agree on).
template <typename T, int R>
inline bool sameValue(const View<T, R> &a, const View<T, R> &b) {
  if (a.base != b.base || a.origin != b.origin)
    return false;
  for (int d = 0; d < R; ++d)
    if (a.shape[d] != b.shape[d] || a.stride[d] != b.stride[d] ||
        a.lo[d] != b.lo[d] || a.hi[d] != b.hi[d])
      return false;
  return true;
}

/// The value of \p v in the threads that \p active names (every thread when
/// null), which must agree: it is used once for the whole block (a loop
/// bound, a loop exit, an operand of a tile operation). A disagreement is
/// an error naming two threads; T() when no thread is active.
template <typename T>
inline T uniform(Status &st, const char *loc, const char *what,
                 const Lanes<T> &v, const Lanes<uint8_t> *active, int64_t n) {
  int64_t first = -1;
  for (int64_t t = 0; t < n; ++t) {
    if (active && !(*active)[t])
      continue;
    if (first < 0) {
      first = t;
      continue;
    }
    if (!sameValue(v[t], v[first])) {
      char msg[320];
      std::snprintf(msg, sizeof msg,
                    "%s differs between thread %lld and thread %lld of the "
                    "block; the CPU target uses it once for the whole block",
                    what, (long long)first, (long long)t);
      st.fail(loc, msg);
      break;
    }
  }
  return first < 0 ? T() : v[first];
}

/// The first thread that \p active names (every thread when null); 0 when
/// none is.
inline int64_t firstActive(const Lanes<uint8_t> *active, int64_t n) {
  for (int64_t t = 0; t < n; ++t)
    if (!active || (*active)[t])
      return t;
  return 0;
}

/// Whether the copies of a per-thread buffer (\p all: thread t's copy is
/// `lane(all, t)`) hold the same values in every thread that \p active
/// names: a tile operation reads one thread's copy. Otherwise an error
/// naming two threads that differ, and false.
template <typename T, int R>
inline bool lanesAgree(Status &st, const char *loc, const char *what,
                       const View<T, R> &all, const Lanes<uint8_t> *active,
                       int64_t n) {
  int64_t first = firstActive(active, n);
  int64_t per = 1;
  for (int d = 1; d < R; ++d)
    per *= all.shape[d];
  for (int64_t t = first + 1; t < n; ++t) {
    if (active && !(*active)[t])
      continue;
    for (int64_t e = 0; e < per; ++e) {
      int64_t idx[R] = {};
      int64_t rest = e;
      for (int d = R - 1; d >= 1; --d) {
        idx[d] = rest % all.shape[d];
        rest /= all.shape[d];
      }
      int64_t a[R], b[R];
      std::copy(idx, idx + R, a);
      std::copy(idx, idx + R, b);
      a[0] = first;
      b[0] = t;
      if (sameValue(all.at(a), all.at(b)))
        continue;
      char msg[320];
      std::snprintf(msg, sizeof msg,
                    "%s differs between thread %lld and thread %lld of the "
                    "block; the CPU target reads it once for the whole block",
                    what, (long long)first, (long long)t);
      st.fail(loc, msg);
      return false;
    }
  }
  return true;
}

/// Whether a tile operation under a condition on the thread index runs: it
/// is one operation of the threads that reach it (TileLang lays it out for
/// them), so it runs once when any thread is active.
inline bool anyThread(const Lanes<uint8_t> *active, int64_t n) {
  if (!active)
    return true;
  for (int64_t t = 0; t < n; ++t)
    if ((*active)[t])
      return true;
  return false;
}

/// Whether a barrier of the whole block (T.sync_threads, a block vote) is
/// reached: by every thread (true) or by none (false). Reached by some
/// threads only, it would never complete on the GPU: an error naming a
/// thread that reaches it and one that does not.
inline bool allThreads(Status &st, const char *loc, const char *what,
                       const Lanes<uint8_t> *active, int64_t n) {
  if (!active)
    return true;
  int64_t in = -1, out = -1;
  for (int64_t t = 0; t < n; ++t) {
    if ((*active)[t]) {
      if (in < 0)
        in = t;
    } else if (out < 0) {
      out = t;
    }
  }
  if (in < 0)
    return false;
  if (out < 0)
    return true;
  char msg[320];
  std::snprintf(msg, sizeof msg,
                "%s is a barrier of the whole block, but thread %lld reaches "
                "it and thread %lld does not",
                what, (long long)in, (long long)out);
  st.fail(loc, msg);
  return false;
}

/// Whether the threads of \p active (all \p n without a mask) that reach a
/// named barrier of \p count threads (T.sync_threads(id, count) outside
/// fibers) are that many, or none. Otherwise the GPU would wait forever
/// (fewer) or release them in groups the CPU target does not model (more):
/// an error saying how many reach it.
inline bool namedBarrierThreads(Status &st, const char *loc, const char *what,
                                const Lanes<uint8_t> *active, int64_t n,
                                int64_t count) {
  int64_t reached = 0;
  for (int64_t t = 0; t < n; ++t)
    reached += !active || (*active)[t] ? 1 : 0;
  if (reached == 0 || reached == count)
    return true;
  char msg[320];
  std::snprintf(msg, sizeof msg,
                "%s is a barrier of %lld threads, but %lld threads reach it",
                what, (long long)count, (long long)reached);
  st.fail(loc, msg);
  return false;
}

/// The lanes that take part in a warp operation of thread \p t (bit l:
/// thread 32 * warp + l): the lanes of \p mask that exist (the last warp of
/// a block may be short). Thread t must be in its own mask and every lane
/// of the mask must reach the operation (\p active; null: every thread),
/// as `*.sync` instructions require; otherwise an error and false.
inline bool warpMembers(Status &st, const char *loc, const char *what,
                        int64_t t, int64_t n, uint32_t mask,
                        const Lanes<uint8_t> *active, uint32_t &members) {
  int64_t base = t / 32 * 32;
  int lane = int(t % 32);
  uint32_t exist = n - base >= 32 ? ~0u : ((1u << (n - base)) - 1);
  char msg[320];
  if (!(mask >> lane & 1u)) {
    std::snprintf(msg, sizeof msg,
                  "thread %lld calls %s with mask 0x%08x, which does not name "
                  "its own lane %d",
                  (long long)t, what, mask, lane);
    st.fail(loc, msg);
    return false;
  }
  members = mask & exist;
  if (active)
    for (int l = 0; l < 32; ++l)
      if ((members >> l & 1u) && !(*active)[base + l]) {
        std::snprintf(msg, sizeof msg,
                      "%s: lane %d of warp %lld is in the mask but does not "
                      "reach it (lane %d does)",
                      what, l, (long long)(t / 32), lane);
        st.fail(loc, msg);
        return false;
      }
  return true;
}

/// The lanes of thread \p t's warp that exist and are active (__activemask).
inline uint32_t activeLanes(int64_t t, int64_t n,
                            const Lanes<uint8_t> *active) {
  int64_t base = t / 32 * 32;
  uint32_t m = 0;
  for (int l = 0; l < 32 && base + l < n; ++l)
    if (!active || (*active)[base + l])
      m |= 1u << l;
  return m;
}

/// The four shfl.sync modes.
enum class Shuffle { Idx, Up, Down, Bfly };

/// The thread whose value thread \p t receives from `__shfl*_sync(mask, v,
/// b, width)`, by the PTX ISA's shfl.sync: CUDA passes c = ((32 - width) <<
/// 8) | (Up ? 0 : 31), so segmask = 32 - width and the clamp is 31 (0 for
/// Up); maxLane = (lane & segmask) | (clamp & ~segmask), minLane = lane &
/// segmask; Up: j = lane - b, valid when j >= maxLane; Down: j = lane + b,
/// Bfly: j = lane ^ b, Idx: j = minLane | (b & ~segmask), valid when j <=
/// maxLane; an invalid j reads the thread's own lane. b is taken mod 32 (its
/// five low bits). The source lane must be one of \p members; -1 (and an
/// error) when it is not or when width is not a power of two in 1..32
/// (width 64, HIP's wavefront, is waveShuffleSource's).
inline int64_t shuffleSource(Status &st, const char *loc, const char *what,
                             Shuffle mode, int64_t t, uint32_t members,
                             int64_t b, int64_t width) {
  char msg[320];
  if (width < 1 || width > 32 || (width & (width - 1))) {
    std::snprintf(msg, sizeof msg,
                  "%s: width %lld is not a power of two in 1..32", what,
                  (long long)width);
    st.fail(loc, msg);
    return -1;
  }
  int lane = int(t % 32);
  int bval = int(b & 31);
  int segmask = int(32 - width) & 31;
  int clamp = mode == Shuffle::Up ? 0 : 31;
  int maxLane = (lane & segmask) | (clamp & ~segmask);
  int minLane = lane & segmask;
  int j = lane;
  bool valid = false;
  switch (mode) {
  case Shuffle::Up:
    j = lane - bval;
    valid = j >= maxLane;
    break;
  case Shuffle::Down:
    j = lane + bval;
    valid = j <= maxLane;
    break;
  case Shuffle::Bfly:
    j = lane ^ bval;
    valid = j <= maxLane;
    break;
  case Shuffle::Idx:
    j = minLane | (bval & ~segmask);
    valid = j <= maxLane;
    break;
  }
  if (!valid)
    j = lane;
  if (!(members >> j & 1u)) {
    std::snprintf(msg, sizeof msg,
                  "%s: thread %lld reads lane %d, which does not take part "
                  "(not in the mask, or past the end of the block)",
                  what, (long long)t, j);
    st.fail(loc, msg);
    return -1;
  }
  return t - lane + j;
}

/// The thread whose value thread \p t receives from a shuffle of width 64,
/// which only HIP's wavefronts of 64 lanes have (tlc_device/hip/warp.h):
/// threads t / 64 * 64 .. + 63 are one segment; Idx reads lane b % 64, Up
/// lane - b, Down lane + b, Bfly lane ^ b, and a source outside the segment
/// reads the thread's own lane. The source must exist (below \p n) and be
/// active; -1 (and an error) when it is not. Programs written for
/// wavefronts (tilelang.intrinsics' MFMA emitter) are checked against this.
inline int64_t waveShuffleSource(Status &st, const char *loc, const char *what,
                                 Shuffle mode, int64_t t, int64_t n,
                                 const Lanes<uint8_t> *active, int64_t b) {
  int64_t lane = t % 64;
  int64_t j = mode == Shuffle::Idx    ? (b & 63)
              : mode == Shuffle::Up   ? lane - b
              : mode == Shuffle::Down ? lane + b
                                      : lane ^ b;
  if (j < 0 || j >= 64)
    j = lane;
  int64_t src = t - lane + j;
  if (src >= n || (active && !(*active)[src])) {
    char msg[320];
    std::snprintf(msg, sizeof msg,
                  "%s: thread %lld reads lane %lld of its wavefront of 64, "
                  "which does not take part (past the end of the block, or "
                  "not active)",
                  what, (long long)t, (long long)j);
    st.fail(loc, msg);
    return -1;
  }
  return src;
}

/// The butterfly all-reduce of the CUDA target's warpAllReduce<Op, 32>
/// (tlc_device/cuda/reduce.h): offsets 1, 2, 4, 8, 16, each lane combining
/// its value with lane ^ offset's as `op(own, other)`, in that order, so a
/// float sum rounds as the GPU's does. \p value(l) is lane l's value.
template <typename T, typename Op, typename Get>
inline T warpAllReduce(int lane, Op op, Get value) {
  T v[32];
  for (int l = 0; l < 32; ++l)
    v[l] = value(l);
  for (int offset = 1; offset < 32; offset *= 2) {
    T next[32];
    for (int l = 0; l < 32; ++l)
      next[l] = op(v[l], v[l ^ offset]);
    for (int l = 0; l < 32; ++l)
      v[l] = next[l];
  }
  return v[lane];
}

/// Checks the call's ABI version and parameter/symbol counts; false (with
/// a message) when they do not match the kernel's.
inline bool checkArgs(const tlc_cpu_args *args, uint32_t numParams,
                      uint32_t numSymbols) {
  const char *what = nullptr;
  if (!args)
    return false;
  if (args->abiVersion != TLC_CPU_ABI_VERSION)
    what = "ABI version mismatch between runtime and kernel";
  else if (args->numParams != numParams)
    what = "wrong number of parameters";
  else if (args->numSymbols != numSymbols)
    what = "wrong number of symbol values";
  if (!what)
    return true;
  if (args->error && args->errorSize)
    std::snprintf(args->error, args->errorSize, "error: %s", what);
  return false;
}

//===----------------------------------------------------------------------===//
// Thread groups that wait for each other: fibers and mbarriers
//===----------------------------------------------------------------------===//
//
// A kernel whose threads wait for each other (mbarrier waits, named
// barriers of part of the block: hand-written warp-specialised kernels)
// cannot run its branches one after the other: the producer's branch waits
// for the consumer's arrivals and the other way round. There each branch
// on the thread index that holds such a wait runs as a fiber (ucontext) of
// the block's host thread, with the threads that take it; the fibers run
// one at a time and switch only where one waits, so a block runs the same
// way every time. A wait no fiber can end (no arrival or fiber completion
// over a whole round of the waiting fibers) is reported as a deadlock.

/// The fibers of the block that a host thread runs, and their scheduler.
class Fibers {
public:
  struct Fiber {
    ucontext_t context;
    std::function<void()> body;
    char *stack = nullptr;
    bool done = false;
    int group = 0;
    /// The wait the fiber gave way at last.
    const char *waitLoc = nullptr;
    const char *waitWhat = nullptr;
  };

  /// The scheduler of the calling host thread.
  static Fibers &current() {
    thread_local Fibers f;
    return f;
  }
  ~Fibers() {
    for (char *s : freeStacks)
      std::free(s);
  }

  /// Forgets the fibers a block that failed left behind (never resumed:
  /// the frames they refer to are gone); each block starts with this.
  void reset() {
    for (auto &f : fibers)
      if (f->stack)
        freeStacks.push_back(f->stack);
    fibers.clear();
    running = nullptr;
  }

  /// A new group of fibers that the caller joins.
  int newGroup() { return ++lastGroup; }

  /// Starts \p body as a fiber of \p group; it first runs when the caller
  /// waits (join or wait).
  void spawn(int group, std::function<void()> body) {
    auto f = std::make_unique<Fiber>();
    f->body = std::move(body);
    f->group = group;
    if (!freeStacks.empty()) {
      f->stack = freeStacks.back();
      freeStacks.pop_back();
    } else {
      f->stack = static_cast<char *>(std::malloc(kStackBytes));
    }
    getcontext(&f->context);
    f->context.uc_stack.ss_sp = f->stack;
    f->context.uc_stack.ss_size = kStackBytes;
    f->context.uc_link = &mainContext;
    makecontext(&f->context, &Fibers::entry, 0);
    fibers.push_back(std::move(f));
    ++progress;
  }

  /// Something a waiter may be waiting for happened (an arrival).
  void madeProgress() { ++progress; }

  /// Waits until \p ready() holds: a fiber gives way to the others; the
  /// block's own code runs the fibers until it does. False (with \p st
  /// failed) on a deadlock or another error.
  template <typename Ready>
  bool waitUntil(Status &st, const char *loc, const char *what,
                 const Ready &ready) {
    if (running) {
      while (!ready()) {
        if (st.hasFailed())
          return false;
        running->waitLoc = loc;
        running->waitWhat = what;
        swapcontext(&running->context, &mainContext);
      }
      return !st.hasFailed();
    }
    while (!ready()) {
      if (fibers.empty() || !runRound()) {
        // Name a waiting fiber's wait rather than the join.
        for (const auto &f : fibers)
          if (!f->done && f->waitLoc) {
            loc = f->waitLoc;
            what = f->waitWhat;
            break;
          }
        char msg[320];
        std::snprintf(msg, sizeof msg,
                      "deadlock: %s waits for an arrival that none of the "
                      "block's threads can make any more",
                      what);
        st.fail(loc, msg);
        drain();
        return false;
      }
      if (st.hasFailed()) {
        drain();
        return false;
      }
    }
    return !st.hasFailed();
  }

  /// Waits until every fiber of \p group has finished.
  void join(Status &st, const char *loc, int group) {
    waitUntil(st, loc, "a branch", [&] {
      for (const auto &f : fibers)
        if (f->group == group && !f->done)
          return false;
      return true;
    });
    reap();
  }

private:
  static constexpr size_t kStackBytes = size_t(8) << 20;

  static void entry() {
    Fibers &self = current();
    Fiber *f = self.running;
    f->body();
    f->done = true;
    ++self.progress;
    // uc_link returns to mainContext.
  }

  /// Resumes every unfinished fiber once; false when none made progress.
  bool runRound() {
    uint64_t before = progress;
    for (size_t i = 0; i < fibers.size(); ++i) {
      Fiber *f = fibers[i].get();
      if (f->done)
        continue;
      running = f;
      swapcontext(&mainContext, &f->context);
      running = nullptr;
    }
    reap();
    return progress != before;
  }

  /// Lets the fibers run to their end once the block has failed (each
  /// returns at its next wait).
  void drain() {
    while (true) {
      bool any = false;
      for (size_t i = 0; i < fibers.size(); ++i) {
        Fiber *f = fibers[i].get();
        if (f->done)
          continue;
        any = true;
        running = f;
        swapcontext(&mainContext, &f->context);
        running = nullptr;
      }
      if (!any)
        break;
    }
    reap();
  }

  void reap() {
    if (running)
      return;
    for (auto &f : fibers)
      if (f->done && f->stack) {
        freeStacks.push_back(f->stack);
        f->stack = nullptr;
      }
    fibers.erase(
        std::remove_if(fibers.begin(), fibers.end(),
                       [](const std::unique_ptr<Fiber> &f) { return f->done; }),
        fibers.end());
  }

  ucontext_t mainContext;
  std::vector<std::unique_ptr<Fiber>> fibers;
  std::vector<char *> freeStacks;
  Fiber *running = nullptr;
  uint64_t progress = 0;
  int lastGroup = 0;
};

/// An mbarrier (PTX ISA, "mbarrier"): the pending arrivals of the current
/// phase (bits 0-19), the arrival count (bits 20-39), the current phase's
/// parity (bit 40) and its pending transaction bytes (bits 41-63), in the
/// 64-bit word of a T.alloc_barrier element.
namespace mbarrier {
constexpr uint64_t kCountMask = (uint64_t(1) << 20) - 1;
inline uint64_t pending(uint64_t b) { return b & kCountMask; }
inline uint64_t expected(uint64_t b) { return b >> 20 & kCountMask; }
inline uint64_t phase(uint64_t b) { return b >> 40 & 1; }
inline uint64_t tx(uint64_t b) { return b >> 41; }
inline uint64_t make(uint64_t pending, uint64_t expected, uint64_t phase,
                     uint64_t tx) {
  return pending | expected << 20 | phase << 40 | tx << 41;
}
} // namespace mbarrier

/// mbarrier.init: \p count arrivals complete each phase; phase 0.
inline void mbarrierInit(uint64_t *bar, int64_t count) {
  *bar = mbarrier::make(uint64_t(count), uint64_t(count), 0, 0);
}

/// Completes the current phase when its arrivals and bytes are all in.
inline void mbarrierSettle(uint64_t *bar) {
  uint64_t b = *bar;
  if (mbarrier::pending(b) == 0 && mbarrier::tx(b) == 0)
    *bar = mbarrier::make(mbarrier::expected(b), mbarrier::expected(b),
                          mbarrier::phase(b) ^ 1, 0);
  Fibers::current().madeProgress();
}

/// mbarrier.arrive: one arrival of the calling thread.
inline void mbarrierArrive(Status &st, const char *loc, uint64_t *bar) {
  uint64_t b = *bar;
  if (mbarrier::pending(b) == 0) {
    st.fail(loc, "an mbarrier arrival beyond the barrier's arrival count");
    return;
  }
  *bar = b - 1;
  mbarrierSettle(bar);
}

/// mbarrier.expect_tx: the current phase also waits for \p bytes.
inline void mbarrierExpectTx(uint64_t *bar, uint64_t bytes) {
  uint64_t b = *bar;
  *bar = mbarrier::make(mbarrier::pending(b), mbarrier::expected(b),
                        mbarrier::phase(b), mbarrier::tx(b) + bytes);
}

/// complete_tx (a TMA copy's completion): \p bytes of the current phase's
/// expected transaction bytes have arrived. The CPU target completes a
/// copy where it is issued, so the bytes must have been expected first.
inline void mbarrierCompleteTx(Status &st, const char *loc, uint64_t *bar,
                               uint64_t bytes) {
  uint64_t b = *bar;
  if (mbarrier::tx(b) < bytes) {
    st.fail(loc, "a TMA copy completes more bytes on its mbarrier than the "
                 "phase expects (T.mbarrier_expect_tx before the copy)");
    return;
  }
  *bar = mbarrier::make(mbarrier::pending(b), mbarrier::expected(b),
                        mbarrier::phase(b), mbarrier::tx(b) - bytes);
  mbarrierSettle(bar);
}

/// mbarrier.try_wait.parity: whether the phase of parity \p parity has
/// completed (the current phase has the other parity).
inline bool mbarrierPhaseDone(const uint64_t *bar, uint64_t parity) {
  return mbarrier::phase(*bar) != (parity & 1);
}

/// The threads of \p active that reach a named barrier (bar.sync id, n)
/// arrive together, and go on once \p count threads have arrived.
struct NamedBarriers {
  int64_t arrived[16] = {};
  uint64_t generation[16] = {};
};

inline bool namedBarrierSync(Status &st, const char *loc, NamedBarriers &nb,
                             int id, int64_t count, int64_t threads) {
  if (id < 0 || id > 15 || count <= 0) {
    st.fail(loc, "a named barrier needs an id in 0..15 and a positive "
                 "thread count");
    return false;
  }
  uint64_t gen = nb.generation[id];
  nb.arrived[id] += threads;
  if (nb.arrived[id] > count) {
    st.fail(loc, "more threads arrive at a named barrier than its thread "
                 "count");
    return false;
  }
  if (nb.arrived[id] == count) {
    nb.arrived[id] = 0;
    ++nb.generation[id];
    Fibers::current().madeProgress();
    return true;
  }
  return Fibers::current().waitUntil(
      st, loc, "a named barrier (T.sync_threads with an id)",
      [&] { return nb.generation[id] != gen; });
}

/// The number of threads of \p active (all \p n without a mask).
inline int64_t countThreads(const Lanes<uint8_t> *active, int64_t n) {
  if (!active)
    return n;
  int64_t c = 0;
  for (int64_t t = 0; t < n; ++t)
    c += (*active)[t] ? 1 : 0;
  return c;
}

} // namespace cpu
} // namespace tlc

// CUDA device-library functions that programs call by name (T.call_extern,
// T.import_source text), for the CPU target. Fences: the threads of a block
// run in turn on one host thread, so a block-scope fence only has to keep
// the compiler from moving accesses across it; blocks may run on several
// host threads, so device and system scope are a full fence. The fast-math
// functions compute as the IEEE ones (the CPU target keeps IEEE math).
inline void __threadfence_block() {
  std::atomic_signal_fence(std::memory_order_seq_cst);
}
inline void __threadfence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline void __threadfence_system() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
}
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline float __powf(float a, float b) { return std::pow(a, b); }
inline float __fdividef(float a, float b) { return a / b; }

#endif // TLC_DEVICE_CPU_H
