//===- reduce.h - Wavefront shuffles for reductions (HIP) -------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// shuffleXor(value, offset): the value of lane `lane ^ offset` of the
// wavefront of 64, for 1-, 2-, 4- and 8-byte values, through shuffleXor32
// (common.h: ds_bpermute_b32 on the device, the simulator's wavefront
// collective on the sim device).
//
// waveReduce<Op>(value): Op (0 sum, 1 max, 2 min, 3 and, 4 or) over the
// wavefront of 64, every lane getting the result (T.warp_reduce_*: the
// hardware warp is the wavefront).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_REDUCE_H
#define TLC_DEVICE_HIP_REDUCE_H

#include "tlc_device/hip/common.h"
#include "tlc_device/hip/warp.h"

namespace tlc {
namespace hip {

template <typename T> TLC_DEVICE T shuffleXor(T value, unsigned offset) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 ||
                    sizeof(T) == 8,
                "shuffles move 1, 2, 4 or 8 bytes");
  if constexpr (sizeof(T) == 8) {
    uint64_t bits = bitCast<uint64_t>(value);
    uint64_t lo = shuffleXor32(uint32_t(bits), offset);
    uint64_t hi = shuffleXor32(uint32_t(bits >> 32), offset);
    return bitCast<T>(lo | hi << 32);
  } else if constexpr (sizeof(T) == 4) {
    return bitCast<T>(shuffleXor32(bitCast<uint32_t>(value), offset));
  } else if constexpr (sizeof(T) == 2) {
    return bitCast<T>(uint16_t(shuffleXor32(bitCast<uint16_t>(value), offset)));
  } else {
    return bitCast<T>(uint8_t(shuffleXor32(bitCast<uint8_t>(value), offset)));
  }
}

template <int Op, typename T> TLC_DEVICE T waveReduce(T value) {
  for (int offset = 32; offset > 0; offset /= 2) {
    T other = shuffle<3>(value, offset, 64);
    value = Op == 0   ? T(value + other)
            : Op == 1 ? (other > value ? other : value)
            : Op == 2 ? (other < value ? other : value)
            : Op == 3 ? T(value & other)
                      : T(value | other);
  }
  return value;
}

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_REDUCE_H
