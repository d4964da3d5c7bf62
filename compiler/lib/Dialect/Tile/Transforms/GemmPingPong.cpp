//===- GemmPingPong.cpp - The --tile-gemm-pingpong pass -------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Consumer ping-pong over output tiles for persistent warp-specialised
// GEMMs on sm_90a (Passes.td has the contract): a persistent GEMM whose
// one consumer warpgroup accumulates a whole tile gets a second consumer
// warpgroup; the two take alternate tiles of the block's schedule, read
// their stages from the one ring the producer fills tile after tile, and
// take turns at the tensor cores, so that one warpgroup's epilogue runs
// while the other's main loop keeps the tensor cores busy.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "Sm90Limits.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/PassConfigs.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEGEMMPINGPONG
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// Without `tlc.gemm_pingpong`, a qualifying GEMM ping-pongs when its tile's
/// main loop has at most this many k-steps (a static trip count). Ping-pong
/// hides the epilogue, whose share of a tile's time falls as 1 / k-steps;
/// on the H200 (docs/perf/hopper-gemm-pingpong.md) 128 x 128 tiles gained
/// 4.5-5.1% at 16 k-steps and 0.2-1.5% at 64; at 128 the lines were
/// within the run's noise.
static constexpr int64_t kMaxDefaultKSteps = 64;
/// ... and when every block has at least this many tiles on average (with
/// one, warpgroup 1 has no tile whose main loop could cover an epilogue).
static constexpr int64_t kMinDefaultTilesPerBlock = 2;

/// Whether \p v depends on the block indices of \p kernel through the ops
/// of the kernel (the tile loop gives each warpgroup other indices).
static bool dependsOnBlockIndices(KernelOp kernel, Value v) {
  SmallVector<Value> work{v};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Value cur = work.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(cur)) {
      if (arg.getOwner() == &kernel.getBody().front())
        return true;
      continue;
    }
    Operation *def = cur.getDefiningOp();
    if (!kernel->isProperAncestor(def) || !seen.insert(def).second)
      continue;
    for (Value o : def->getOperands())
      work.push_back(o);
  }
  return false;
}

/// Whether the statement \p op of a persistent GEMM's body (outside its
/// loop and epilogue) touches nothing the two consumer warpgroups would
/// share: no shared buffer, no printer area (reductions, fragment
/// exchanges between layouts).
static bool isPrivateStatement(Operation *op) {
  if (isa<AllocOp, RegionOp, UseSwizzleOp, AnnotateLayoutOp>(op))
    return true;
  if (op->getDialect() && isa<arith::ArithDialect>(op->getDialect()))
    return op->getNumRegions() == 0 && isPure(op);
  if (!isa<ClearOp, FillOp, ParallelOp>(op))
    return false;
  BufferAccesses acc = getBufferAccesses(op);
  llvm::SmallPtrSet<Value, 4> fragments;
  for (const auto &set : {acc.reads, acc.writes})
    for (Value b : set) {
      MemoryScope s = getScopeOf(b);
      if (isSharedScope(s))
        return false;
      if (s == MemoryScope::Fragment)
        fragments.insert(b);
    }
  // One fragment: the loop follows its layout, nothing is exchanged.
  return fragments.size() <= 1;
}

