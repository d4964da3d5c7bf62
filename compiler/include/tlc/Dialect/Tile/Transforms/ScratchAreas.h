//===- ScratchAreas.h - Shared areas of the target's expansions -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The shared-memory areas a GPU target's expansion of an operation needs
// besides the planned buffers: the reduction scratch of T.reduce_* whose
// rows span several warps, and the fragment exchange area of T.Parallel
// loops, fragment copies, scalar reads and T.cumsum that read a fragment
// in another thread's layout. How large each op's area is follows from the
// target's fragment layouts (the CUDA/HIP printer measures it,
// PreparedKernel::measureScratchAreas in PreparedKernels.h); where the areas
// go, and whether an area's use must end with a barrier, is decided here once
// (tile-plan-scratch-areas), and the printer reads the decision.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_SCRATCHAREAS_H
#define TLC_DIALECT_TILE_TRANSFORMS_SCRATCHAREAS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tlc {
namespace tile {

class KernelOp;

/// What one kernel's operations ask of the two areas.
struct ScratchAreaNeeds {
  /// One op's use of an area, with the bytes it needs there.
  struct Use {
    mlir::Operation *op = nullptr;
    int64_t bytes = 0;
    /// Read after the area's last barrier (scalar code, T.cumsum): no
    /// buffer may share the area's bytes anywhere.
    bool publishes = false;
  };
  /// Reductions across warps (`tile.scratch_bytes`).
  llvm::SmallVector<Use> scratch;
  /// Fragment exchanges (`tile.exchange_bytes`, `tile.exchange_publishes`).
  llvm::SmallVector<Use> exchange;

  int64_t scratchBytes() const;
  int64_t exchangeBytes() const;
};

/// Where the areas go.
struct ScratchAreaPlan {
  /// Byte offsets in the dynamic shared memory, -1 for an area not needed.
  int64_t scratchOffset = -1, exchangeOffset = -1;
  /// The kernel's shared bytes with the areas (before the program's
  /// mbarriers, which the printer places after them).
  int64_t totalBytes = 0;
  /// The ops whose use of an area ends with a barrier: the area lies over
  /// a buffer that is dead there, whose bytes the next statements use.
  llvm::DenseSet<mlir::Operation *> barrierAfter;
};

/// Reads the needs the target recorded on \p kernel's ops.
ScratchAreaNeeds getScratchAreaNeeds(KernelOp kernel);

/// Places the areas of \p needs: after the kernel's planned buffers
/// (`tile.shared_bytes`), each at a 128-byte boundary; where that passes
/// \p budget (bytes of shared memory per block), over buffers dead at every
/// use of an area instead (lifetime-based, as tile-plan-shared-memory lets
/// buffers share bytes), if that needs fewer bytes. Warp-specialised
/// kernels (tile.ws_producer_threads, T.ws) keep their areas after the
/// buffers: their threads do not run in program order.
ScratchAreaPlan placeScratchAreas(KernelOp kernel,
                                  const ScratchAreaNeeds &needs,
                                  int64_t budget);

/// Records \p plan on \p kernel and its ops: `tile.scratch_offset`,
/// `tile.exchange_offset`, `tile.area_bytes` and `tile.areas_planned` on the
/// kernel, `tile.area_barrier` on each op of plan.barrierAfter.
void recordScratchAreaPlan(KernelOp kernel, const ScratchAreaPlan &plan);

} // namespace tile
} // namespace tlc

#endif // TLC_DIALECT_TILE_TRANSFORMS_SCRATCHAREAS_H
