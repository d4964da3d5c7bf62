//===- PlanPipelines.cpp - The --tile-plan-pipelines pass -----------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Decides, for every `tile.pipelined` loop, which copies are issued ahead
// into multi-buffered shared memory and in which order (Passes.td has the
// contract). The printers only read the plan.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <functional>

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEPLANPIPELINES
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// A copy from global memory into a whole shared buffer allocated outside
/// \p pipe: what a pipeline may issue ahead.
static bool isProducerCopy(Operation &op, PipelinedOp pipe) {
  auto copy = dyn_cast<CopyOp>(op);
  if (!copy)
    return false;
  Value dst = copy.getDst();
  auto alloc = dst.getDefiningOp<AllocOp>();
  if (!alloc || pipe->isAncestor(alloc) || !isSharedScope(getScopeOf(dst)))
    return false;
  return getScopeOf(getRootBuffer(copy.getSrc())) == MemoryScope::Global;
}

/// Index arithmetic, views and thread indices (`T.ws` reads one in the
/// loop body): replayed where needed, not scheduled.
static bool isScalar(Operation &op) {
  return isa<RegionOp, AnnotateLayoutOp, ThreadBindingOp>(op) ||
         (op.getDialect() && isa<arith::ArithDialect>(op.getDialect()));
}

namespace {
/// The plan of one loop, before it is written as attributes.
struct Plan {
  /// Buffers (0 or < 2: serial).
  int64_t stages = 0;
  /// The producers in issue order.
  SmallVector<Operation *> producers;
  bool producersLast = false;
};
} // namespace

/// Plans \p pipe, following its explicit `stage`/`order` lists when
/// \p followLists is set; a failure (only then) sets \p why to the reason
/// the lists cannot be followed.
static FailureOr<Plan> planLoop(PipelinedOp pipe,
                                const llvm::DenseMap<Value, int64_t> &staged,
                                bool followLists, std::string &why) {
  Plan plan;
  int64_t stages = pipe.getNumStages();
  Block &body = pipe.getBody().front();
  std::optional<ArrayRef<int64_t>> stageList, orderList;
  if (followLists) {
    stageList = pipe.getStage();
    orderList = pipe.getOrder();
  }
  auto fail = [&](const Twine &msg) -> FailureOr<Plan> {
    why = msg.str();
    return failure();
  };
  // The statements `stage` and `order` number.
  SmallVector<Operation *> stmts;
  for (Operation &op : body)
    if (!isScalar(op))
      stmts.push_back(&op);
  size_t n = stmts.size();
  llvm::SmallPtrSet<Operation *, 4> stageZero;
  SmallVector<int64_t> rank;
  if (stageList || orderList) {
    if ((stageList && stageList->size() != n) ||
        (orderList && orderList->size() != n))
      return fail("'stage' and 'order' need one entry per statement of the "
                  "loop body (" +
                  Twine(n) + " here)");
    SmallVector<bool> producer(n, false);
    if (stageList) {
      int64_t maxStage = *llvm::max_element(*stageList);
      for (auto [i, st] : llvm::enumerate(*stageList)) {
        if (st != 0 && st != maxStage)
          return fail("stage " + Twine(st) + " of statement " + Twine(i) +
                      ": pipelines run global -> shared copies in stage 0 "
                      "and everything else in the last stage");
        if (st == 0 && maxStage > 0 && !isProducerCopy(*stmts[i], pipe))
          return fail("statement " + Twine(i) +
                      " is in stage 0 but is not a copy from global into a "
                      "whole shared buffer");
        producer[i] = st == 0 && maxStage > 0;
        if (producer[i])
          stageZero.insert(stmts[i]);
      }
      stages = maxStage + 1;
    } else {
      for (size_t i = 0; i < n; ++i)
        producer[i] = stages >= 2 && isProducerCopy(*stmts[i], pipe);
    }
    for (size_t i = 0; i < n; ++i)
      rank.push_back(orderList ? (*orderList)[i] : int64_t(i));
    SmallVector<int64_t> sorted(rank);
    llvm::sort(sorted);
    for (size_t i = 0; i < n; ++i)
      if (sorted[i] != int64_t(i))
        return fail("'order' must be a permutation of 0 .. " + Twine(n - 1));
    int64_t lastConsumer = -1, firstConsumer = int64_t(n), prev = -1;
    int64_t firstProducer = int64_t(n), lastProducer = -1;
    for (size_t i = 0; i < n; ++i) {
      if (producer[i]) {
        firstProducer = std::min(firstProducer, rank[i]);
        lastProducer = std::max(lastProducer, rank[i]);
        continue;
      }
      if (rank[i] < prev)
        return fail("'order' reorders compute statements " + Twine(i) +
                    " and earlier ones; the compute keeps its program order");
      prev = rank[i];
      firstConsumer = std::min(firstConsumer, rank[i]);
      lastConsumer = std::max(lastConsumer, rank[i]);
    }
    if (lastProducer >= 0 && lastConsumer >= 0 &&
        !(lastProducer < firstConsumer || firstProducer > lastConsumer))
      return fail("'order' interleaves the stage-0 copies with the compute; "
                  "they are issued all before or all after it");
    if (stages < 2) {
      for (size_t i = 0; i < n; ++i)
        if (rank[i] != int64_t(i))
          return fail("'order' reorders a loop that is not pipelined");
      return plan;
    }
    plan.producersLast = lastConsumer >= 0 && firstProducer > lastConsumer;
  }
  if (stages < 2)
    return plan;
  // With an explicit stage list, not pipelining is an error; otherwise the
  // loop stays serial.
  auto notPipelined = [&](StringRef msg) -> FailureOr<Plan> {
    if (stageList)
      return fail(msg);
    return Plan();
  };
  SmallVector<Operation *> producers;
  llvm::SmallPtrSet<Value, 4> produced;
  for (Operation &op : body) {
    if (!isProducerCopy(op, pipe) || (stageList && !stageZero.contains(&op)))
      continue;
    // Operands must come from outside or from pure index arithmetic.
    std::function<bool(Value)> pure = [&](Value v) -> bool {
      Operation *def = v.getDefiningOp();
      if (!def || !pipe->isAncestor(def))
        return true;
      if (!isa<RegionOp>(def) &&
          !(def->getDialect() && isa<arith::ArithDialect>(def->getDialect())))
        return false;
      return llvm::all_of(def->getOperands(), pure);
    };
    Value dst = cast<CopyOp>(op).getDst();
    if (!llvm::all_of(op.getOperands(), pure) || produced.contains(dst))
      return notPipelined("a stage-0 copy depends on more than index "
                          "arithmetic, or two write one buffer");
    produced.insert(dst);
    producers.push_back(&op);
  }
  if (produced.empty())
    return Plan();
  // Nothing else in the loop may write a staged buffer.
  bool clean = true;
  pipe.getBody().walk([&](Operation *nested) {
    if (nested->getParentOp() == pipe.getOperation() &&
        isProducerCopy(*nested, pipe))
      return;
    BufferAccesses e = getBufferAccesses(nested, isSharedScope);
    for (Value v : produced)
      clean &= !e.writes.contains(v);
  });
  if (!clean)
    return notPipelined("a buffer a stage-0 copy fills is also written by "
                        "the compute");
  for (Value v : produced) {
    auto it = staged.find(v);
    if (it != staged.end() && it->second != stages)
      return notPipelined("a buffer is staged by two pipelines");
  }
  if (orderList) { // issue in `order`
    llvm::DenseMap<Operation *, int64_t> rankOf;
    for (size_t i = 0; i < n; ++i)
      rankOf[stmts[i]] = rank[i];
    llvm::stable_sort(producers, [&](Operation *a, Operation *b) {
      return rankOf.lookup(a) < rankOf.lookup(b);
    });
  }
  plan.stages = stages;
  plan.producers = std::move(producers);
  return plan;
}

