//===- PreparedKernels.h - Kernels the GPU target laid out ------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// tile-plan-scratch-areas asks a question the CUDA/HIP printer's expansion
// answers: the scratch and exchange bytes each op needs. The target
// library prepares a kernel for its printer (fits its fragment layouts,
// plans its shared storage) through the one hook below, and
// PreparedKernels, a module analysis, keeps each kernel's preparation while
// passes that only annotate ops run (tile-plan-fragment-exchanges marks it
// preserved).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_PREPAREDKERNELS_H
#define TLC_DIALECT_TILE_TRANSFORMS_PREPAREDKERNELS_H

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>

namespace tlc::tile {

/// A kernel the GPU target prepared for its printer. Its answers follow
/// from the kernel's IR as it was when prepared, except for the recorded
/// plans it reads when asked (`tile.exchange_tile`, `tile.exchanged`).
/// Neither reports diagnostics: the printer reports what it cannot lay
/// out, once, when it prints the kernel.
class PreparedKernel {
public:
  virtual ~PreparedKernel();
  /// Records each op's scratch and exchange need on it
  /// (`tile.scratch_bytes`, `tile.exchange_bytes`,
  /// `tile.exchange_publishes`) and returns the block's shared-memory
  /// budget; nothing when the recorded exchange plan is malformed.
  virtual std::optional<int64_t> measureScratchAreas() = 0;
};

/// The target's preparation of \p kernel for the target \p gpuTarget
/// (`cuda:sm_80`, `hip:gfx942`); null when it cannot lay the kernel out.
using KernelPreparer = std::unique_ptr<PreparedKernel> (*)(
    KernelOp kernel, llvm::StringRef gpuTarget);

/// Sets the preparation tile-plan-scratch-areas uses (the CUDA/HIP target
/// library's); without one (tlc-opt) it places the needs already recorded.
void setKernelPreparer(KernelPreparer preparer);

/// Whether a preparer is set.
bool hasKernelPreparer();

/// A module analysis: each kernel's preparation, made on first request.
/// A pass that changes no kernel's structure (only attributes the
/// preparation does not read) marks it preserved, so that the next pass
/// asks the same preparation.
class PreparedKernels {
public:
  explicit PreparedKernels(mlir::Operation *module) {}
  /// \p kernel prepared for \p gpuTarget; null when no preparer is set or
  /// it cannot lay the kernel out.
  PreparedKernel *get(KernelOp kernel, llvm::StringRef gpuTarget);

private:
  std::string target;
  llvm::DenseMap<mlir::Operation *, std::unique_ptr<PreparedKernel>> kernels;
};

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_TRANSFORMS_PREPAREDKERNELS_H
