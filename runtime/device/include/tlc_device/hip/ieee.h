//===- ieee.h - f32 arithmetic with a chosen rounding (HIP) -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// CUDA's __fadd_rz & co. (T.ieee_add/sub/mul/fdiv/fmaf/frcp/fsqrt with
// rounding "rn", "rz", "ru" or "rd"). CDNA's f32 instructions round to
// nearest; the other roundings are derived: the result rounded to nearest
// from a double computation, f, then the sign of (exact - f) from an exact
// residual (the error of a double sum by two-sum, or a - f b, a - f f by a
// double fma, exact because f b and f f have 48 significant bits), and f
// moved one step towards +inf or -inf when the rounding asks for it.
// Infinite or NaN operands give the nearest result (those results are
// exact). The header is plain C++ (the sim device compiles it as is).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_IEEE_H
#define TLC_DEVICE_HIP_IEEE_H

#include "tlc_device/hip/common.h"

namespace tlc {
namespace hip {
namespace ieee {

enum Rounding { RN, RZ, RU, RD };

/// The next f32 after \p f towards +inf (\p up) or -inf.
TLC_DEVICE float step(float f, bool up) {
  if (f == 0.0f)
    return up ? 1.4e-45f : -1.4e-45f;
  uint32_t bits = __builtin_bit_cast(uint32_t, f);
  bits = (f > 0.0f) == up ? bits + 1 : bits - 1;
  return __builtin_bit_cast(float, bits);
}

/// The rounding \p r of the exact value x, given f = x rounded to nearest
/// (or within one f32 step of x) and \p sign = sign(x - f).
TLC_DEVICE float round(float f, int sign, Rounding r) {
  if (sign == 0 || r == RN || f != f)
    return f;
  if (r == RZ) // towards zero: only a step that shrinks |f|
    return sign > 0 && f < 0.0f   ? step(f, true)
           : sign < 0 && f > 0.0f ? step(f, false)
                                  : f;
  if (sign > 0)
    return r == RU ? step(f, true) : f;
  return r == RD ? step(f, false) : f;
}

TLC_DEVICE int signOf(double x) { return x > 0.0 ? 1 : x < 0.0 ? -1 : 0; }

/// f32(s + e) for s + e an exact sum (|e| <= half an ulp of s).
TLC_DEVICE float roundSum(double s, double e, Rounding r) {
  float f = float(s);
  if (__builtin_isinf(f))
    return round(f, f > 0.0f ? -1 : 1, r);
  double d = s - double(f); // exact
  return round(f, d != 0.0 ? signOf(d) : signOf(e), r);
}

/// The exact a + b as s + e (two-sum).
TLC_DEVICE float add(float a, float b, Rounding r) {
  if (!__builtin_isfinite(a) || !__builtin_isfinite(b) || r == RN)
    return a + b;
  double x = a, y = b, s = x + y, t = s - x;
  double e = (x - (s - t)) + (y - t);
  return roundSum(s, e, r);
}
TLC_DEVICE float sub(float a, float b, Rounding r) { return add(a, -b, r); }
TLC_DEVICE float mul(float a, float b, Rounding r) {
  if (!__builtin_isfinite(a) || !__builtin_isfinite(b) || r == RN)
    return a * b;
  return roundSum(double(a) * double(b), 0.0, r); // exact in double
}
TLC_DEVICE float fma(float a, float b, float c, Rounding r) {
  if (!__builtin_isfinite(a) || !__builtin_isfinite(b) ||
      !__builtin_isfinite(c) || r == RN)
    return __builtin_fmaf(a, b, c);
  double p = double(a) * double(b), y = c, s = p + y, t = s - p;
  double e = (p - (s - t)) + (y - t);
  return roundSum(s, e, r);
}
TLC_DEVICE float div(float a, float b, Rounding r) {
  if (!__builtin_isfinite(a) || !__builtin_isfinite(b) || b == 0.0f || r == RN)
    return a / b;
  float f = float(double(a) / double(b));
  if (__builtin_isinf(f))
    return round(f, f > 0.0f ? -1 : 1, r);
  // sign(a / b - f) = sign(a - f b) sign(b); a - f b is exact.
  double rest = __builtin_fma(-double(f), double(b), double(a));
  return round(f, signOf(rest) * (b > 0.0f ? 1 : -1), r);
}
TLC_DEVICE float rcp(float a, Rounding r) { return div(1.0f, a, r); }
TLC_DEVICE float sqrt(float a, Rounding r) {
  if (!(a > 0.0f) || !__builtin_isfinite(a) || r == RN)
    return __builtin_sqrtf(a);
  float f = float(__builtin_sqrt(double(a)));
  double rest = __builtin_fma(-double(f), double(f), double(a)); // exact
  return round(f, signOf(rest), r);
}
/// 1 / sqrt(a) rounded to nearest (in double, then to f32).
TLC_DEVICE float rsqrt(float a) {
  return float(1.0 / __builtin_sqrt(double(a)));
}

} // namespace ieee
} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_IEEE_H
