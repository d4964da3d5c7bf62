//===- PipelineSchedules.cpp - T.Pipelined group= and producer stages ----===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// TileLang's warp-specialised schedules, `T.Pipelined(n, order=[...],
// stage=[...], group=[[...], ...])` (FlashAttention's wgmma pipeline:
// order=[-1, 0, 3, 1, -1, 2], stage=[-1, 0, 0, 1, -1, 1], group=[[0], [1, 2],
// [3 .. 10], [11], [12], [13]]), as TileLang's warp-specialised rewriter
// reads them:
//
// * `group` splits the loop body, in program order, into consecutive runs
//   of statements of the given sizes (only the sizes count); `order[g]` and
//   `stage[g]` schedule run g as one statement, so its statements share the
//   stage and run one after the other at the run's place in the order.
// * An entry of -1 marks a producer: a one-statement run copying global
//   memory into shared memory, which the producer warps issue ahead of the
//   consumer's pipeline (an mbarrier per buffer version hands each tile
//   over). The consumer reads iteration j's tile after it was copied and
//   before the producer refills that version: what a copy in stage 0,
//   issued before every other statement of its step, gives.
//
// The loop's `order` / `stage` attributes are rewritten to one entry per
// statement of tlc's body (the producers first in the order, then the runs
// by their order), which the back ends' rotated schedule follows
// (tile-rotate-pipelines). A schedule tlc cannot follow (the runs do not
// cover its statements, a -1 on what is not a producer copy) is kept for
// analysis and refused when building, at the loop (`tlc.unbuildable`).
//
//===----------------------------------------------------------------------===//

#include "IRGen.h"
#include "Primitives.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace tlc;
using namespace tlc::eval;

/// Index arithmetic, views and layout annotations: replayed where needed,
/// not statements of the schedule (the split of tile-plan-pipelines and
/// tile-rotate-pipelines).
static bool isScheduled(mlir::Operation &op) {
  if (op.hasTrait<mlir::OpTrait::IsTerminator>())
    return false;
  return !(mlir::isa<tile::RegionOp, tile::AnnotateLayoutOp>(op) ||
           (op.getDialect() &&
            mlir::isa<mlir::arith::ArithDialect>(op.getDialect())));
}

/// A copy from global memory into shared memory: what TileLang's
/// warp-specialised rewriter gives to the producer warps.
static bool isProducerCopy(mlir::Operation &op) {
  auto copy = mlir::dyn_cast<tile::CopyOp>(op);
  return copy && tile::getScopeOf(copy.getSrc()) == tile::MemoryScope::Global &&
         tile::isSharedScope(tile::getScopeOf(copy.getDst()));
}

/// The integers of a list argument; nullopt when it is not a list of ints.
static std::optional<llvm::SmallVector<int64_t, 8>> intList(const Value &v) {
  if (!v.isSequence())
    return std::nullopt;
  llvm::SmallVector<int64_t, 8> out;
  for (const Value &e : getElems(v)) {
    if (!e.isIntLike())
      return std::nullopt;
    out.push_back(e.getInt());
  }
  return out;
}

/// Marks \p op's schedule as one no target can build yet: a
/// `tlc.unbuildable` before the loop, reported by tile::checkBuildable.
static void refuse(tile::PipelinedOp op, const llvm::Twine &why) {
  mlir::OpBuilder b(op);
  tile::IntrinsicOp::create(
      b, op.getLoc(), mlir::TypeRange(), b.getStringAttr("tlc.unbuildable"),
      mlir::ValueRange(), b.getArrayAttr({}),
      b.getDictionaryAttr(b.getNamedAttr(
          "what", b.getStringAttr("T.Pipelined: " + why.str()))));
}

