//===- warp.h - Wavefront shuffles, votes and barriers (HIP, sim) -*- C++ -*-//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `sim` device's tlc_device/hip/warp.h: the same functions as the
// device header, each a collective of the simulator. Shuffles and syncWave
// take every lane of the wavefront of 64 that the block has (a lane that
// does not arrive is a synccheck finding; on the GPU ds_bpermute would read
// its stale register); votes take the lanes executing them, as EXEC does.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_WARP_H
#define TLC_DEVICE_HIP_WARP_H

#include "tlc_device/hip/common.h"

namespace tlc {
namespace hip {

template <int Mode, typename T>
TLC_SIM_PRIMITIVE T shuffle(T value, int operand, int width) {
  return sim::shuffle<Mode>(sim::warpLanes(), value, operand, width,
                            TLC_SIM_HERE);
}

/// The lanes of the wavefront executing the call: those waiting at the
/// same place once every other lane is blocked elsewhere or has exited
/// (EXEC on the GPU; votes may be divergent).
TLC_SIM_UNCHECKED inline uint64_t activeLanes(uint64_t where) {
  uint64_t mask = 0;
  sim::api->warpCollective("activemask", sim::warpLanes(), &sim::activeMaskRun,
                           &mask, where);
  return mask;
}
TLC_SIM_PRIMITIVE inline uint64_t activeMask() {
  return activeLanes(TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline uint64_t ballot(int predicate) {
  uint64_t lanes = activeLanes(TLC_SIM_HERE);
  return sim::ballot(lanes, predicate, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline int waveAny(int predicate) {
  uint64_t lanes = activeLanes(TLC_SIM_HERE);
  return sim::ballot(lanes, predicate, TLC_SIM_HERE) != 0;
}
TLC_SIM_PRIMITIVE inline int waveAll(int predicate) {
  uint64_t lanes = activeLanes(TLC_SIM_HERE);
  return sim::ballot(lanes, predicate, TLC_SIM_HERE) == lanes;
}
template <typename T> TLC_SIM_PRIMITIVE uint64_t matchAny(T value) {
  uint64_t lanes = activeLanes(TLC_SIM_HERE);
  return sim::match(lanes, value, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline void syncWave() {
  sim::api->warpCollective("bar.warp.sync", sim::warpLanes(), &sim::syncWarpRun,
                           nullptr, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline int syncthreadsCount(int predicate) {
  return sim::syncthreadsCount(predicate, TLC_SIM_HERE);
}
TLC_SIM_PRIMITIVE inline int syncthreadsAnd(int predicate) {
  return sim::syncthreadsCount(predicate, TLC_SIM_HERE) ==
         int(blockDim.x * blockDim.y * blockDim.z);
}
TLC_SIM_PRIMITIVE inline int syncthreadsOr(int predicate) {
  return sim::syncthreadsCount(predicate, TLC_SIM_HERE) != 0;
}

/// The 32 bits of \p mask of the calling lane's half-wavefront (lanes 0..31
/// or 32..63): the mask a warp of 32 would see.
TLC_DEVICE uint32_t halfOf(uint64_t mask) {
  return uint32_t(mask >> (laneId() & 32u));
}

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_WARP_H
