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

#include "tlc/Layout/Layout.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace tlc::layout {

/// The N of each wgmma instruction over a warpgroup's \p warpN columns: the
/// widest multiple of 8, at most 256, that divides \p warpN (8 when none
/// does).
int64_t wgmmaInstructionN(int64_t warpN);

/// makeGemmABLayoutHopper()'s layout for an operand whose instructions start
/// every \p mnStep elements along its contiguous M/N (0: a K-major operand,
/// or no constraint): the widest swizzle whose atom row divides \p mnStep,
/// else linear.
Layout makeWgmmaOperandLayout(llvm::ArrayRef<int64_t> shape, unsigned elemBits,
                              int64_t mnStep);

} // namespace tlc::layout

#endif // TLC_LAYOUT_WGMMALAYOUTS_H
