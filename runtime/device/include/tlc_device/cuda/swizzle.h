//===- swizzle.h - Swizzled shared-memory tiles -----------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The shared-memory layout of tensor-core operand tiles of 16-bit elements:
// row-major, with the 16-byte chunk number of each row XOR-ed by a few row
// bits so that the 8 row addresses of one ldmatrix (8 consecutive rows, one
// chunk column) fall into 8 distinct 16-byte bank groups of a 128-byte
// line, and so do 8 consecutive chunks written by one quarter warp.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_SWIZZLE_H
#define TLC_DEVICE_CUDA_SWIZZLE_H

#include "tlc_device/cuda/common.h"

namespace tlc {
namespace cuda {

/// Element offset of (row, col) in a tile whose rows are `ChunksPerRow`
/// 16-byte chunks of `ChunkElems` elements (8 for 16-bit, 16 for 8-bit
/// elements). Rows of 8 or more chunks XOR the low 3 chunk bits with
/// row % 8; rows of 4 chunks (two rows per 128-byte line) with
/// (row / 2) % 4; rows of 2 chunks with (row / 4) % 2.
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

/// Element offset of (row, col) in a tile of \p Rows x \p Cols elements
/// (the \p lead-th of several such tiles in a row) stored as Cols / W
/// panels of W = ChunksPerRow * ChunkElems columns, panel after panel, each
/// a swizzledIndex<ChunksPerRow> tile of Rows rows: the layout wgmma reads
/// through a 128-, 64- or 32-byte swizzle descriptor (ChunksPerRow 8, 4,
/// 2) when every panel starts on a 1024-byte boundary.
template <int ChunksPerRow, int ChunkElems, int Rows, int Cols>
TLC_DEVICE constexpr int panelSwizzledIndex(int lead, int row, int col) {
  constexpr int W = ChunksPerRow * ChunkElems;
  static_assert(Cols % W == 0, "the tile is a whole number of panels");
  return lead * (Rows * Cols) + int(unsigned(col) / W) * (Rows * W) +
         swizzledIndex<ChunksPerRow, ChunkElems>(row, int(unsigned(col) % W));
}

/// Two consecutive 16-bit registers of a fragment as one 32-bit operand.
template <typename T> TLC_DEVICE uint32_t packPair(const T *pair) {
  return *reinterpret_cast<const uint32_t *>(pair);
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_SWIZZLE_H
