//===- ldmatrix.h - Warp-wide 8x8 matrix loads from shared ------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `ldmatrix.sync.aligned.m8n8.xN[.trans].shared.b16` (sm_75+). The warp loads
// N (1, 2 or 4) 8x8 matrices of 16-bit elements; lanes 8i .. 8i+7 give the
// shared addresses of the 8 rows (16 contiguous bytes each) of matrix i.
// Lane l receives, in register i, the elements (row l/4, columns 2(l%4) and
// 2(l%4)+1) of matrix i, the low half holding the smaller column: exactly
// the operand fragment of mma.sync. With `.trans` it receives (rows 2(l%4),
// 2(l%4)+1; column l/4) instead, i.e. the fragment of the transposed matrix.
// Every lane must pass an address (lanes beyond 8N pass any valid one).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_LDMATRIX_H
#define TLC_DEVICE_CUDA_LDMATRIX_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

/// One 8x8 matrix; \p rowPtr is this lane's row (lanes 0-7 matter).
TLC_DEVICE void ldmatrixX1(uint32_t &r0, const void *rowPtr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
               : "=r"(r0)
               : "r"(sharedAddress(rowPtr)));
}

/// Two 8x8 matrices (lanes 0-15 give row addresses).
TLC_DEVICE void ldmatrixX2(uint32_t &r0, uint32_t &r1, const void *rowPtr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
               : "=r"(r0), "=r"(r1)
               : "r"(sharedAddress(rowPtr)));
}

/// Four 8x8 matrices (all 32 lanes give row addresses).
TLC_DEVICE void ldmatrixX4(uint32_t &r0, uint32_t &r1, uint32_t &r2,
                           uint32_t &r3, const void *rowPtr) {
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
      : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
      : "r"(sharedAddress(rowPtr)));
}

/// Transposed forms: each 8x8 matrix arrives transposed.
TLC_DEVICE void ldmatrixX1Trans(uint32_t &r0, const void *rowPtr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
               : "=r"(r0)
               : "r"(sharedAddress(rowPtr)));
}

TLC_DEVICE void ldmatrixX2Trans(uint32_t &r0, uint32_t &r1,
                                const void *rowPtr) {
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
      : "=r"(r0), "=r"(r1)
      : "r"(sharedAddress(rowPtr)));
}

TLC_DEVICE void ldmatrixX4Trans(uint32_t &r0, uint32_t &r1, uint32_t &r2,
                                uint32_t &r3, const void *rowPtr) {
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
      : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
      : "r"(sharedAddress(rowPtr)));
}

/// Array forms used by generated code: `regs` receives N registers.
template <int N, bool Trans>
TLC_DEVICE void ldmatrix(uint32_t *regs, const void *rowPtr) {
  static_assert(N == 1 || N == 2 || N == 4, "ldmatrix loads 1, 2 or 4 tiles");
  if constexpr (N == 1) {
    if constexpr (Trans)
      ldmatrixX1Trans(regs[0], rowPtr);
    else
      ldmatrixX1(regs[0], rowPtr);
  } else if constexpr (N == 2) {
    if constexpr (Trans)
      ldmatrixX2Trans(regs[0], regs[1], rowPtr);
    else
      ldmatrixX2(regs[0], regs[1], rowPtr);
  } else {
    if constexpr (Trans)
      ldmatrixX4Trans(regs[0], regs[1], regs[2], regs[3], rowPtr);
    else
      ldmatrixX4(regs[0], regs[1], regs[2], regs[3], rowPtr);
  }
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_LDMATRIX_H
