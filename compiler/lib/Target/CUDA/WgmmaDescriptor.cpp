//===- WgmmaDescriptor.cpp - wgmma shared-memory matrix descriptors -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/CUDA/WgmmaDescriptor.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

using namespace tlc;
using namespace tlc::target;

static llvm::Error makeError(const llvm::Twine &text) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), text);
}

int64_t tlc::target::getSwizzleBytes(WgmmaSwizzle mode) {
  switch (mode) {
  case WgmmaSwizzle::B128:
    return 128;
  case WgmmaSwizzle::B64:
    return 64;
  case WgmmaSwizzle::B32:
    return 32;
  case WgmmaSwizzle::None:
    return 16;
  }
  return 16;
}

llvm::Expected<WgmmaSwizzle> tlc::target::getSwizzleForBytes(int64_t bytes) {
  switch (bytes) {
  case 128:
    return WgmmaSwizzle::B128;
  case 64:
    return WgmmaSwizzle::B64;
  case 32:
    return WgmmaSwizzle::B32;
  default:
    return makeError("no wgmma swizzle mode has " + llvm::Twine(bytes) +
                     "-byte rows");
  }
}

llvm::Expected<uint64_t>
tlc::target::packDescriptorAddresses(uint32_t startAddress,
                                     uint32_t leadingByteOffset,
                                     uint32_t strideByteOffset) {
  uint64_t packed = 0;
  const std::pair<uint32_t, const char *> fields[] = {
      {startAddress, "start address"},
      {leadingByteOffset, "leading dimension byte offset"},
      {strideByteOffset, "stride dimension byte offset"}};
  for (auto [i, field] : llvm::enumerate(fields)) {
    auto [bytes, what] = field;
    if (bytes % 16 != 0 || bytes >= (1u << 18))
      return makeError(llvm::Twine(what) + " " + llvm::Twine(bytes) +
                       " is not a multiple of 16 below 2^18");
    packed |= uint64_t(bytes >> 4) << (16 * i);
  }
  return packed;
}

llvm::Expected<uint64_t> tlc::target::encodeWgmmaDescriptor(
    uint32_t startAddress, uint32_t leadingByteOffset,
    uint32_t strideByteOffset, WgmmaSwizzle mode) {
  llvm::Expected<uint64_t> addresses = packDescriptorAddresses(
      startAddress, leadingByteOffset, strideByteOffset);
  if (!addresses)
    return addresses.takeError();
  return *addresses | (uint64_t(static_cast<uint8_t>(mode)) << 62);
}

llvm::Expected<WgmmaOperandAccess>
tlc::target::getWgmmaOperandAccess(const WgmmaOperandTile &tile, int64_t mn0,
                                   int64_t k0) {
  if (tile.swizzle == WgmmaSwizzle::None)
    return makeError("tlc reads wgmma operands from swizzled tiles only");
  int64_t rowBytes = getSwizzleBytes(tile.swizzle);
  if (tile.elemBytes <= 0 || rowBytes % tile.elemBytes)
    return makeError("bad element size");
  int64_t width = rowBytes / tile.elemBytes;
  if (tile.rows <= 0 || tile.rows % 8 || tile.cols <= 0 || tile.cols % width)
    return makeError("a [" + llvm::Twine(tile.rows) + ", " +
                     llvm::Twine(tile.cols) + "] tile is no whole number of " +
                     llvm::Twine(rowBytes) + "-byte swizzle atoms");
  // Panel p of the tile holds columns [p * width, (p + 1) * width): rows
  // of `rowBytes`, one after the other.
  int64_t panelBytes = tile.rows * rowBytes;
  // An M/N-major descriptor reads `width` M/N elements of an atom row from
  // its start, then the next panel (LBO): a start inside the row would
  // read the following K row's elements.
  if (!tile.kMajor && mn0 % width)
    return makeError("an M/N-major operand's instruction starts at element " +
                     llvm::Twine(mn0) + ", inside a " + llvm::Twine(rowBytes) +
                     "-byte swizzle atom row of " + llvm::Twine(width) +
                     " elements");
  int64_t row = tile.kMajor ? mn0 : k0, col = tile.kMajor ? k0 : mn0;
  WgmmaOperandAccess access;
  access.startOffset = (col / width) * panelBytes + row * rowBytes +
                       (col % width) * tile.elemBytes;
  if (access.startOffset % 16)
    return makeError("the instruction's operand does not start on a 16-byte "
                     "boundary");
  // K-major: 8-row groups of M/N follow each other in a panel (SBO); K
  // stays inside one atom row (LBO unused, 1 by convention). MN-major:
  // the next `width` M/N elements are in the next panel (LBO), the next
  // 8 rows of K 8 rows further down (SBO).
  access.strideByteOffset = 8 * rowBytes;
  access.leadingByteOffset = tile.kMajor ? 16 : panelBytes;
  return access;
}
