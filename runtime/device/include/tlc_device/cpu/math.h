//===- cpu/math.h - Integer and IEEE arithmetic of CPU kernels --*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Integer helpers with the semantics of Python and MLIR's arith (floor and
/// truncating division and remainder, 0 for a zero divisor), NaN-propagating
/// maximum / minimum, bit casts, and single-precision arithmetic with a
/// rounding direction (T.ieee_*, CUDA's __f*_rn/rz/ru/rd).
///
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CPU_MATH_H
#define TLC_DEVICE_CPU_MATH_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace tlc {
namespace cpu {

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
  std::memcpy(static_cast<void *>(&r), &v, sizeof(To));
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
/// The exact value s + err (|err| at most half an ulp of s) rounded to a
/// float by round-to-odd: inexact values get the neighbour whose last bit
/// is 1. Rounding that float to nearest into a format at least two bits
/// narrower (f16, bf16) then gives the correctly rounded value of s + err,
/// which rounding through float to nearest would not always.
inline float roundToOddFloat(double s, double err) {
  float f = float(s);
  if (!std::isfinite(f))
    return f;
  // s - f is exact (f and s are within a factor of two, or f is 0 and s is
  // tiny); adding err keeps the sign of the exact difference.
  double r = (double(s) - double(f)) + err;
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  if (r == 0 || (bits & 1))
    return f;
  return std::nextafter(f, r > 0 ? std::numeric_limits<float>::infinity()
                                 : -std::numeric_limits<float>::infinity());
}
/// a * b + c of three 16-bit floats (held as floats), rounded to odd into a
/// float for one final rounding to the 16-bit format (T.fma on f16/bf16).
inline float fmaToOdd(float a, float b, float c) {
  double e;
  double s = twoSum(double(a) * double(b), c, e); // the product is exact
  return std::isfinite(s) ? roundToOddFloat(s, e) : float(s);
}
/// a * b of two 16-bit floats (exact in double), rounded to odd into a float
/// (T.fmul on f16/bf16).
inline float mulToOdd(float a, float b) {
  return roundToOddFloat(double(a) * double(b), 0);
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

} // namespace cpu
} // namespace tlc

#endif // TLC_DEVICE_CPU_MATH_H
