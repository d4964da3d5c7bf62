//===- reduce.h - Wavefront shuffles for reductions (HIP) -------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// shuffleXor(value, offset): the value of lane `lane ^ offset` of the
// wavefront of 64, for 2-, 4- and 8-byte values, through shuffleXor32
// (common.h: ds_bpermute_b32 on the device, the simulator's wavefront
// collective on the sim device).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_REDUCE_H
#define TLC_DEVICE_HIP_REDUCE_H

#include "tlc_device/hip/common.h"

namespace tlc {
namespace hip {

template <typename T> TLC_DEVICE T shuffleXor(T value, unsigned offset) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "shuffles move 2, 4 or 8 bytes");
  if constexpr (sizeof(T) == 8) {
    uint64_t bits = bitCast<uint64_t>(value);
    uint64_t lo = shuffleXor32(uint32_t(bits), offset);
    uint64_t hi = shuffleXor32(uint32_t(bits >> 32), offset);
    return bitCast<T>(lo | hi << 32);
  } else if constexpr (sizeof(T) == 4) {
    return bitCast<T>(shuffleXor32(bitCast<uint32_t>(value), offset));
  } else {
    return bitCast<T>(uint16_t(shuffleXor32(bitCast<uint16_t>(value), offset)));
  }
}

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_REDUCE_H
