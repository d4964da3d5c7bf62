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
  unsigned dynamicSharedMemory = 0;
  /// A cooperative launch (the kernel calls T.sync_grid).
  bool cooperative = false;
  /// Indices into the manifest's workspaces, in argument order.
  std::vector<size_t> workspaces;
};

/// The plan of launch \p launch of \p manifest; an error names the kernel
/// and what is wrong (no grid or block, symbolic block extents, a block
/// over 1024 threads, a workspace the manifest does not declare).
llvm::Expected<LaunchPlan> planLaunch(const artifact::Manifest &manifest,
                                      const artifact::Launch &launch);

} // namespace tlc::runtime

#endif // TLC_RUNTIME_LAUNCHPLAN_H
