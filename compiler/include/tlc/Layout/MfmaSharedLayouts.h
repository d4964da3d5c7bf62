//===- MfmaSharedLayouts.h - LDS layouts of CDNA MFMA operands --*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The LDS layout of a `T.gemm` operand tile on AMD CDNA, chosen for the
// reads the HIP printer (HIPEmitterGemm.cpp) makes of it: per MFMA step,
// each lane of a 64-lane wavefront reads its perStep consecutive k of one
// row or column of the operand (one ds_read_b64 / ds_read_b128 where K is
// the tile's contiguous dimension; 8-byte chunks of n x 16 blocks, n = 8 /
// element bytes, where M or N is and the chunks stay whole: gfx950's
// transposing reads, a DPP transpose elsewhere; else one ds_read_u16 / _u8
// per value).
// CDNA's LDS is 32 banks of 4 bytes (CDNA3 ISA, "Local Data Share": 32
// banks, each a dword wide); BankConflicts.h says which lanes share a
// cycle. No single XOR swizzle serves every MFMA shape (the NVIDIA 16-byte
// chunk swizzle leaves 2-way conflicts on every 8-byte operand read), so
// the layout is picked among row-XOR swizzles by counting the conflicts of
// exactly those reads.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_MFMASHAREDLAYOUTS_H
#define TLC_LAYOUT_MFMASHAREDLAYOUTS_H

#include "tlc/Layout/BankConflicts.h"
#include "tlc/Layout/Layout.h"

#include <vector>

namespace tlc {
namespace layout {

/// A row-XOR swizzle of a [rows, cont] tile (leading dimensions are whole
/// tiles): element (row, col) lives at row * cont + ((col / vec) ^
/// ((row / perPhase) % maxPhase)) * vec + col % vec. maxPhase 1 is the
/// row-major tile.
struct XorSwizzle {
  /// Elements kept together (a power of two dividing cont).
  int64_t vec = 1;
  /// Consecutive rows sharing one phase.
  int64_t perPhase = 1;
  /// Number of phases (a power of two dividing cont / vec).
  int64_t maxPhase = 1;
  /// The element offset of (row, col) in a tile of \p cont columns.
  int64_t offset(int64_t row, int64_t col, int64_t cont) const {
    int64_t v = col / vec, p = (row / perPhase) % maxPhase;
    return row * cont + (v ^ p) * vec + col % vec;
  }
};

/// The layout of \p swizzle over \p shape (rank >= 2, leading dimensions
/// flattened into the row as the GPU printer indexes them) with
/// \p elemBits-wide elements.
llvm::Expected<Layout> makeXorSwizzleLayout(llvm::ArrayRef<int64_t> shape,
                                            unsigned elemBits,
                                            const XorSwizzle &swizzle);

/// How the HIP printer reads one LDS operand of a `T.gemm`.
struct MfmaOperandReads {
  /// MFMA tile edge T: 16, or 32 for `mfma32` accumulators.
  int64_t tile = 16;
  /// Consecutive k each lane passes per step (4 for 16-bit, 8 for 8-bit
  /// values, times k_pack).
  int64_t perStep = 4;
  /// K is the tile's contiguous (last) dimension.
  bool kInner = true;
  /// A lane reads its perStep values as one vector (ds_read_b64/_b128).
  bool vector = false;
  /// An MN-contiguous operand (kInner false) of 1- or 2-byte elements read
  /// as 8-byte chunks: per step and read h < perStep / n (n = 8 /
  /// elementBytes), each row of 16 lanes reads the n x 16 block of k rows
  /// n h + perStep (l / T) .. + n - 1 and the tile's 16 columns from 16 ((l
  /// % T) / 16), one chunk a lane (which lane reads which chunk does not
  /// change a phase of 16 lanes).
  bool transposed = false;
  /// Bytes of one element (1, 2 or 4: f32 operands, 4 values per lane).
  int64_t elementBytes = 2;
  /// K of one step: 64 / tile lane groups of perStep values.
  int64_t step() const { return (64 / tile) * perStep; }
};

/// Every LDS read of \p reads over a [rows, cont] tile: per K step, MFMA
/// tile along M (or N) and value (one when vector; perStep / n chunk reads
/// when transposed), one entry per half wavefront with the (row, col) of
/// each lane's first element; lane l reads mn = tile * T + l % T, k = step
/// * kk + perStep * (l / T) + value (transposed: the chunk of row (l % 16)
/// / (16 / n), columns n (l % (16 / n)) of its block).
std::vector<LaneCoords> mfmaOperandReads(const MfmaOperandReads &reads,
                                         int64_t rows, int64_t cont);

/// The swizzle of an MFMA operand tile of [rows, cont] elements: the fewest
/// LDS bank conflicts (BankConflicts.h's CDNA phases) over
/// mfmaOperandReads(), among runs of 16, 8 or 4 bytes (and 32 for
/// transposed chunk reads, tried last) that keep each vector read or chunk
/// contiguous, 2 to 16 phases of 1 to 32 rows. Ties go to the row-major
/// tile, then wider runs (wider global -> LDS stores), then fewer and
/// shorter phases. A tile of more than 2^16 elements (past any CDNA
/// workgroup's LDS) stays row-major.
XorSwizzle chooseMfmaSwizzle(const MfmaOperandReads &reads, int64_t rows,
                             int64_t cont);

} // namespace layout
} // namespace tlc

#endif // TLC_LAYOUT_MFMASHAREDLAYOUTS_H
