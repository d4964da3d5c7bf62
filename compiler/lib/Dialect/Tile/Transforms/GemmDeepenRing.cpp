//===- GemmDeepenRing.cpp - The --tile-gemm-deepen-ring pass --------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Gives the pipelined loop of an sm_90a GEMM kernel over a shallow grid
// one stage more where shared memory has room for it and the ring already
// keeps the kernel at one block a multiprocessor (Passes.td has the
// contract). At 128 x 256 x 64 and 4096^3 the program's 3 stages measured
// 0.906-0.927 of cuBLAS and 4 stages 0.958-0.966, in three H100 runs
// (docs/perf/hopper.md, perf33-perf38): a k-step of that tile is ~1000
// tensor-core cycles, so 3 stages cover two TMA round trips in flight and 4
// cover three.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "Sm90Limits.h"
#include "StaticGrid.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/PassConfigs.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/DenseSet.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEGEMMDEEPENRING
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// Tiles a multiprocessor from which tile-persistent-gemm gives a GEMM the
/// TMA-store epilogue (its kTmaStoreTilesPerSm): a deeper grid keeps the
/// program's ring and that epilogue's area.
static constexpr int64_t kShallowTilesPerSm = 8;
/// The deepest ring this pass makes (the depth that was measured).
static constexpr int64_t kMaxStages = 4;
/// Shared memory kept for the ring's mbarriers and alignment.
static constexpr int64_t kBarrierReserve = 1024;

/// Bytes of the static shared allocation \p v, or 0.
static int64_t sharedBytes(Value v) {
  auto t = dyn_cast<BufferType>(v.getType());
  if (!t || !t.isStatic() || !isSharedScope(t.getScope()))
    return 0;
  int64_t n = getElementStorageBytes(t.getElementType());
  for (int64_t e : t.getShape())
    n *= e;
  return n;
}

namespace {
struct TileGemmDeepenRingPass final
    : tlc::tile::impl::TileGemmDeepenRingBase<TileGemmDeepenRingPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    forEachSm90aKernel(module, target,
                       [&](KernelOp kernel) { planKernel(kernel, b); });
  }

  int64_t smsOf(KernelOp kernel) {
    if (std::optional<StringRef> n = getPassConfig(kernel, "tlc.num_sms")) {
      int64_t v;
      if (!n->getAsInteger(10, v) && v > 0)
        return v;
    }
    return numSms;
  }

  void planKernel(KernelOp kernel, Builder &b) {
    std::optional<StringRef> config =
        getPassConfig(kernel, "tlc.gemm_deepen_ring");
    bool asked = config && isPassConfigOn(kernel, "tlc.gemm_deepen_ring");
    if (config && !asked)
      return;
    // A persistent kernel asked for keeps its ring: the epilogue area
    // needs the room (a deeper ring stores from the registers, perf38).
    // Nor does a kernel that is not warp-specialised (the depth measured
    // is the TMA ring's of tile-warp-specialize).
    if (isPassConfigOn(kernel, "tlc.persistent") ||
        isPassConfigOn(kernel, "tl.disable_warp_specialized"))
      return;
    std::optional<int64_t> threads = kernel.getStaticNumThreads();
    // Two consumer warpgroups or more: one warpgroup's GEMMs ping-pong
    // over tiles with epilogue areas of their own.
    if (!threads || *threads < 2 * kWarpgroupThreads)
      return;
    Block &body = kernel.getBody().front();
    SmallVector<PipelinedOp> pipes;
    kernel.walk([&](PipelinedOp p) { pipes.push_back(p); });
    int64_t gemms = 0;
    kernel.walk([&](GemmOp) { ++gemms; });
    if (pipes.size() != 1 || gemms != 1)
      return;
    PipelinedOp pipe = pipes.front();
    int64_t stages = pipe.getNumStages();
    if (pipe->getBlock() != &body || stages < 2 || stages >= kMaxStages ||
        pipe.getOrder() || pipe.getStage())
      return;
    int64_t inLoop = 0;
    pipe.walk([&](GemmOp) { ++inLoop; });
    std::optional<int64_t> lb = getConstantIntValue(pipe.getLowerBound());
    std::optional<int64_t> ub = getConstantIntValue(pipe.getUpperBound());
    if (inLoop != 1 || !lb || !ub || *ub - *lb <= stages + 1)
      return;
    std::optional<SmallVector<int64_t>> grid = getStaticGrid(kernel);
    if (!grid)
      return;
    int64_t tiles = 1;
    for (int64_t g : *grid)
      tiles *= g;
    if (!asked && tiles >= kShallowTilesPerSm * smsOf(kernel))
      return;
    // The stages: shared buffers the loop copies into; the rest of the
    // kernel's shared allocations stay single.
    llvm::DenseSet<Value> staged;
    pipe.walk([&](CopyOp c) {
      if (sharedBytes(c.getDst()) && c.getDst().getDefiningOp<AllocOp>())
        staged.insert(c.getDst());
    });
    if (staged.empty())
      return;
    int64_t perStage = 0, single = 0;
    kernel.walk([&](AllocOp a) {
      int64_t n = sharedBytes(a.getResult());
      (staged.contains(a.getResult()) ? perStage : single) += n;
    });
    int64_t now = perStage * stages + single;
    int64_t deeper = perStage * (stages + 1) + single + kBarrierReserve;
    // Already one block a multiprocessor (the stage costs no occupancy),
    // and the deeper ring fits.
    if (2 * now <= kSm90SharedLimit || deeper > kSm90SharedLimit)
      return;
    pipe.setNumStagesAttr(b.getI64IntegerAttr(stages + 1));
    pipe->setAttr("tile.program_stages", b.getI64IntegerAttr(stages));
  }
};
} // namespace