void eval::normalizePipelineSchedule(Interpreter &in, tile::PipelinedOp op,
                                     const LoopFrameObj &loop) {
  std::optional<llvm::SmallVector<int64_t, 8>> orders = intList(loop.order);
  std::optional<llvm::SmallVector<int64_t, 8>> stages = intList(loop.stage);
  bool grouped = loop.group.isSequence();
  auto negative = [](const std::optional<llvm::SmallVector<int64_t, 8>> &l) {
    return l && llvm::any_of(*l, [](int64_t x) { return x < 0; });
  };
  if (!grouped && !negative(orders) && !negative(stages))
    return;
  // A group= list without both schedules schedules nothing.
  if (!orders || !stages)
    return;
  llvm::SmallVector<mlir::Operation *, 16> stmts;
  for (mlir::Operation &o : op.getBody().front())
    if (isScheduled(o))
      stmts.push_back(&o);
  // The runs' sizes: group=, or one statement each.
  llvm::SmallVector<int64_t, 8> sizes;
  if (grouped) {
    for (const Value &g : getElems(loop.group)) {
      if (!g.isSequence()) {
        refuse(op, "each entry of group= must be a list of statement "
                   "indices, not '" +
                       g.getTypeName() + "'");
        return;
      }
      sizes.push_back(int64_t(getElems(g).size()));
    }
  } else {
    sizes.assign(orders->size(), 1);
  }
  if (orders->size() != sizes.size() || stages->size() != sizes.size()) {
    refuse(op, "'order' (" + llvm::Twine(orders->size()) +
                   " entries) and 'stage' (" + llvm::Twine(stages->size()) +
                   ") need one entry per " +
                   (grouped ? "group (" : "statement (") +
                   llvm::Twine(sizes.size()) + ")");
    return;
  }
  int64_t covered = 0;
  for (int64_t s : sizes)
    covered += s;
  if (covered != int64_t(stmts.size())) {
    refuse(op,
           "the schedule names " + llvm::Twine(covered) +
               " statements, but tlc's body of this loop has " +
               llvm::Twine(stmts.size()) +
               " (tile operations, loops and stores; index arithmetic is not "
               "scheduled): tlc cannot tell which statements the lists mean");
    return;
  }
  // Per statement: the stage and the key the order sorts by (producers
  // first, in program order; then the runs by their order, each run's
  // statements in program order).
  llvm::SmallVector<int64_t, 16> stageOf(stmts.size());
  llvm::SmallVector<std::tuple<int, int64_t, size_t>, 16> keys;
  llvm::SmallDenseSet<int64_t> seen;
  size_t k = 0;
  for (size_t g = 0; g < sizes.size(); ++g) {
    int64_t o = (*orders)[g], st = (*stages)[g];
    bool producer = o < 0 || st < 0;
    if (producer) {
      if (o != -1 || st != -1) {
        refuse(op, "entry " + llvm::Twine(g) + " has order " + llvm::Twine(o) +
                       " and stage " + llvm::Twine(st) +
                       "; a producer of a warp-specialised schedule has "
                       "-1 in both");
        return;
      }
      if (sizes[g] != 1 || !isProducerCopy(*stmts[k])) {
        refuse(op,
               "entry " + llvm::Twine(g) +
                   " is -1 (a producer of the warp-specialised schedule), but "
                   "it is not one copy from global into shared memory; tlc "
                   "runs only such producers ahead of the pipeline");
        return;
      }
    } else if (!seen.insert(o).second) {
      refuse(op, "two entries have the same order " + llvm::Twine(o));
      return;
    }
    for (int64_t i = 0; i < sizes[g]; ++i, ++k) {
      stageOf[k] = producer ? 0 : st;
      keys.push_back({producer ? 0 : 1, producer ? 0 : o, k});
    }
  }
  llvm::SmallVector<size_t, 16> byOrder(stmts.size());
  for (size_t i = 0; i < byOrder.size(); ++i)
    byOrder[i] = i;
  llvm::sort(byOrder, [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  llvm::SmallVector<int64_t, 16> orderOf(stmts.size());
  for (auto [rank, i] : llvm::enumerate(byOrder))
    orderOf[i] = int64_t(rank);
  auto &B = in.ir->b;
  op->setAttr("order", B.getDenseI64ArrayAttr(orderOf));
  op->setAttr("stage", B.getDenseI64ArrayAttr(stageOf));
}
