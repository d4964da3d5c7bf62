//===- swizzle.h - XOR-swizzled tile offsets (CUDA and HIP) -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The element offset of (row, col) in a row-major tile whose 16-byte chunks
// are permuted by XOR with a few row bits: the layout layout inference gives
// tensor-core operand tiles on both GPU languages. On CUDA it puts the 8 row
// addresses of one ldmatrix (8 consecutive rows, one chunk column) and the 8
// chunks a quarter warp writes in 8 distinct 16-byte bank groups of a
// 128-byte line; on CDNA it spreads the rows a wavefront reads at one column
// over different LDS banks. Included after the language's common.h, which
// defines TLC_DEVICE; tlc_device/cuda/swizzle.h and tlc_device/hip.h bring
// it into tlc::cuda and tlc::hip, where the generated code names it.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_SWIZZLE_H
#define TLC_DEVICE_SWIZZLE_H

#ifndef TLC_DEVICE
#error "include tlc_device/cuda/common.h or tlc_device/hip/common.h first"
#endif

namespace tlc {

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

/// Element offset of (row, col) in a tile of `RowElems` elements per row
/// whose runs of `Vec` elements are permuted by XOR with the phase
/// (row / PerPhase) % MaxPhase: the LDS layout tlc chooses for each MFMA
/// operand tile on CDNA (layout::XorSwizzle, chooseMfmaSwizzle).
template <int RowElems, int Vec, int PerPhase, int MaxPhase>
TLC_DEVICE constexpr int xorSwizzledIndex(int row, int col) {
  int run = int(unsigned(col) / Vec);
  int phase = int((unsigned(row) / PerPhase) % MaxPhase);
  return row * RowElems + (run ^ phase) * Vec + int(unsigned(col) % Vec);
}

} // namespace tlc

#endif // TLC_DEVICE_SWIZZLE_H
