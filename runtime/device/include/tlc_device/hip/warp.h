//===- warp.h - Wavefront shuffles, votes and barriers (HIP) ----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TileLang's warp primitives on a wavefront of 64 lanes. Every lane of the
// wavefront that the block has takes part in a shuffle; votes take the
// lanes executing them (EXEC). halfOf(mask) is the calling lane's 32-lane
// half of a 64-lane mask (what a 32-bit CUDA mask names).
//
//   shuffle<Mode>(value, operand, width): the value of another lane, CUDA's
//     rules within segments of `width` lanes (a power of two <= 64): Mode 0
//     reads lane `segment + operand % width`, 1 (up) `lane - operand`, 2
//     (down) `lane + operand`, 3 (xor) `lane ^ operand`; a source outside
//     the lane's segment reads the lane itself. One ds_bpermute_b32 per 32
//     bits of the value.
//   ballot(pred): bit l set when lane l's predicate holds (64 bits);
//     activeMask(): the lanes executing the call (EXEC); matchAny(value):
//     the lanes holding the same value.
//   syncWave(): orders the lanes' LDS and global accesses (the lanes of a
//     wavefront execute together, so only memory needs a fence).
//   syncthreadsCount/And/Or(pred): block votes through one LDS word between
//     barriers (and __syncthreads_or, CUDA's name, which the printer uses
//     for an `if c: break` decided for the whole block).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_WARP_H
#define TLC_DEVICE_HIP_WARP_H

#include "tlc_device/hip/common.h"

namespace tlc {
namespace hip {

/// The lane whose value lane \p lane reads (see the file comment).
TLC_DEVICE int shuffleSource(int mode, int lane, int operand, int width) {
  int segment = lane & ~(width - 1);
  int src = mode == 0   ? segment + (operand & (width - 1))
            : mode == 1 ? lane - operand
            : mode == 2 ? lane + operand
                        : lane ^ operand;
  return src < segment || src >= segment + width ? lane : src;
}

template <int Mode, typename T>
TLC_DEVICE T shuffle(T value, int operand, int width) {
  static_assert(sizeof(T) <= 8, "shuffles move at most 8 bytes");
  int src = shuffleSource(Mode, int(laneId()), operand, width);
  uint32_t words[2] = {0, 0};
  __builtin_memcpy(words, &value, sizeof(T));
  for (unsigned w = 0; w < (sizeof(T) + 3) / 4; ++w)
    words[w] = uint32_t(__builtin_amdgcn_ds_bpermute(src << 2, int(words[w])));
  T out;
  __builtin_memcpy(&out, words, sizeof(T));
  return out;
}

TLC_DEVICE uint64_t ballot(int predicate) {
  return __builtin_amdgcn_ballot_w64(predicate != 0);
}
TLC_DEVICE uint64_t activeMask() { return __builtin_amdgcn_read_exec(); }
TLC_DEVICE int waveAny(int predicate) { return ballot(predicate) != 0; }
TLC_DEVICE int waveAll(int predicate) {
  return ballot(predicate) == activeMask();
}

template <typename T> TLC_DEVICE uint64_t matchAny(T value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "match on 4 or 8 bytes");
  uint32_t words[2] = {0, 0};
  __builtin_memcpy(words, &value, sizeof(T));
  uint64_t same = 0;
  for (int l = 0; l < 64; ++l) {
    bool equal = true;
    for (unsigned w = 0; w < sizeof(T) / 4; ++w)
      equal &=
          uint32_t(__builtin_amdgcn_readlane(int(words[w]), l)) == words[w];
    same |= uint64_t(equal) << l;
  }
  return same & activeMask();
}

TLC_DEVICE void syncWave() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}

/// The number of the block's threads whose predicate holds.
TLC_DEVICE int syncthreadsCount(int predicate) {
  __shared__ int count;
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
    count = 0;
  __syncthreads();
  if (predicate)
    __hip_atomic_fetch_add(&count, 1, __ATOMIC_RELAXED,
                           __HIP_MEMORY_SCOPE_WORKGROUP);
  __syncthreads();
  int total = count;
  __syncthreads();
  return total;
}
TLC_DEVICE int syncthreadsAnd(int predicate) {
  return syncthreadsCount(predicate) ==
         int(blockDim.x * blockDim.y * blockDim.z);
}
TLC_DEVICE int syncthreadsOr(int predicate) {
  return syncthreadsCount(predicate) != 0;
}

/// The 32 bits of \p mask of the calling lane's half-wavefront (lanes 0..31
/// or 32..63): the mask a warp of 32 would see.
TLC_DEVICE uint32_t halfOf(uint64_t mask) {
  return uint32_t(mask >> (laneId() & 32u));
}

} // namespace hip
} // namespace tlc

/// CUDA's spelling (an `if c: break` decided for the whole block).
TLC_DEVICE int __syncthreads_or(int predicate) {
  return tlc::hip::syncthreadsOr(predicate);
}

#endif // TLC_DEVICE_HIP_WARP_H
