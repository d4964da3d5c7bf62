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
// mfmaI32x16x16x32(acc, a, b): an int8 16x16x32 step with int32
// accumulators, a and b this lane's 8 values (k = 8 (lane / 16) + v). CDNA3
// (gfx942, gfx950) has v_mfma_i32_16x16x32_i8 for it; CDNA2 (gfx90a) only
// v_mfma_i32_16x16x16i8, so there it is two of those, the first over
// values 0..3 of every lane and the second over 4..7: each pairs A's and
// B's values of the same k, and integer sums do not depend on the order.
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

typedef int intx4 __attribute__((ext_vector_type(4)));

TLC_DEVICE void mfmaI32x16x16x32(int *acc, const int8_t *a, const int8_t *b) {
  intx4 c = {acc[0], acc[1], acc[2], acc[3]};
  auto pack = [](const int8_t *v, int first, int n) {
    unsigned long long bits = 0;
    for (int e = 0; e < n; ++e)
      bits |= (unsigned long long)(uint8_t)v[first + e] << (8 * e);
    return bits;
  };
#if defined(__gfx90a__)
  c = __builtin_amdgcn_mfma_i32_16x16x16i8(int(pack(a, 0, 4)),
                                           int(pack(b, 0, 4)), c, 0, 0, 0);
  c = __builtin_amdgcn_mfma_i32_16x16x16i8(int(pack(a, 4, 4)),
                                           int(pack(b, 4, 4)), c, 0, 0, 0);
#else
  c = __builtin_amdgcn_mfma_i32_16x16x32_i8(long(pack(a, 0, 8)),
                                            long(pack(b, 0, 8)), c, 0, 0, 0);
#endif
  acc[0] = c[0], acc[1] = c[1], acc[2] = c[2], acc[3] = c[3];
}

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_MFMA_H
