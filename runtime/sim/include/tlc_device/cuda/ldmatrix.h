//===- ldmatrix.h - Warp-wide 8x8 matrix loads (sim) ------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ldmatrix.sync.aligned.m8n8.xN[.trans].shared.b16 as the PTX ISA defines
// it, lane by lane: the warp meets (every lane must execute it); lane
// 8*i + r supplies the shared address of row r of matrix i (16 bytes,
// 16-byte aligned; for .x1 / .x2 only lanes 0-7 / 0-15 are read); the
// 32-bit word w of row r of matrix i (elements 2w, 2w+1) goes to register i
// of lane 4*r + w. With .trans, the element at (row r, column c) goes where
// (row c, column r) would: lane 4*c + r/2, half r%2 of register i.
// Each row read is checked as a shared-memory load of its lane.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_LDMATRIX_H
#define TLC_DEVICE_CUDA_LDMATRIX_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {
namespace simimpl {

struct LdmatrixLane {
  const void *row;
  uint32_t regs[4];
};

template <int N, bool Trans>
TLC_SIM_UNCHECKED void ldmatrixRun(void *const *lanes, uint64_t, uint32_t base,
                                   uint64_t where) {
  uint16_t rows[4][8][8];
  for (int i = 0; i < N; ++i)
    for (int r = 0; r < 8; ++r) {
      int lane = 8 * i + r;
      const void *p = static_cast<LdmatrixLane *>(lanes[lane])->row;
      if (reinterpret_cast<uintptr_t>(p) % 16)
        sim::api->trap("ldmatrix row address is not 16-byte aligned", where);
      sim::checkedLoad(rows[i][r], p, 16, int32_t(base + lane), where);
    }
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < N; ++i)
      static_cast<LdmatrixLane *>(lanes[l])->regs[i] = 0;
  for (int i = 0; i < N; ++i)
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) {
        // Destination (row, column) of element (r, c) in the fragment.
        int fr = Trans ? c : r, fc = Trans ? r : c;
        int lane = 4 * fr + fc / 2;
        uint32_t &reg = static_cast<LdmatrixLane *>(lanes[lane])->regs[i];
        reg |= uint32_t(rows[i][r][c]) << (16 * (fc % 2));
      }
}

inline const char *const kLdmatrixNames[2][3] = {
    {"ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4"},
    {"ldmatrix.x1.trans", "ldmatrix.x2.trans", "ldmatrix.x4.trans"}};

template <int N, bool Trans>
TLC_SIM_UNCHECKED void ldmatrix(uint32_t *regs, const void *rowPtr,
                                uint64_t where) {
  LdmatrixLane me{rowPtr, {0, 0, 0, 0}};
  sim::api->warpCollective(kLdmatrixNames[Trans][N == 1   ? 0
                                                 : N == 2 ? 1
                                                          : 2],
                           0xffffffffu, &ldmatrixRun<N, Trans>, &me, where);
  for (int i = 0; i < N; ++i)
    regs[i] = me.regs[i];
}

} // namespace simimpl

TLC_SIM_PRIMITIVE inline void ldmatrixX1(uint32_t &r0, const void *rowPtr) {
  uint32_t r[1];
  simimpl::ldmatrix<1, false>(r, rowPtr, TLC_SIM_HERE);
  r0 = r[0];
}
TLC_SIM_PRIMITIVE inline void ldmatrixX2(uint32_t &r0, uint32_t &r1,
                                         const void *rowPtr) {
  uint32_t r[2];
  simimpl::ldmatrix<2, false>(r, rowPtr, TLC_SIM_HERE);
  r0 = r[0], r1 = r[1];
}
TLC_SIM_PRIMITIVE inline void ldmatrixX4(uint32_t &r0, uint32_t &r1,
                                         uint32_t &r2, uint32_t &r3,
                                         const void *rowPtr) {
  uint32_t r[4];
  simimpl::ldmatrix<4, false>(r, rowPtr, TLC_SIM_HERE);
  r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3];
}
TLC_SIM_PRIMITIVE inline void ldmatrixX1Trans(uint32_t &r0,
                                              const void *rowPtr) {
  uint32_t r[1];
  simimpl::ldmatrix<1, true>(r, rowPtr, TLC_SIM_HERE);
  r0 = r[0];
}
TLC_SIM_PRIMITIVE inline void ldmatrixX2Trans(uint32_t &r0, uint32_t &r1,
                                              const void *rowPtr) {
  uint32_t r[2];
  simimpl::ldmatrix<2, true>(r, rowPtr, TLC_SIM_HERE);
  r0 = r[0], r1 = r[1];
}
TLC_SIM_PRIMITIVE inline void ldmatrixX4Trans(uint32_t &r0, uint32_t &r1,
                                              uint32_t &r2, uint32_t &r3,
                                              const void *rowPtr) {
  uint32_t r[4];
  simimpl::ldmatrix<4, true>(r, rowPtr, TLC_SIM_HERE);
  r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3];
}

template <int N, bool Trans>
TLC_SIM_PRIMITIVE void ldmatrix(uint32_t *regs, const void *rowPtr) {
  static_assert(N == 1 || N == 2 || N == 4, "ldmatrix loads 1, 2 or 4 tiles");
  simimpl::ldmatrix<N, Trans>(regs, rowPtr, TLC_SIM_HERE);
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_LDMATRIX_H
