//===- PlanThreadRanges.cpp - The --tile-plan-thread-ranges pass ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Chooses the named barrier of each thread range of a kernel (the
// warp-aligned branches of `tile.if` on the thread index) and records it
// on the `tile.if` for the CUDA and HIP printers (ThreadRangePlan.h).
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Dialect/Tile/Transforms/ThreadRangePlan.h"

#include "tlc/Dialect/Tile/IR/LoweringStatus.h"

#include "mlir/IR/Matchers.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEPLANTHREADRANGES
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

static constexpr llvm::StringLiteral kBarriers = "tile.range_barriers";

static std::string rangeText(const ThreadRange &r) {
  return "[" + std::to_string(r.lo) + ", " + std::to_string(r.hi) + ")";
}

SmallVector<int64_t, 4> tlc::tile::getProgramBarrierIds(KernelOp kernel) {
  SmallVector<int64_t, 4> ids;
  kernel.walk([&](Operation *op) {
    if (auto in = dyn_cast<IntrinsicOp>(op)) {
      IntegerAttr id;
      if (in.getCallee() == "T.named_barrier_arrive" && !in.getArgs().empty() &&
          matchPattern(in.getArgs()[0], m_Constant(&id)))
        ids.push_back(id.getInt());
    }
    if (auto sync = dyn_cast<SyncThreadsOp>(op))
      if (sync.getBarrierId())
        ids.push_back(*sync.getBarrierId());
  });
  return ids;
}

/// The range of branch \p region of \p ifOp when it runs on threads of its
/// own (not the whole block of \p threads).
static std::optional<ThreadRange> ownRange(IfOp ifOp, Region &region,
                                           int64_t threads) {
  std::optional<ThreadRange> r = getBranchRange(ifOp, region, threads);
  if (!r || *r == ThreadRange{0, threads, nullptr})
    return std::nullopt;
  r->condition = nullptr;
  return r;
}

static const RangeBarrier *barrierOf(ArrayRef<RangeBarrier> barriers,
                                     const ThreadRange &r) {
  for (const RangeBarrier &b : barriers)
    if (b.range == r)
      return &b;
  return nullptr;
}

FailureOr<SmallVector<RangeBarrier, 4>>
tlc::tile::chooseRangeBarriers(KernelOp kernel, int64_t threads) {
  SmallVector<int64_t, 4> program = getProgramBarrierIds(kernel);
  SmallVector<RangeBarrier, 4> barriers;
  // From id 15 down (programs number theirs from 1 up).
  int64_t next = kMaxNamedBarrierId;
  WalkResult ids = kernel.walk([&](IfOp ifOp) {
    for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
      std::optional<ThreadRange> r = ownRange(ifOp, *region, threads);
      if (!r || barrierOf(barriers, *r))
        continue;
      while (next > 0 && llvm::is_contained(program, next))
        --next;
      if (next == 0) {
        ifOp.emitError("more thread ranges than free named barriers (ids "
                       "1..15) in this kernel");
        return WalkResult::interrupt();
      }
      barriers.push_back({*r, next--});
    }
    return WalkResult::advance();
  });
  if (ids.wasInterrupted())
    return failure();
  return barriers;
}

void tlc::tile::setRangeBarriers(KernelOp kernel, int64_t threads,
                                 ArrayRef<RangeBarrier> barriers) {
  kernel.walk([&](IfOp ifOp) {
    SmallVector<int64_t, 2> ids;
    for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
      std::optional<ThreadRange> r = ownRange(ifOp, *region, threads);
      const RangeBarrier *b = r ? barrierOf(barriers, *r) : nullptr;
      ids.push_back(b ? b->id : 0);
    }
    if (ids[0] || ids[1])
      ifOp->setAttr(kBarriers, DenseI64ArrayAttr::get(ifOp.getContext(), ids));
    else
      ifOp->removeAttr(kBarriers);
  });
}

FailureOr<SmallVector<RangeBarrier, 4>>
tlc::tile::getRangeBarriers(KernelOp kernel, int64_t threads) {
  SmallVector<int64_t, 4> program = getProgramBarrierIds(kernel);
  SmallVector<RangeBarrier, 4> barriers;
  WalkResult walk = kernel.walk([&](IfOp ifOp) {
    auto malformed = [&](const Twine &why) {
      ifOp.emitError() << "malformed thread-range barrier plan: " << why
                       << " (tile-plan-thread-ranges)";
      return WalkResult::interrupt();
    };
    Attribute attr = ifOp->getAttr(kBarriers);
    auto ids = dyn_cast_or_null<DenseI64ArrayAttr>(attr);
    if (attr && (!ids || ids.size() != 2))
      return malformed("tile.range_barriers must be two ids (branch, else)");
    unsigned branch = 0;
    for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
      int64_t id = ids ? ids[branch] : 0;
      StringRef which = branch++ ? "else branch" : "branch";
      std::optional<ThreadRange> r = ownRange(ifOp, *region, threads);
      if (!r) {
        if (id != 0)
          return malformed("a named barrier for the " + which +
                           ", which is no thread range");
        continue;
      }
      if (id == 0)
        return malformed("no named barrier for the " + which + " on threads " +
                         rangeText(*r));
      if (id < 1 || id > kMaxNamedBarrierId)
        return malformed("named barrier " + Twine(id) + " is not one of 1..15");
      if (llvm::is_contained(program, id))
        return malformed("named barrier " + Twine(id) +
                         " is one the program uses itself");
      if (const RangeBarrier *same = barrierOf(barriers, *r)) {
        if (same->id != id)
          return malformed("threads " + rangeText(*r) +
                           " have named barriers " + Twine(same->id) + " and " +
                           Twine(id));
        continue;
      }
      for (const RangeBarrier &other : barriers)
        if (other.id == id)
          return malformed("named barrier " + Twine(id) + " serves threads " +
                           rangeText(other.range) + " and " + rangeText(*r));
      barriers.push_back({*r, id});
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return barriers;
}

namespace {
struct TilePlanThreadRangesPass final
    : tlc::tile::impl::TilePlanThreadRangesBase<TilePlanThreadRangesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringRef planned =
        forEachGpuKernel(module, target, [&](FuncOp func, KernelOp kernel) {
          // A dynamic or impossible thread count is the printer's to report.
          std::optional<int64_t> threads = kernel.getStaticNumThreads();
          if (!threads || *threads < 1 || *threads > 1024)
            return;
          FailureOr<SmallVector<RangeBarrier, 4>> barriers =
              chooseRangeBarriers(kernel, *threads);
          if (failed(barriers)) {
            markLoweringFailed(func);
            return;
          }
          setRangeBarriers(kernel, *threads, *barriers);
        });
    if (!planned.empty())
      markModulePlanned(module, kRangesPlanned);
  }
};
} // namespace
