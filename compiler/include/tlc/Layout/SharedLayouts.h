//===- SharedLayouts.h - Shared-memory swizzle and padding layouts -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Builders for the shared-memory layouts the tensor-core paths expect. The
// last two dimensions of a buffer are (row, contiguous column); leading
// dimensions (pipeline stages) are folded in front. Every builder returns a
// one-output Layout giving the element offset in the buffer.
//
// XOR swizzles permute the 16-byte chunks of each row of an 8-row atom: with
// vec = 128 / bits elements per chunk, row r, column c, chunk q = c // vec and
// s = r % 8, the swizzled chunk is
//
//   128B:  q % 8 ^ s          (8 chunks per atom row)
//    64B:  q % 4 ^ s // 2     (4 chunks per atom row)
//    32B:  q % 2 ^ s // 4     (2 chunks per atom row)
//
// The tile is stored as column panels of swizzle-width bytes, each panel a
// stack of 8-row atoms. Byte for byte this is the TMA / WGMMA
// `Swizzle<B, 4, 3>` pattern with B = 1, 2, 3.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_SHAREDLAYOUTS_H
#define TLC_LAYOUT_SHAREDLAYOUTS_H

#include "tlc/Layout/Layout.h"

#include "llvm/Support/Error.h"

#include <array>
#include <optional>

namespace tlc {
namespace layout {

/// The three XOR swizzle granularities.
enum class SwizzleMode : uint8_t {
  B32,  ///< 32-byte rows, CuTe Swizzle<1,4,3>, CU_TENSOR_MAP_SWIZZLE_32B.
  B64,  ///< 64-byte rows, CuTe Swizzle<2,4,3>, CU_TENSOR_MAP_SWIZZLE_64B.
  B128, ///< 128-byte rows, CuTe Swizzle<3,4,3>, CU_TENSOR_MAP_SWIZZLE_128B.
};

/// Row width of \p mode in bytes (32, 64, 128).
int64_t swizzleBytes(SwizzleMode mode);
/// The LayoutKind of a swizzle mode.
LayoutKind layoutKindOf(SwizzleMode mode);
/// The CuTe `Swizzle<B, M, S>` parameters over byte offsets: {B, 4, 3}.
std::array<int, 3> cuteSwizzleBytes(SwizzleMode mode);

/// True when \p mode applies to a [rows, cont] tile of \p elemBits elements:
/// rows % 8 == 0 and the contiguous extent is a multiple of the swizzle
/// width.
bool canSwizzle(SwizzleMode mode, int64_t rows, int64_t cont,
                unsigned elemBits);

/// The \p mode swizzle of a buffer of \p shape (rank >= 2). Fails when the
/// mode does not apply (see canSwizzle) or elemBits is not 8, 16, 32 or 64.
llvm::Expected<Layout> makeSwizzledLayout(llvm::ArrayRef<int64_t> shape,
                                          unsigned elemBits, SwizzleMode mode);

/// The layout of the device runtime's `tlc::cuda::swizzledIndex` (what the
/// CUDA printer gives the shared tiles it swizzles): row-major with every
/// dimension but the last folded into the row, and the 16-byte chunk number
/// c of each row XOR-ed by row bits: `c ^ row % 8` for rows of 8 or more
/// chunks, `c ^ (row / 2) % 4` for 4, `c ^ (row / 4) % 2` for 2. Fails
/// unless the rows are whole chunks of 8- or 16-bit elements.
llvm::Expected<Layout> makeRowSwizzledLayout(llvm::ArrayRef<int64_t> shape,
                                             unsigned elemBits);
/// Row-major with row pitch `cont + padElems` (offset = row * pitch + col,
/// leading dimensions folded in front).
llvm::Expected<Layout> makePaddedLayout(llvm::ArrayRef<int64_t> shape,
                                        unsigned elemBits, int64_t padElems);

/// The widest swizzle that applies to the last two dimensions of \p shape
/// (128B, then 64B, then 32B), or std::nullopt.
std::optional<SwizzleMode> widestSwizzle(llvm::ArrayRef<int64_t> shape,
                                         unsigned elemBits);

/// sm_80 `mma.sync` operand layout for a shared A/B buffer: 8-bit operands
/// whose K dimension is not contiguous (\p kInner false) get the padded
/// layout; otherwise the widest swizzle; otherwise padded by 128 bits when
/// the row is a multiple of 256 bits; otherwise linear.
Layout makeGemmABLayoutSm80(llvm::ArrayRef<int64_t> shape, unsigned elemBits,
                            bool kInner);
/// sm_90 WGMMA / TMA operand layout: the widest swizzle, else linear; never
/// padded (descriptors need canonical layouts).
Layout makeGemmABLayoutHopper(llvm::ArrayRef<int64_t> shape,
                              unsigned elemBits);

/// CDNA matrix-core LDS swizzle: vecSize = (64 / bits) * kPack,
/// perPhase = max(1, (32 * 32 / bits) / cont), maxPhase =
/// min(16 / perPhase, cont / vecSize), phase = (row // perPhase) % maxPhase,
/// col' = ((col // vecSize) ^ phase) * vecSize + col % vecSize.
llvm::Expected<Layout> makeMatrixCoreSwizzleLayout(
    llvm::ArrayRef<int64_t> shape, unsigned elemBits, int64_t kPack = 1);

/// Recognises which swizzle \p layout is by comparing it, element by
/// element, with the canonical swizzles of its shape and element width.
std::optional<SwizzleMode> detectSwizzleMode(const Layout &layout);

/// Merges two layouts proposed for one shared buffer: equal layouts merge to
/// either; two swizzles merge to the narrower one; anything else is a
/// conflict, reported as an error naming both labels.
llvm::Expected<Layout> mergeSharedLayouts(const Layout &a, const Layout &b);

} // namespace layout
} // namespace tlc

#endif // TLC_LAYOUT_SHAREDLAYOUTS_H
