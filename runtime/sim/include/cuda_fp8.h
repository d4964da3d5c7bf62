//===- cuda_fp8.h - fp8 formats on the simulator ----------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// CUDA's fp8 conversion API (__nv_cvt_*): E4M3 (OCP e4m3fn: bias 7, no
// infinities, S.1111.111 is NaN, largest finite 448) and E5M2 (bias 15,
// IEEE-like, largest finite 57344). float -> fp8 rounds to the nearest
// representable value, ties to the even code, found in the table of every
// code's value; __NV_SATFINITE clamps out-of-range values (infinities
// included) to the largest finite one.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_SIM_CUDA_FP8_H
#define TLC_SIM_CUDA_FP8_H

#include "cuda_fp16.h"

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short __nv_fp8x2_storage_t;
enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE };
enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 };

namespace tlc {
namespace sim {

/// The value of fp8 code \p code (sign bit 7).
TLC_SIM_NO_SHADOW inline double
fp8ValueBits(unsigned code, __nv_fp8_interpretation_t fmt) {
  int mbits = fmt == __NV_E4M3 ? 3 : 2, bias = fmt == __NV_E4M3 ? 7 : 15;
  unsigned e = (code >> mbits) & (fmt == __NV_E4M3 ? 15u : 31u);
  unsigned m = code & ((1u << mbits) - 1);
  double sign = code & 0x80 ? -1.0 : 1.0;
  if (fmt == __NV_E4M3 && e == 15 && m == 7)
    return NAN;
  if (fmt == __NV_E5M2 && e == 31)
    return m ? NAN : sign * INFINITY;
  if (e == 0)
    return sign * std::ldexp(double(m), 1 - bias - mbits);
  return sign * std::ldexp(double(m + (1u << mbits)), int(e) - bias - mbits);
}

inline double fp8Value(unsigned code, __nv_fp8_interpretation_t fmt) {
  return shadeResult(fp8ValueBits(code, fmt), code);
}

TLC_SIM_NO_SHADOW inline __nv_fp8_storage_t
fp8FromFloatBits(float x, __nv_saturation_t sat,
                 __nv_fp8_interpretation_t fmt) {
  unsigned sign = std::signbit(x) ? 0x80u : 0u;
  unsigned maxCode = fmt == __NV_E4M3 ? 0x7eu : 0x7bu;
  if (std::isnan(x))
    return static_cast<__nv_fp8_storage_t>(0x7fu | sign);
  double a = std::fabs(double(x));
  if (a > fp8ValueBits(maxCode, fmt)) {
    // Above the largest finite value: saturate, or round to infinity past
    // the halfway point (E5M2; E4M3 has no infinity and gives NaN).
    double top = fp8ValueBits(maxCode, fmt);
    double halfway = top + (top - fp8ValueBits(maxCode - 1, fmt)) / 2;
    if (sat == __NV_SATFINITE || a < halfway)
      return static_cast<__nv_fp8_storage_t>(maxCode | sign);
    return static_cast<__nv_fp8_storage_t>((fmt == __NV_E4M3 ? 0x7fu : 0x7cu) |
                                           sign);
  }
  // Positive codes are ordered by value: find the neighbours of a.
  unsigned lo = 0;
  while (lo < maxCode && fp8ValueBits(lo + 1, fmt) <= a)
    ++lo;
  unsigned pick = lo;
  if (lo < maxCode && fp8ValueBits(lo, fmt) != a) {
    double dl = a - fp8ValueBits(lo, fmt), dh = fp8ValueBits(lo + 1, fmt) - a;
    pick = dh < dl || (dh == dl && (lo & 1u)) ? lo + 1 : lo;
  }
  return static_cast<__nv_fp8_storage_t>(pick | sign);
}

/// \p x rounded to fp8 (saturating with __NV_SATFINITE).
inline __nv_fp8_storage_t fp8FromFloat(float x, __nv_saturation_t sat,
                                       __nv_fp8_interpretation_t fmt) {
  return shadeResult(fp8FromFloatBits(x, sat, fmt), x);
}

} // namespace sim
} // namespace tlc

inline __nv_fp8_storage_t __nv_cvt_float_to_fp8(float x, __nv_saturation_t sat,
                                                __nv_fp8_interpretation_t fmt) {
  return tlc::sim::fp8FromFloat(x, sat, fmt);
}
inline __nv_fp8x2_storage_t
__nv_cvt_float2_to_fp8x2(float2 x, __nv_saturation_t sat,
                         __nv_fp8_interpretation_t fmt) {
  return static_cast<__nv_fp8x2_storage_t>(
      tlc::sim::fp8FromFloat(x.x, sat, fmt) |
      (tlc::sim::fp8FromFloat(x.y, sat, fmt) << 8));
}
/// fp8 -> half is exact (every fp8 value is a half).
inline __half_raw __nv_cvt_fp8_to_halfraw(__nv_fp8_storage_t x,
                                          __nv_fp8_interpretation_t fmt) {
  return __half(float(tlc::sim::fp8Value(x, fmt)));
}

struct __nv_fp8_e4m3 {
  __nv_fp8_storage_t __x;
  __nv_fp8_e4m3() = default;
  explicit __nv_fp8_e4m3(float f)
      : __x(tlc::sim::fp8FromFloat(f, __NV_SATFINITE, __NV_E4M3)) {}
  operator float() const { return float(tlc::sim::fp8Value(__x, __NV_E4M3)); }
};
struct __nv_fp8_e5m2 {
  __nv_fp8_storage_t __x;
  __nv_fp8_e5m2() = default;
  explicit __nv_fp8_e5m2(float f)
      : __x(tlc::sim::fp8FromFloat(f, __NV_SATFINITE, __NV_E5M2)) {}
  operator float() const { return float(tlc::sim::fp8Value(__x, __NV_E5M2)); }
};

#endif // TLC_SIM_CUDA_FP8_H
