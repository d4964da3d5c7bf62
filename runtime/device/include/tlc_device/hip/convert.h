//===- convert.h - 16-bit float conversions (HIP) ---------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// f32 <-> f16 (the _Float16 conversions, round to nearest even) and f32 <->
// bf16 (the high 16 bits, rounded to nearest even; NaN stays a quiet NaN),
// shared by the device and the sim device's host build.
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

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_CONVERT_H
