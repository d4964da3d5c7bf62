//===- PlanScratchAreas.cpp - Place the areas of the target's expansions --===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// tile-plan-scratch-areas: the reduction scratch and fragment exchange
// areas of each kernel (ScratchAreas.h), placed after the planned buffers,
// or over buffers dead at their uses where the block's budget needs it.
// The sizes are the target's measurement (its fragment layouts); the
// placement and the barriers it costs are decided here.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Dialect/Tile/Transforms/PreparedKernels.h"
#include "tlc/Dialect/Tile/Transforms/ScratchAreas.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEPLANSCRATCHAREAS
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

static int64_t largest(ArrayRef<ScratchAreaNeeds::Use> uses) {
  int64_t most = 0;
  for (const ScratchAreaNeeds::Use &u : uses)
    most = std::max(most, u.bytes);
  return most;
}

int64_t ScratchAreaNeeds::scratchBytes() const { return largest(scratch); }
int64_t ScratchAreaNeeds::exchangeBytes() const { return largest(exchange); }

ScratchAreaNeeds tlc::tile::getScratchAreaNeeds(KernelOp kernel) {
  ScratchAreaNeeds needs;
  kernel.walk([&](Operation *op) {
    if (auto b = op->getAttrOfType<IntegerAttr>("tile.scratch_bytes"))
      needs.scratch.push_back({op, b.getInt(), false});
    if (auto b = op->getAttrOfType<IntegerAttr>("tile.exchange_bytes"))
      needs.exchange.push_back(
          {op, b.getInt(), op->hasAttr("tile.exchange_publishes")});
  });
  return needs;
}

/// Whether the kernel's threads run in program order with the areas'
/// users (not so in warp-specialised kernels).
static bool runsInProgramOrder(KernelOp kernel) {
  if (kernel->hasAttr("tile.ws_producer_threads"))
    return false;
  return !kernel
              .walk([](IntrinsicOp i) {
                return i.getCallee() == "T.ws" ? WalkResult::interrupt()
                                               : WalkResult::advance();
              })
              .wasInterrupted();
}

namespace {
/// A byte range [first, second).
using ByteRange = std::pair<int64_t, int64_t>;
/// A planned shared buffer: its allocation and bytes.
struct Slot {
  Value alloc;
  ByteRange bytes;
};
} // namespace

/// The planned buffers (tile.offset; pipeline stages multiply the bytes).
static SmallVector<Slot> plannedSlots(KernelOp kernel) {
  SmallVector<Slot> slots;
  kernel.walk([&](AllocOp alloc) {
    auto type = cast<BufferType>(alloc.getType());
    auto offset = alloc->getAttrOfType<IntegerAttr>("tile.offset");
    if (!isSharedScope(type.getScope()) || !offset || !type.isStatic() ||
        alloc->hasAttr("tile.dynamic_shared"))
      return;
    int64_t bytes = getElementStorageBytes(type.getElementType());
    for (int64_t e : type.getShape())
      bytes *= e;
    if (auto stages = alloc->getAttrOfType<IntegerAttr>("tile.stages"))
      bytes *= stages.getInt();
    if (bytes)
      slots.push_back(
          {alloc.getResult(), {offset.getInt(), offset.getInt() + bytes}});
  });
  return slots;
}

/// The lowest 128-byte aligned offset of \p bytes free of \p busy.
static int64_t lowestFree(SmallVector<ByteRange> busy, int64_t bytes) {
  llvm::sort(busy);
  int64_t offset = 0;
  for (auto [lo, hi] : busy) {
    if (offset + bytes <= lo)
      break;
    offset = std::max(offset, (hi + 127) / 128 * 128);
  }
  return offset;
}

static int64_t alignTo128(int64_t v) { return (v + 127) / 128 * 128; }

