//===- mfma.h - Matrix fused multiply-add (HIP, CDNA) -----------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// mfmaF32x16x16x16(acc, a, b): one v_mfma_f32_16x16x16f16 (f16 operands)
// or v_mfma_f32_16x16x16bf16_1k (bf16) of the calling wavefront, with
// acc[0..3] this lane's accumulator registers and a, b its four srcA and
// srcB elements (the lane layouts are in the printer, HIPEmitterGemm.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_MFMA_H
#define TLC_DEVICE_HIP_MFMA_H

#include "tlc_device/hip/common.h"

namespace tlc {
namespace hip {

typedef float floatx4 __attribute__((ext_vector_type(4)));
typedef _Float16 halfx4 __attribute__((ext_vector_type(4)));
typedef short shortx4 __attribute__((ext_vector_type(4)));

TLC_DEVICE void mfmaF32x16x16x16(float *acc, const half *a, const half *b) {
  floatx4 c = {acc[0], acc[1], acc[2], acc[3]};
  halfx4 x = {a[0], a[1], a[2], a[3]}, y = {b[0], b[1], b[2], b[3]};
  c = __builtin_amdgcn_mfma_f32_16x16x16f16(x, y, c, 0, 0, 0);
  acc[0] = c[0], acc[1] = c[1], acc[2] = c[2], acc[3] = c[3];
}
TLC_DEVICE void mfmaF32x16x16x16(float *acc, const bfloat16 *a,
                                 const bfloat16 *b) {
  floatx4 c = {acc[0], acc[1], acc[2], acc[3]};
  shortx4 x = {short(a[0].bits), short(a[1].bits), short(a[2].bits),
               short(a[3].bits)};
  shortx4 y = {short(b[0].bits), short(b[1].bits), short(b[2].bits),
               short(b[3].bits)};
  c = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(x, y, c, 0, 0, 0);
  acc[0] = c[0], acc[1] = c[1], acc[2] = c[2], acc[3] = c[3];
}

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_MFMA_H
