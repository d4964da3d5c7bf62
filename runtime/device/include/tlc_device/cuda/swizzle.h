//===- swizzle.h - Swizzled shared-memory tiles -----------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The shared-memory layouts of tensor-core operand tiles: swizzledIndex
// (tlc_device/swizzle.h, shared with HIP) and the panels wgmma reads.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DEVICE_CUDA_SWIZZLE_H
#define TLC_DEVICE_CUDA_SWIZZLE_H

#include "tlc_device/cuda/common.h"
#include "tlc_device/swizzle.h"

namespace tlc {
namespace cuda {

using ::tlc::swizzledIndex;

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
/// Copied, not read through a uint32_t pointer: that access would alias
/// the 16-bit stores that wrote the pair, which the compiler may then move
/// past it (the sim device's clang -O1 did: the P.V product read P before
/// the cast that wrote it).
template <typename T> TLC_DEVICE uint32_t packPair(const T *pair) {
  static_assert(sizeof(T) == 2, "packPair packs two 16-bit values");
  uint32_t v;
  memcpy(&v, pair, sizeof(v));
  return v;
}

/// Four 8-bit values as one 32-bit mma operand register, \p b0 in the low
/// byte: the byte quadruples of m16n8k32's A and B registers, read element
/// by element where the tile is stored the other way round (ldmatrix's
/// `.trans` moves 16-bit elements, not bytes).
template <typename T>
TLC_DEVICE uint32_t packBytes(const T &b0, const T &b1, const T &b2,
                              const T &b3) {
  static_assert(sizeof(T) == 1, "packBytes packs four 8-bit values");
  return uint32_t(bitCast<uint8_t>(b0)) | uint32_t(bitCast<uint8_t>(b1)) << 8 |
         uint32_t(bitCast<uint8_t>(b2)) << 16 |
         uint32_t(bitCast<uint8_t>(b3)) << 24;
}

} // namespace cuda
} // namespace tlc

#endif // TLC_DEVICE_CUDA_SWIZZLE_H