ScratchAreaPlan tlc::tile::placeScratchAreas(KernelOp kernel,
                                             const ScratchAreaNeeds &needs,
                                             int64_t budget) {
  ScratchAreaPlan plan;
  auto plannedAttr = kernel->getAttrOfType<IntegerAttr>("tile.shared_bytes");
  int64_t planned = plannedAttr ? plannedAttr.getInt() : 0;
  int64_t scratch = needs.scratchBytes(), exchange = needs.exchangeBytes();
  // After the buffers.
  plan.totalBytes = planned;
  if (scratch) {
    plan.scratchOffset = alignTo128(plan.totalBytes);
    plan.totalBytes = plan.scratchOffset + scratch;
  }
  if (exchange) {
    plan.exchangeOffset = alignTo128(plan.totalBytes);
    plan.totalBytes = plan.exchangeOffset + exchange;
  }
  if (plan.totalBytes <= budget || (!scratch && !exchange) ||
      !runsInProgramOrder(kernel))
    return plan;
  // Over the buffers dead at every use of an area.
  Block &body = kernel.getBody().front();
  SmallVector<Slot> slots = plannedSlots(kernel);
  auto liveAt = [&](ArrayRef<ScratchAreaNeeds::Use> uses, bool anywhere) {
    SmallVector<ByteRange> busy;
    for (const Slot &slot : slots)
      if (anywhere || llvm::any_of(uses, [&](const ScratchAreaNeeds::Use &u) {
            return !isBufferDeadAt(body, slot.alloc, u.op);
          }))
        busy.push_back(slot.bytes);
    return busy;
  };
  int64_t total = planned, scratchAt = -1, exchangeAt = -1;
  if (scratch) {
    scratchAt = lowestFree(liveAt(needs.scratch, false), scratch);
    total = std::max(total, scratchAt + scratch);
  }
  if (exchange) {
    // Scalar code and T.cumsum read the area after its last barrier: the
    // bytes of every buffer stay out of it there.
    bool publishes =
        llvm::any_of(needs.exchange, [](auto &u) { return u.publishes; });
    SmallVector<ByteRange> busy = liveAt(needs.exchange, publishes);
    if (scratch)
      busy.push_back({scratchAt, scratchAt + scratch});
    exchangeAt = lowestFree(busy, exchange);
    total = std::max(total, exchangeAt + exchange);
  }
  if (total >= plan.totalBytes)
    return plan;
  plan.scratchOffset = scratchAt;
  plan.exchangeOffset = exchangeAt;
  plan.totalBytes = total;
  // Each use of an area starts with a barrier; over a buffer's bytes it
  // also ends with one, so that nobody writes the buffer again while
  // another thread still reads the area.
  bool reuses =
      (scratch && scratchAt < planned) || (exchange && exchangeAt < planned);
  if (reuses) {
    for (const ScratchAreaNeeds::Use &u : needs.scratch)
      plan.barrierAfter.insert(u.op);
    for (const ScratchAreaNeeds::Use &u : needs.exchange)
      if (!u.publishes)
        plan.barrierAfter.insert(u.op);
  }
  return plan;
}

void tlc::tile::recordScratchAreaPlan(KernelOp kernel,
                                      const ScratchAreaPlan &plan) {
  Builder b(kernel.getContext());
  if (plan.scratchOffset >= 0)
    kernel->setAttr("tile.scratch_offset",
                    b.getI64IntegerAttr(plan.scratchOffset));
  if (plan.exchangeOffset >= 0)
    kernel->setAttr("tile.exchange_offset",
                    b.getI64IntegerAttr(plan.exchangeOffset));
  kernel->setAttr("tile.area_bytes", b.getI64IntegerAttr(plan.totalBytes));
  kernel->setAttr("tile.areas_planned", b.getUnitAttr());
  for (Operation *op : plan.barrierAfter)
    op->setAttr("tile.area_barrier", b.getUnitAttr());
}

namespace {
struct PlanScratchAreasPass
    : public tile::impl::TilePlanScratchAreasBase<PlanScratchAreasPass> {
  using TilePlanScratchAreasBase::TilePlanScratchAreasBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef target = getGpuTarget(module, this->target);
    // The kernels as tile-plan-fragment-exchanges prepared them, where it
    // ran just before.
    auto &prepared = getAnalysis<PreparedKernels>();
    bool measures = hasKernelPreparer() && !target.empty();
    module.walk([&](FuncOp func) {
      if (hasLoweringFailed(func) || !getUnboundTileParameters(func).empty())
        return;
      func.walk([&](KernelOp kernel) {
        if (!kernel->hasAttr("tile.shared_bytes"))
          return; // tile-plan-shared-memory did not plan it
        // The target measures what each op needs; without a measurement
        // (tlc-opt) the needs already on the ops are placed against the
        // `budget` option.
        std::optional<int64_t> budget;
        if (measures) {
          if (PreparedKernel *p = prepared.get(kernel, target))
            budget = p->measureScratchAreas();
        } else if (this->budget > 0)
          budget = this->budget;
        if (!budget)
          return;
        recordScratchAreaPlan(
            kernel,
            placeScratchAreas(kernel, getScratchAreaNeeds(kernel), *budget));
      });
    });
  }
};
} // namespace
