//===- cuda_fp16.h - __half on the simulator --------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The parts of CUDA's __half API that tlc's device headers and generated
// code use, for host compilation by the `sim` device: IEEE binary16 storage,
// conversions rounding to nearest even (the host compiler's _Float16),
// arithmetic through float rounded back to half, __half2 pairs.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_SIM_CUDA_FP16_H
#define TLC_SIM_CUDA_FP16_H

#include "tlc_sim/builtins.h"

struct __half_raw {
  unsigned short x;
};

struct __half {
  unsigned short __x;
  __half() = default;
  __half(__half_raw r) : __x(r.x) {}
  __half(float f) { *this = fromFloat(f); }
  __half(double f) { *this = fromFloat(float(f)); }
  __half(int i) { *this = fromFloat(float(i)); }
  /// Exact, by the bits (sign, 5-bit exponent biased by 15, 10-bit
  /// fraction; subnormals renormalised).
  operator float() const {
    return tlc::sim::shadeResult(toFloat(__x), __x);
  }
  TLC_SIM_NO_SHADOW static float toFloat(unsigned short x) {
    uint32_t sign = uint32_t(x & 0x8000u) << 16;
    uint32_t exp = (x >> 10) & 0x1fu, frac = x & 0x3ffu, bits;
    if (exp == 0x1f) {
      bits = sign | 0x7f800000u | (frac << 13); // inf, NaN (payload kept)
    } else if (exp) {
      bits = sign | ((exp + 112) << 23) | (frac << 13);
    } else if (!frac) {
      bits = sign;
    } else {
      int shift = __builtin_clz(frac) - 21; // bring the leading 1 to bit 10
      bits = sign | (uint32_t(113 - shift) << 23) |
             ((frac << shift) & 0x3ffu) << 13;
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  operator __half_raw() const { return {__x}; }
  static __half fromFloat(float f) {
    _Float16 h = static_cast<_Float16>(f);
    __half out;
    std::memcpy(&out.__x, &h, 2);
    return out;
  }
  __half &operator+=(__half o) {
    return *this = __half(float(*this) + float(o));
  }
  __half &operator-=(__half o) {
    return *this = __half(float(*this) - float(o));
  }
  __half &operator*=(__half o) {
    return *this = __half(float(*this) * float(o));
  }
  __half &operator/=(__half o) {
    return *this = __half(float(*this) / float(o));
  }
};
inline __half operator+(__half a, __half b) {
  return __half(float(a) + float(b));
}
inline __half operator-(__half a, __half b) {
  return __half(float(a) - float(b));
}
inline __half operator*(__half a, __half b) {
  return __half(float(a) * float(b));
}
inline __half operator/(__half a, __half b) {
  return __half(float(a) / float(b));
}
inline __half operator-(__half a) {
  __half r = a;
  r.__x ^= 0x8000u;
  return r;
}
inline bool operator==(__half a, __half b) { return float(a) == float(b); }
inline bool operator!=(__half a, __half b) { return float(a) != float(b); }
inline bool operator<(__half a, __half b) { return float(a) < float(b); }
inline bool operator>(__half a, __half b) { return float(a) > float(b); }
inline bool operator<=(__half a, __half b) { return float(a) <= float(b); }
inline bool operator>=(__half a, __half b) { return float(a) >= float(b); }

struct alignas(4) __half2 {
  __half x, y;
};
inline __half2 operator+(__half2 a, __half2 b) {
  return {a.x + b.x, a.y + b.y};
}
inline __half2 operator*(__half2 a, __half2 b) {
  return {a.x * b.x, a.y * b.y};
}

inline __half __float2half(float f) { return __half::fromFloat(f); }
inline __half __float2half_rn(float f) { return __half::fromFloat(f); }
inline float __half2float(__half h) { return float(h); }
inline __half2 __floats2half2_rn(float lo, float hi) {
  return {__half::fromFloat(lo), __half::fromFloat(hi)};
}
inline __half2 __halves2half2(__half lo, __half hi) { return {lo, hi}; }
inline __half2 __float2half2_rn(float f) {
  return {__half::fromFloat(f), __half::fromFloat(f)};
}
inline float2 __half22float2(__half2 h) { return {float(h.x), float(h.y)}; }
inline __half __hadd(__half a, __half b) { return a + b; }
inline __half __hsub(__half a, __half b) { return a - b; }
inline __half __hmul(__half a, __half b) { return a * b; }
inline __half __hdiv(__half a, __half b) { return a / b; }
inline __half __hneg(__half a) { return -a; }
inline __half __hmax(__half a, __half b) { return __half(fmaxf(a, b)); }
inline __half __hmin(__half a, __half b) { return __half(fminf(a, b)); }
inline __half __habs(__half a) {
  a.__x &= 0x7fffu;
  return a;
}
inline __half __hfma(__half a, __half b, __half c) {
  return __half(tlc::sim::fmaRoundToOdd(float(a), float(b), float(c)));
}
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline __half __ushort_as_half(unsigned short x) { return __half_raw{x}; }
inline short __half_as_short(__half h) { return short(h.__x); }
inline __half __short_as_half(short x) {
  return __half_raw{static_cast<unsigned short>(x)};
}
inline bool __hisnan(__half h) { return (h.__x & 0x7fffu) > 0x7c00u; }
inline bool __hisinf(__half h) { return (h.__x & 0x7fffu) == 0x7c00u; }
inline __half hexp(__half h) { return __half(expf(h)); }
inline __half hexp2(__half h) { return __half(exp2f(h)); }
inline __half hlog(__half h) { return __half(logf(h)); }
inline __half hsqrt(__half h) { return __half(sqrtf(h)); }
inline __half hrsqrt(__half h) { return __half(1.0f / sqrtf(h)); }

#endif // TLC_SIM_CUDA_FP16_H