namespace {
struct TilePlanPipelinesPass final
    : tlc::tile::impl::TilePlanPipelinesBase<TilePlanPipelinesPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    Builder b(context);
    getOperation().walk([&](FuncOp func) {
      // Instances without values for their tile shapes, or already failed.
      if (hasLoweringFailed(func) || !getUnboundTileParameters(func).empty())
        return;
      llvm::DenseMap<Value, int64_t> staged;
      func.walk([&](PipelinedOp pipe) {
        std::string why;
        FailureOr<Plan> plan =
            planLoop(pipe, staged, /*followLists=*/true, why);
        if (failed(plan)) {
          // The lists only schedule the loop: the loop computes the same
          // without them, so it is planned as if they were not there.
          pipe.emitWarning()
              << "T.Pipelined: " << why
              << "; tlc does not follow this schedule and plans the loop "
                 "itself (num_stages = "
              << pipe.getNumStages()
              << "): the results are the same, the overlap may differ";
          plan = planLoop(pipe, staged, /*followLists=*/false, why);
        }
        if (failed(plan))
          return;
        if (plan->stages < 2)
          return;
        pipe->setAttr("tile.stages", b.getI64IntegerAttr(plan->stages));
        if (plan->producersLast)
          pipe->setAttr("tile.producers_last", UnitAttr::get(context));
        for (auto [i, op] : llvm::enumerate(plan->producers)) {
          op->setAttr("tile.prefetch", b.getI64IntegerAttr(i));
          Value dst = cast<CopyOp>(op).getDst();
          staged[dst] = plan->stages;
          dst.getDefiningOp()->setAttr("tile.stages",
                                       b.getI64IntegerAttr(plan->stages));
        }
      });
    });
  }
};
} // namespace
