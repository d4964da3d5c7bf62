//===- WgmmaLayouts.h - Shapes wgmma descriptors constrain ------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What sm_90's wgmma.mma_async asks of its shared operands beyond the
// swizzle itself. A descriptor over an M/N-major operand (its contiguous
// dimension is M or N) reads whole swizzle atom rows from its start address
// and takes the next atom row from the next panel (LBO): an instruction that
// starts inside an atom row reads the following K row's elements. So the
// atom row (32, 64 or 128 bytes) must divide the step at which the
// instructions start along M/N: for B stored [K, N] and split between
// warpgroup columns, the instruction N (wgmmaInstructionN of each column's
// width).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_WGMMALAYOUTS_H
#define TLC_LAYOUT_WGMMALAYOUTS_H

#include "tlc/Layout/GemmLayouts.h"
#include "tlc/Layout/Layout.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace tlc::layout {

/// The N of each wgmma instruction over a warpgroup's \p warpN columns: the
/// widest multiple of 8, at most 256, that divides \p warpN (8 when none
/// does).
int64_t wgmmaInstructionN(int64_t warpN);

/// The warpgroup grid of a wgmma gemm: TileLang's warp partition of its
/// accumulator (gemmWarpPartition) and the instructions it implies. The
/// shared layouts of its operands (gemmOperandSharedLayout), the choice of
/// wgmma (tile-plan-wgmma) and the descriptor panels take the step along B
/// from here.
struct WgmmaGrid {
  WarpPartition partition;
  /// Warpgroups along M (partition.warpRows / 4).
  int64_t groups = 0;
  /// Columns of each warpgroup column (0 where the warp columns do not
  /// divide N).
  int64_t warpN = 0;
  /// The N of each instruction, wgmmaInstructionN(warpN) (0 with warpN).
  int64_t instrN = 0;
  /// The step at which the instructions start along B's contiguous N when
  /// B is N-major (stored [K, N]): warpgroup column wn's start at
  /// wn * warpN + j * instrN, so instrN; 0 for a K-major B (or no warpN).
  int64_t bMnStep = 0;
  /// Whether each warpgroup's tile is a multiple of 64 x 8 (what the
  /// instructions compute).
  bool wholeTiles() const;
};

/// The warpgroup grid of \p config, a gemm whose instruction is wgmma
/// (selectGemmInstr); an error where no warp partition fits.
llvm::Expected<WgmmaGrid> wgmmaGrid(const GemmConfig &config);

/// The warpgroup grid of \p config on the warps \p partition: wgmmaGrid's
/// own partition, or the one an accumulator was laid out on (an annotated
/// accumulator takes the grid of the policy that gives its layout). The
/// instruction N and the warpgroup tiles are computed here only.
WgmmaGrid wgmmaGridOn(const GemmConfig &config, const WarpPartition &partition);

/// makeGemmABLayoutHopper()'s layout for an operand whose instructions start
/// every \p mnStep elements along its contiguous M/N (0: a K-major operand,
/// or no constraint): the widest swizzle whose atom row divides \p mnStep,
/// else linear.
Layout makeWgmmaOperandLayout(llvm::ArrayRef<int64_t> shape, unsigned elemBits,
                              int64_t mnStep);

} // namespace tlc::layout

#endif // TLC_LAYOUT_WGMMALAYOUTS_H
