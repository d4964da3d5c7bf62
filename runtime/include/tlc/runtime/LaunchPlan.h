//===- LaunchPlan.h - One manifest launch, checked --------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What every GPU-like device (cuda, sim) needs of a manifest's launch
// before it runs one: the entry, the grid as expressions over the kernel's
// symbols, the static block, the dynamic shared memory and the workspaces
// the launch takes. Read and checked in one place.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_RUNTIME_LAUNCHPLAN_H
#define TLC_RUNTIME_LAUNCHPLAN_H

#include "tlc/Target/Artifact/Manifest.h"
#include "tlc/Target/Artifact/ShapeExpr.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tlc::runtime {

/// One launch of a kernel instance.
struct LaunchPlan {
  /// The `__global__` function (the launch's, else the manifest's entry).
  std::string entry;
  /// Grid extents, evaluated against the symbols at run time.
  std::vector<artifact::ShapeExpr> grid;
  /// Threads per block (static), at most 1024 in all.
  unsigned block[3] = {1, 1, 1};
  /// Dynamic shared memory bytes per block, evaluated against the symbols
  /// at run time (an expression when shared buffers have symbolic shapes).
  artifact::ShapeExpr dynamicSharedMemory = artifact::ShapeExpr::constant(0);
  /// A cooperative launch (the kernel calls T.sync_grid).
  bool cooperative = false;
  /// Blocks per cluster along x, y, z (1 1 1: no cluster launch).
  unsigned cluster[3] = {1, 1, 1};
  /// Indices into the manifest's workspaces, in argument order.
  std::vector<size_t> workspaces;
};

/// The plan of launch \p launch of \p manifest; an error names the kernel
/// and what is wrong (no grid or block, symbolic block extents, a block
/// over 1024 threads, a workspace the manifest does not declare).
llvm::Expected<LaunchPlan> planLaunch(const artifact::Manifest &manifest,
                                      const artifact::Launch &launch);

/// The grid and dynamic shared memory of one launch for one run.
struct LaunchSize {
  unsigned grid[3] = {1, 1, 1};
  unsigned dynamicSharedMemory = 0;
  /// A grid extent is 0 (`T.Kernel(M)` with M = 0): the launch runs no
  /// block, so launchers skip it (CUDA would refuse the empty grid).
  bool isEmpty() const { return !grid[0] || !grid[1] || !grid[2]; }
};

/// Evaluates \p plan's grid and dynamic shared memory with the run's symbol
/// values (\p lookup). An error names the kernel and says what is wrong: a
/// negative grid extent or one past 2^31 - 1, negative shared memory, or
/// more than \p sharedLimit bytes (the device's limit per block, described
/// as \p device; nullopt: not checked here).
llvm::Expected<LaunchSize>
sizeLaunch(const artifact::Manifest &manifest, const LaunchPlan &plan,
           const std::function<std::optional<int64_t>(llvm::StringRef)> &lookup,
           std::optional<int64_t> sharedLimit, llvm::StringRef device);

} // namespace tlc::runtime

#endif // TLC_RUNTIME_LAUNCHPLAN_H
