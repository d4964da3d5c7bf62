//===- swizzle.h - XOR-swizzled LDS tiles (HIP) -----------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// swizzledIndex<ChunksPerRow, ChunkElems>(row, col): the element offset of
// (row, col) in a tile whose 16-byte chunks are permuted by XOR with bits of
// the row, the layout layout inference gives gemm operand tiles (the same
// formula as tlc_device/cuda/swizzle.h). On CDNA it spreads the rows a
// wavefront reads at one column over different LDS banks.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_HIP_SWIZZLE_H
#define TLC_DEVICE_HIP_SWIZZLE_H

#include "tlc_device/hip/common.h"

namespace tlc {
namespace hip {

template <int ChunksPerRow, int ChunkElems = 8>
TLC_DEVICE constexpr int swizzledIndex(int row, int col) {
  int chunk = unsigned(col) / ChunkElems;
  int mask = ChunksPerRow >= 8   ? (row & 7)
             : ChunksPerRow == 4 ? ((row >> 1) & 3)
             : ChunksPerRow == 2 ? ((row >> 2) & 1)
                                 : 0;
  return row * (ChunksPerRow * ChunkElems) + (chunk ^ mask) * ChunkElems +
         int(unsigned(col) % ChunkElems);
}

} // namespace hip
} // namespace tlc

#endif // TLC_DEVICE_HIP_SWIZZLE_H
