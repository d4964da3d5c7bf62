//===- cuda_bf16.h - __nv_bfloat16 on the simulator -------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// CUDA's bfloat16 API as tlc's device headers use it: the top 16 bits of an
// IEEE binary32, converted from float by rounding to nearest even (NaN stays
// a quiet NaN), arithmetic through float.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_SIM_CUDA_BF16_H
#define TLC_SIM_CUDA_BF16_H

#include "tlc_sim/builtins.h"

struct __nv_bfloat16_raw {
  unsigned short x;
};

struct __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __nv_bfloat16(__nv_bfloat16_raw r) : __x(r.x) {}
  __nv_bfloat16(float f) { *this = fromFloat(f); }
  __nv_bfloat16(double f) { *this = fromFloat(float(f)); }
  __nv_bfloat16(int i) { *this = fromFloat(float(i)); }
  operator float() const {
    uint32_t bits = uint32_t(__x) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  static __nv_bfloat16 fromFloat(float f) {
    return tlc::sim::shadeResult(fromFloatBits(f), f);
  }
  TLC_SIM_NO_SHADOW static __nv_bfloat16 fromFloatBits(float f) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    __nv_bfloat16 out;
    if ((bits & 0x7fffffffu) > 0x7f800000u) {
      out.__x = static_cast<unsigned short>((bits >> 16) | 0x40u); // quiet NaN
      return out;
    }
    // Round to nearest, ties to even: add 0x7fff plus the bit that becomes
    // the last one kept.
    bits += 0x7fffu + ((bits >> 16) & 1u);
    out.__x = static_cast<unsigned short>(bits >> 16);
    return out;
  }
};
inline __nv_bfloat16 operator+(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat16(float(a) + float(b));
}
inline __nv_bfloat16 operator-(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat16(float(a) - float(b));
}
inline __nv_bfloat16 operator*(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat16(float(a) * float(b));
}
inline __nv_bfloat16 operator/(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat16(float(a) / float(b));
}
inline bool operator<(__nv_bfloat16 a, __nv_bfloat16 b) {
  return float(a) < float(b);
}
inline bool operator>(__nv_bfloat16 a, __nv_bfloat16 b) {
  return float(a) > float(b);
}
inline bool operator==(__nv_bfloat16 a, __nv_bfloat16 b) {
  return float(a) == float(b);
}

struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
};

inline __nv_bfloat16 __float2bfloat16(float f) {
  return __nv_bfloat16::fromFloat(f);
}
inline __nv_bfloat16 __float2bfloat16_rn(float f) {
  return __nv_bfloat16::fromFloat(f);
}
inline float __bfloat162float(__nv_bfloat16 b) { return float(b); }
inline __nv_bfloat162 __floats2bfloat162_rn(float lo, float hi) {
  return {__nv_bfloat16::fromFloat(lo), __nv_bfloat16::fromFloat(hi)};
}
inline __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat16(fmaxf(a, b));
}
inline __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat16(fminf(a, b));
}
inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b,
                            __nv_bfloat16 c) {
  return __nv_bfloat16(
      tlc::sim::fmaRoundToOdd(float(a), float(b), float(c)));
}

#endif // TLC_SIM_CUDA_BF16_H