/// Whether a qualifying GEMM ping-pongs without `tlc.gemm_pingpong` (the
/// case the H200 measured): a static grid of at least
/// kMinDefaultTilesPerBlock tiles per block of the ping-pong grid
/// (\p blocks), at most kMaxDefaultKSteps static k-steps a tile, and one
/// block per multiprocessor in tile-persistent-gemm's plan (\p perSm; with
/// two, the blocks' epilogues already run under each other's main loops).
static bool isDefaultCase(KernelOp kernel, PipelinedOp pipe, int64_t blocks,
                          IntegerAttr perSm) {
  if (perSm && perSm.getInt() != 1)
    return false;
  int64_t tiles = 1;
  for (OpFoldResult g : kernel.getMixedGrid()) {
    std::optional<int64_t> e = getConstantIntValue(g);
    if (!e)
      return false;
    tiles *= *e;
  }
  std::optional<int64_t> lb = getConstantIntValue(pipe.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(pipe.getUpperBound());
  return tiles >= kMinDefaultTilesPerBlock * blocks && lb && ub &&
         *ub - *lb <= kMaxDefaultKSteps;
}

namespace {
struct TileGemmPingPongPass final
    : tlc::tile::impl::TileGemmPingPongBase<TileGemmPingPongPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    forEachSm90aKernel(module, target,
                       [&](KernelOp kernel) { planKernel(kernel, b); });
  }

  void planKernel(KernelOp kernel, Builder &b) {
    std::optional<StringRef> config =
        getPassConfig(kernel, "tlc.gemm_pingpong");
    bool wanted = !config || isPassConfigOn(kernel, "tlc.gemm_pingpong");
    auto planned = kernel->getAttrOfType<IntegerAttr>("tile.shared_bytes");
    auto ctas = kernel->getAttrOfType<IntegerAttr>("tile.persistent_ctas");
    std::optional<int64_t> threads = kernel.getStaticNumThreads();
    if (!wanted || !planned || !ctas ||
        !kernel->hasAttr("tile.ws_producer_threads") ||
        threads != kWarpgroupThreads)
      return;
    // tile-persistent-gemm's loop: one ring, one gemm with a group in
    // flight, in the kernel body.
    PipelinedOp pipe;
    kernel.walk([&](PipelinedOp p) {
      if (p->hasAttr("tile.ws_empty_barriers"))
        pipe = p;
    });
    Block &body = kernel.getBody().front();
    if (!pipe || pipe->getBlock() != &body || pipe->hasAttr("tile.ws_rings"))
      return;
    // Each warpgroup steps the ring over the other's tiles by its own trip
    // count: the loop bounds may not depend on the tile.
    if (dependsOnBlockIndices(kernel, pipe.getLowerBound()) ||
        dependsOnBlockIndices(kernel, pipe.getUpperBound()))
      return;
    // Outside the loop: private statements and the epilogue, which has an
    // area of its own (tile-persistent-gemm) or stores from registers.
    CopyOp epilogue;
    for (Operation &op : body) {
      if (&op == pipe.getOperation() || op.hasTrait<OpTrait::IsTerminator>())
        continue;
      if (auto copy = dyn_cast<CopyOp>(op);
          copy && copy->hasAttr("tile.epilogue_area") && !epilogue) {
        epilogue = copy;
        continue;
      }
      if (!isPrivateStatement(&op))
        return;
    }
    // The second warpgroup's epilogue area after the first (1024-byte
    // aligned, as a TMA store's swizzled panels need).
    int64_t end = planned.getInt(), stride = 0;
    if (epilogue) {
      int64_t area =
          epilogue->getAttrOfType<IntegerAttr>("tile.epilogue_area").getInt();
      int64_t bytes = end - area;
      stride = (bytes + 1023) / 1024 * 1024;
      end = area + stride + bytes;
      if (end > kSm90SharedLimit)
        return;
    }
    // One block per multiprocessor slot of the plan tile-persistent-gemm
    // made for blocks of one consumer warpgroup.
    auto perSm = kernel->getAttrOfType<IntegerAttr>("tile.ws_blocks_per_sm");
    int64_t blocks = ctas.getInt() / (perSm ? perSm.getInt() : 1);
    if (blocks < 1)
      return;
    if (!config && !isDefaultCase(kernel, pipe, blocks, perSm))
      return;
    // Registers: the program's counts (T.annotate_producer_reg_dealloc /
    // T.annotate_consumer_reg_alloc, which tile-warp-specialize read) where
    // it names them and they fit three warpgroups, else 40 / 232.
    if (auto nreg =
            kernel->getAttrOfType<DenseI64ArrayAttr>("tile.ws_max_nreg")) {
      bool named = false;
      kernel.walk([&](IntrinsicOp in) {
        named |= in.getCallee() == "T.annotate_producer_reg_dealloc" ||
                 in.getCallee() == "T.annotate_consumer_reg_alloc";
      });
      int64_t producer = kProducerRegs, consumer = kConsumerRegs;
      if (named &&
          kWarpgroupThreads * nreg[0] + 2 * kWarpgroupThreads * nreg[1] <=
              65536) {
        producer = nreg[0];
        consumer = nreg[1];
      }
      kernel->setAttr("tile.ws_max_nreg",
                      b.getDenseI64ArrayAttr({producer, consumer}));
    }
    if (epilogue)
      epilogue->setAttr("tile.epilogue_area_stride",
                        b.getI64IntegerAttr(stride));
    kernel->setAttr("tile.ws_blocks_per_sm", b.getI64IntegerAttr(1));
    kernel->setAttr("tile.persistent_ctas", b.getI64IntegerAttr(blocks));
    kernel->setAttr("tile.shared_bytes", b.getI64IntegerAttr(end));
    kernel->setAttr("tile.gemm_pingpong",
                    b.getI64IntegerAttr(kFirstTurnBarrier));
  }
};
} // namespace
