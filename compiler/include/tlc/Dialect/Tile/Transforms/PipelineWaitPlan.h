//===- PipelineWaitPlan.h - How a pipelined iteration waits -----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// How each iteration of a multi-buffered `T.Pipelined` loop (tile-plan-
// pipelines' `tile.stages`) whose producers are cp.async copies waits for
// its stage before the one block barrier of the iteration: how many of the
// committed cp.async groups it may leave in flight, and whether that
// barrier also fences the async proxy (wgmma or tcgen05 read the stages
// the generic proxy wrote). tile-plan-pipeline-waits chooses it
// (choosePipelineWait) and records it on the loop; the CUDA and HIP
// printers read it (getPipelineWait), which checks what they can follow.
// Loops whose producers are TMA copies (tile-plan-tma) wait on mbarriers,
// and warp-specialised loops on their rings: no plan.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_PIPELINEWAITPLAN_H
#define TLC_DIALECT_TILE_TRANSFORMS_PIPELINEWAITPLAN_H

#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include <optional>

namespace tlc::tile {

/// The wait of each iteration of a multi-buffered loop.
struct PipelineWait {
  /// The cp.async groups the iteration's wait leaves in flight
  /// (`cp.async.wait_group N`); none when the producers are no cp.async
  /// copies (a target without them: plain loads issued ahead).
  std::optional<int64_t> asyncPending;
  /// Whether a proxy fence (`fence.proxy.async.shared::cta`) precedes the
  /// iteration's barrier.
  bool proxyFence = false;
};

/// Whether the printer expands \p pipe as a multi-buffered loop that waits
/// for its stages with a block barrier: staged (`tile.stages`), its
/// producers no TMA copies (`tile.tma_barriers`), not the consumer loop of
/// a warp-specialised kernel (`tile.ws_empty_barriers` in a kernel with
/// `tile.ws_producer_threads`).
bool isBarrierPipeline(PipelinedOp pipe);

/// The wait \p pipe's iterations need (isBarrierPipeline loops): with
/// cp.async producers (\p asyncCopy: CUDA) S - 1 groups are committed
/// before the iteration's wait and one more after each, the oldest being
/// the iteration's own, so S - 2 may stay in flight; the proxy fence where
/// a wgmma or tcgen05 gemm of the kernel reads shared memory.
PipelineWait choosePipelineWait(PipelinedOp pipe, bool asyncCopy);

/// Records \p wait on \p pipe: `tile.async_wait = N : i64` and the unit
/// `tile.async_proxy_fence`.
void setPipelineWait(PipelinedOp pipe, const PipelineWait &wait);

/// The wait recorded on \p pipe. Fails, with an error at the loop, when
/// the printer cannot follow it: no `tile.async_wait` on a loop of cp.async
/// producers (\p asyncCopy), one on a loop without them, a count that is
/// not 0..S-2 (a larger one reads a stage before its copies land), no
/// proxy fence where a wgmma or tcgen05 gemm reads the stages.
mlir::FailureOr<PipelineWait> getPipelineWait(PipelinedOp pipe, bool asyncCopy);

/// The marker of a module tile-plan-pipeline-waits planned
/// (markModulePlanned).
inline constexpr llvm::StringLiteral kPipelineWaitsPlanned =
    "tile.pipeline_waits_planned";

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_TRANSFORMS_PIPELINEWAITPLAN_H
