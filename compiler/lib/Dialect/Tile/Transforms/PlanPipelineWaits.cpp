//===- PlanPipelineWaits.cpp - The --tile-plan-pipeline-waits pass --------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Chooses how each iteration of a multi-buffered loop with cp.async
// producers waits for its stage (the cp.async groups it leaves in flight,
// the async-proxy fence before its barrier) and records it on the loop for
// the CUDA and HIP printers (PipelineWaitPlan.h).
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Dialect/Tile/Transforms/PipelineWaitPlan.h"

#include "tlc/Dialect/Tile/IR/LoweringStatus.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEPLANPIPELINEWAITS
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

static constexpr llvm::StringLiteral kWait = "tile.async_wait";
static constexpr llvm::StringLiteral kFence = "tile.async_proxy_fence";

/// The stages of a multi-buffered loop (tile-plan-pipelines), or 0.
static int64_t stagesOf(PipelinedOp pipe) {
  auto stages = pipe->getAttrOfType<IntegerAttr>("tile.stages");
  return stages ? stages.getInt() : 0;
}

bool tlc::tile::isBarrierPipeline(PipelinedOp pipe) {
  if (!stagesOf(pipe) || pipe->hasAttr("tile.tma_barriers"))
    return false;
  auto kernel = pipe->getParentOfType<KernelOp>();
  bool wsConsumer = kernel && kernel->hasAttr("tile.ws_producer_threads") &&
                    pipe->hasAttr("tile.ws_empty_barriers");
  return !wsConsumer;
}

/// Whether a gemm of \p pipe's kernel reads shared memory through the
/// async proxy (tile-plan-wgmma's and tile-plan-tcgen05's `tile.instr`).
static bool asyncProxyReads(PipelinedOp pipe) {
  auto kernel = pipe->getParentOfType<KernelOp>();
  if (!kernel)
    return false;
  return kernel
      .walk([](GemmOp gemm) {
        auto instr = gemm->getAttrOfType<StringAttr>("tile.instr");
        bool async = instr && (instr.getValue() == "wgmma" ||
                               instr.getValue() == "tcgen05");
        return async ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

PipelineWait tlc::tile::choosePipelineWait(PipelinedOp pipe, bool asyncCopy) {
  PipelineWait wait;
  if (asyncCopy)
    wait.asyncPending = stagesOf(pipe) - 2;
  wait.proxyFence = asyncProxyReads(pipe);
  return wait;
}

void tlc::tile::setPipelineWait(PipelinedOp pipe, const PipelineWait &wait) {
  Builder b(pipe.getContext());
  if (wait.asyncPending)
    pipe->setAttr(kWait, b.getI64IntegerAttr(*wait.asyncPending));
  else
    pipe->removeAttr(kWait);
  if (wait.proxyFence)
    pipe->setAttr(kFence, b.getUnitAttr());
  else
    pipe->removeAttr(kFence);
}

FailureOr<PipelineWait> tlc::tile::getPipelineWait(PipelinedOp pipe,
                                                   bool asyncCopy) {
  auto malformed = [&](const Twine &why) {
    pipe.emitError() << "malformed pipeline wait plan: " << why
                     << " (tile-plan-pipeline-waits)";
    return failure();
  };
  PipelineWait wait;
  Attribute attr = pipe->getAttr(kWait);
  int64_t stages = stagesOf(pipe);
  if (attr) {
    auto pending = dyn_cast<IntegerAttr>(attr);
    if (!pending)
      return malformed("tile.async_wait must be an integer");
    if (!asyncCopy)
      return malformed("tile.async_wait on a loop whose producers are no "
                       "cp.async copies");
    if (pending.getInt() < 0 || pending.getInt() > stages - 2)
      return malformed("a wait that leaves " + Twine(pending.getInt()) +
                       " cp.async groups in flight, not 0.." +
                       Twine(stages - 2) + " (with " + Twine(stages) +
                       " stages a larger count reads a stage before its "
                       "copies land)");
    wait.asyncPending = pending.getInt();
  } else if (asyncCopy) {
    return malformed("no tile.async_wait on a loop of cp.async producers");
  }
  Attribute fence = pipe->getAttr(kFence);
  if (fence && !isa<UnitAttr>(fence))
    return malformed("tile.async_proxy_fence must be a unit attribute");
  wait.proxyFence = fence != nullptr;
  if (!wait.proxyFence && asyncProxyReads(pipe))
    return malformed("no tile.async_proxy_fence, but a wgmma or tcgen05 "
                     "gemm of the kernel reads shared memory through the "
                     "async proxy");
  return wait;
}

namespace {
struct TilePlanPipelineWaitsPass final
    : tlc::tile::impl::TilePlanPipelineWaitsBase<TilePlanPipelineWaitsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // CUDA's producers are cp.async copies; HIP's plain loads.
    bool asyncCopy = getGpuTarget(module, target).starts_with("cuda:");
    llvm::StringRef planned =
        forEachGpuKernel(module, target, [&](FuncOp, KernelOp kernel) {
          kernel.walk([&](PipelinedOp pipe) {
            if (isBarrierPipeline(pipe))
              setPipelineWait(pipe, choosePipelineWait(pipe, asyncCopy));
          });
        });
    if (!planned.empty())
      markModulePlanned(module, kPipelineWaitsPlanned);
  }
};
} // namespace
