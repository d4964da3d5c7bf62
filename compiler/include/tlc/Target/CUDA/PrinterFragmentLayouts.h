//===- PrinterFragmentLayouts.h - Fragment layouts as printed ---*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CUDA/HIP printer lays every fragment out as
// tile-assign-fragment-layouts recorded (Dialect/Tile/Transforms/
// FragmentLayouts.h: gemm operands, reductions, propagation through
// T.Parallel, else a default), which layout inference does not reproduce
// everywhere: a fragment a T.Parallel writes and scalar code reads is
// replicated for inference but keeps the loop's layout in the code (the
// scalar read goes through an exchange). The editor's hints describe the
// generated code, so they ask the printer.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_CUDA_PRINTERFRAGMENTLAYOUTS_H
#define TLC_TARGET_CUDA_PRINTERFRAGMENTLAYOUTS_H

#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Layout/Fragment.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <utility>
#include <vector>

namespace tlc::target {

/// The layout the printer for \p gpuTarget (`cuda:sm_80`, `hip:gfx942`)
/// gives each fragment allocation of \p kernel, in walk order; nothing when
/// it cannot lay the kernel out (it reports why when it prints it). The
/// kernel must have been through the GPU lowering (tile::runGpuLowering).
std::optional<std::vector<std::pair<tile::AllocOp, layout::Fragment>>>
getPrinterFragmentLayouts(tile::KernelOp kernel, llvm::StringRef gpuTarget);

} // namespace tlc::target

#endif // TLC_TARGET_CUDA_PRINTERFRAGMENTLAYOUTS_H
