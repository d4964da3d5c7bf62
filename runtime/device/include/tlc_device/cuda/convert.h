//===- convert.h - Conversions between f32 and 16/8-bit floats --*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Round-to-nearest-even conversions from f32 to f16, bf16 and the fp8
// formats (e4m3fn and e5m2, saturating to the largest finite value like
// TileLang's casts; e8m0fnu, the MX scale), back to f32, and packed pairs
// for vectorised stores. The
// CPU target (tlc_device/cpu.h) rounds the same way, so GPU results can be
// compared with it bit for bit.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_CONVERT_H
#define TLC_DEVICE_CUDA_CONVERT_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

/// f32 -> f16 / bf16, round to nearest even.
TLC_DEVICE half toHalf(float x) { return __float2half_rn(x); }
TLC_DEVICE bfloat16 toBFloat16(float x) { return __float2bfloat16_rn(x); }
/// f16 / bf16 -> f32 (exact).
TLC_DEVICE float toFloat(half x) { return __half2float(x); }
TLC_DEVICE float toFloat(bfloat16 x) { return __bfloat162float(x); }
TLC_DEVICE float toFloat(float x) { return x; }

/// Two f32 -> one 32-bit register of two f16 (\p lo in the low half).
TLC_DEVICE uint32_t packHalf2(float lo, float hi) {
  return bitCast<uint32_t>(__floats2half2_rn(lo, hi));
}
/// Two f32 -> one 32-bit register of two bf16 (\p lo in the low half).
TLC_DEVICE uint32_t packBFloat162(float lo, float hi) {
  return bitCast<uint32_t>(__floats2bfloat162_rn(lo, hi));
}

#ifdef TLC_CUDA_HAS_FP8_TYPES
using fp8e4m3 = ::__nv_fp8_e4m3;
using fp8e5m2 = ::__nv_fp8_e5m2;

/// f32 -> fp8 storage byte, round to nearest even, saturating.
TLC_DEVICE uint8_t toFp8E4M3(float x) {
  return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
}
TLC_DEVICE uint8_t toFp8E5M2(float x) {
  return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2);
}
/// fp8 storage byte -> f32 (exact).
TLC_DEVICE float fp8E4M3ToFloat(uint8_t x) {
  return __half2float(__half(__nv_cvt_fp8_to_halfraw(x, __NV_E4M3)));
}
TLC_DEVICE float fp8E5M2ToFloat(uint8_t x) {
  return __half2float(__half(__nv_cvt_fp8_to_halfraw(x, __NV_E5M2)));
}
/// Two f32 -> two fp8 bytes in 16 bits (\p lo in the low byte).
TLC_DEVICE uint16_t packFp8E4M3x2(float lo, float hi) {
  return __nv_cvt_float2_to_fp8x2(make_float2(lo, hi), __NV_SATFINITE,
                                  __NV_E4M3);
}
#endif

/// f32 -> float8_e8m0fnu byte: an exponent alone (the OCP MX block scale,
/// 2^(b - 127), 0xFF the NaN), PyTorch's rule (c10/util/Float8_e8m0fnu.h),
/// as the CPU target's floatToE8M0Bits: the sign is ignored; NaN and
/// infinities give NaN; the exponent field rounds up when the mantissa
/// reaches half for normal inputs (ties up) and passes half for subnormal
/// ones (zero gives 2^-127); rounding up from 2^127 gives the NaN code.
/// Integer arithmetic on the f32 bits (not CUDA's __nv_fp8_e8m0, which
/// rounds toward +inf and saturates).
TLC_DEVICE uint8_t toFp8E8M0(float x) {
  uint32_t bits = bitCast<uint32_t>(x);
  uint32_t field = (bits >> 23) & 0xFFu, mantissa = bits & 0x7FFFFFu;
  if (field == 0xFFu)
    return 0xFF;
  bool up = field != 0 ? mantissa >= 0x400000u : mantissa > 0x400000u;
  return uint8_t(field + (up ? 1u : 0u));
}
/// float8_e8m0fnu byte -> f32 (exact; 0xFF is NaN, 0 is 2^-127).
TLC_DEVICE float fp8E8M0ToFloat(uint8_t b) {
  if (b == 0xFF)
    return bitCast<float>(0x7FC00000u);
  return bitCast<float>(b == 0 ? 0x00400000u : uint32_t(b) << 23);
}

/// Generic cast used by generated code: `cast<To>(from)` through f32.
template <typename To> struct CastTo {
  template <typename From> TLC_DEVICE static To from(From x) {
    return static_cast<To>(x);
  }
};
template <> struct CastTo<half> {
  template <typename From> TLC_DEVICE static half from(From x) {
    return toHalf(static_cast<float>(x));
  }
  TLC_DEVICE static half from(half x) { return x; }
  TLC_DEVICE static half from(bfloat16 x) { return toHalf(toFloat(x)); }
};
template <> struct CastTo<bfloat16> {
  template <typename From> TLC_DEVICE static bfloat16 from(From x) {
    return toBFloat16(static_cast<float>(x));
  }
  TLC_DEVICE static bfloat16 from(bfloat16 x) { return x; }
  TLC_DEVICE static bfloat16 from(half x) { return toBFloat16(toFloat(x)); }
};
template <> struct CastTo<float> {
  template <typename From> TLC_DEVICE static float from(From x) {
    return static_cast<float>(x);
  }
  TLC_DEVICE static float from(half x) { return toFloat(x); }
  TLC_DEVICE static float from(bfloat16 x) { return toFloat(x); }
};

/// Converts \p x to \p To with the rounding above.
template <typename To, typename From> TLC_DEVICE To cast(From x) {
  return CastTo<To>::from(x);
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_CONVERT_H
