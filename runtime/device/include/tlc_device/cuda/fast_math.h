//===- fast_math.h - Approximate math for fast_math kernels -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a `tile.func ... fast_math` kernel (TL_ENABLE_FAST_MATH) calls where
// CUDA has no intrinsic of its own: exp2 as one ex2.approx.ftz instruction
// (exp2f compiles to ex2.approx plus a fix-up for subnormal results). The
// other approximations are CUDA's __expf, __logf, __log2f, __sinf, __cosf,
// __tanf, __powf and __fdividef, which the emitter names directly.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_FAST_MATH_H
#define TLC_DEVICE_CUDA_FAST_MATH_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

/// 2^x, approximate (2 ulp), subnormal inputs and results flushed to zero.
TLC_DEVICE float fastExp2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_FAST_MATH_H
