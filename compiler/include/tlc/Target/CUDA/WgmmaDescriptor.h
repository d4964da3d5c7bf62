//===- WgmmaDescriptor.h - wgmma shared-memory matrix descriptors -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The 64-bit matrix descriptor `wgmma.mma_async` reads a shared-memory
// operand through (PTX ISA, "Matrix Descriptor Format"):
//
//   bits  0-13  start address >> 4
//   bits 16-29  leading dimension byte offset >> 4
//   bits 32-45  stride dimension byte offset >> 4
//   bits 49-51  matrix base offset (0: the operand's swizzle atoms are
//               aligned to their repeating pattern)
//   bits 62-63  swizzle mode: 0 none, 1 128-byte, 2 64-byte, 3 32-byte
//
// and where tlc's operand tiles put the bytes an instruction reads. tlc
// stores a swizzled operand tile [R, C] (R rows, C contiguous elements of
// `elemBytes`) as C / W panels of W = swizzle bytes / elemBytes columns,
// each panel R rows of W elements whose 16-byte chunks are XOR-ed with
// (row % 8) >> (3 - log2(swizzle bytes / 32)) — the layout
// `layout::makeGemmABLayoutHopper` describes and the swizzle the hardware
// applies to addresses when every panel starts on a 1024-byte boundary.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_CUDA_WGMMADESCRIPTOR_H
#define TLC_TARGET_CUDA_WGMMADESCRIPTOR_H

#include "llvm/Support/Error.h"

#include <cstdint>

namespace tlc {
namespace target {

/// The swizzle modes of a descriptor, by their field value.
enum class WgmmaSwizzle : uint8_t {
  None = 0,
  B128 = 1,
  B64 = 2,
  B32 = 3,
};

/// Bytes of one swizzle-atom row (128, 64, 32; 16 for None).
int64_t getSwizzleBytes(WgmmaSwizzle mode);
/// The mode whose atom rows are \p bytes long, or an error.
llvm::Expected<WgmmaSwizzle> getSwizzleForBytes(int64_t bytes);

/// The address fields that wgmma and tcgen05 shared memory descriptors share:
/// \p startAddress >> 4 in bits 0-13, \p leadingByteOffset >> 4 in bits
/// 16-29, \p strideByteOffset >> 4 in bits 32-45. Each is a byte value, a
/// multiple of 16 below 2^18 (an error naming the field otherwise).
llvm::Expected<uint64_t> packDescriptorAddresses(uint32_t startAddress,
                                                 uint32_t leadingByteOffset,
                                                 uint32_t strideByteOffset);

/// Encodes a descriptor. \p startAddress, \p leadingByteOffset and
/// \p strideByteOffset are byte values, multiples of 16 below 2^18 (an
/// error otherwise); the base offset is 0.
llvm::Expected<uint64_t> encodeWgmmaDescriptor(uint32_t startAddress,
                                               uint32_t leadingByteOffset,
                                               uint32_t strideByteOffset,
                                               WgmmaSwizzle mode);

/// A swizzled operand tile as tlc stores it (see the file comment).
struct WgmmaOperandTile {
  /// Rows and contiguous elements of the tile.
  int64_t rows = 0, cols = 0;
  int64_t elemBytes = 2;
  WgmmaSwizzle swizzle = WgmmaSwizzle::B128;
  /// The contiguous dimension is K (K-major); otherwise M or N.
  bool kMajor = true;
};

/// Where one wgmma instruction's operand starts and how it strides.
struct WgmmaOperandAccess {
  /// Byte offset of the instruction's first element from the tile start.
  int64_t startOffset = 0;
  /// The descriptor's leading and stride dimension byte offsets.
  int64_t leadingByteOffset = 0, strideByteOffset = 0;
};

/// The access of an instruction whose operand begins at M/N index \p mn0
/// and K index \p k0 of \p tile (an error when the tile cannot be read
/// by a descriptor: rows not a multiple of 8, columns not a multiple of the
/// panel width, a start that is not 16-byte aligned).
llvm::Expected<WgmmaOperandAccess>
getWgmmaOperandAccess(const WgmmaOperandTile &tile, int64_t mn0, int64_t k0);

} // namespace target
} // namespace tlc

#endif // TLC_TARGET_CUDA_WGMMADESCRIPTOR_H
