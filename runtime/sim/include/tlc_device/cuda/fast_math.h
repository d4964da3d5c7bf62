//===- fast_math.h - Approximate math (sim) ---------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ex2.approx.ftz.f32 on the simulator: the host's exp2f with subnormal
// inputs and results flushed to zero (the hardware's result may differ in
// the last bits; the PTX ISA bounds its error at 2 ulp).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_FAST_MATH_H
#define TLC_DEVICE_CUDA_FAST_MATH_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

/// 2^x, subnormal inputs and results flushed to zero.
TLC_DEVICE float fastExp2(float x) {
  if (std::fpclassify(x) == FP_SUBNORMAL)
    x = std::copysign(0.0f, x);
  float y = exp2f(x);
  return std::fpclassify(y) == FP_SUBNORMAL ? std::copysign(0.0f, y) : y;
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_FAST_MATH_H
