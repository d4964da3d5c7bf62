//===- ThreadRangePlan.h - Named barriers of thread ranges ------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The named barrier each thread range of a kernel synchronises on: the
// branches of `tile.if` that run on a warp-aligned part of the block
// (`T.ws(g)`, `tx < c`, `tx >= c` and their else branches, getBranchRange)
// partition their tile operations over their own threads, and the
// barriers among those threads are named barriers (`bar.sync id, count`),
// never the block's. tile-plan-thread-ranges chooses the ids
// (chooseRangeBarriers) and records them on the `tile.if` ops
// (setRangeBarriers); the CUDA and HIP printers read them
// (getRangeBarriers), which checks what they can follow.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_THREADRANGEPLAN_H
#define TLC_DIALECT_TILE_TRANSFORMS_THREADRANGEPLAN_H

#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/SmallVector.h"

namespace tlc::tile {

/// The named barrier of one thread range.
struct RangeBarrier {
  ThreadRange range;
  int64_t id = 0;
};

/// The highest named barrier id (hardware barriers 0..15; 0 is the
/// block's `__syncthreads`).
inline constexpr int64_t kMaxNamedBarrierId = 15;

/// The named barrier ids \p kernel's program uses itself
/// (`T.sync_threads(barrier_id=)`, `T.named_barrier_arrive` with a
/// constant id): never given to a range.
llvm::SmallVector<int64_t, 4> getProgramBarrierIds(KernelOp kernel);

/// One named barrier per distinct range of a `tile.if` branch of \p kernel
/// (a block of \p threads threads), the first range met (post-order over
/// the `tile.if` ops, then branch before else) from id 15 down, skipping
/// the program's own ids. Fails, with an error at the `tile.if`, when the
/// ranges outnumber the free ids.
mlir::FailureOr<llvm::SmallVector<RangeBarrier, 4>>
chooseRangeBarriers(KernelOp kernel, int64_t threads);

/// Records \p barriers on the `tile.if` ops of \p kernel whose branches
/// are ranges: `tile.range_barriers = array<i64: THEN, ELSE>`, the id of
/// each branch's range (0: the branch is no range of its own).
void setRangeBarriers(KernelOp kernel, int64_t threads,
                      llvm::ArrayRef<RangeBarrier> barriers);

/// The plan recorded on \p kernel's `tile.if` ops (one entry per distinct
/// range). Fails, with an error at the op, when it is malformed: a branch
/// range without an id, an id on a branch that is no range, an id outside
/// 1..15 or one the program uses itself, two ids for one range, one id
/// for two ranges.
mlir::FailureOr<llvm::SmallVector<RangeBarrier, 4>>
getRangeBarriers(KernelOp kernel, int64_t threads);

/// The marker of a module tile-plan-thread-ranges planned
/// (markModulePlanned).
inline constexpr llvm::StringLiteral kRangesPlanned = "tile.ranges_planned";

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_TRANSFORMS_THREADRANGEPLAN_H
