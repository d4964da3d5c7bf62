//===- RotatePipelines.cpp - The --tile-rotate-pipelines pass -------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// tile-rotate-pipelines: a `T.Pipelined` loop with explicit `stage` and
// `order` lists computes what TileLang's software pipeline makes of it (the
// rotated schedule, Passes.td has the rules). Where that provably equals the
// program order the loop is left to the back ends' pipelining; otherwise it
// is rewritten as the serial loop over pipeline steps that the rotated
// schedule is, with the buffers TileLang multi-versions as separate
// allocations picked by the iteration.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"

#include <numeric>

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEROTATEPIPELINES
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

namespace {

/// Index arithmetic, views, layout annotations and thread indices (`T.ws`
/// reads one in the loop body): replayed where needed,
/// not statements (the same split as tile-plan-pipelines).
bool isScalar(Operation &op) {
  return isa<RegionOp, AnnotateLayoutOp, ThreadBindingOp>(op) ||
         (op.getDialect() && isa<arith::ArithDialect>(op.getDialect()));
}

/// One statement of the loop body with its place in the schedule.
struct Statement {
  Operation *op;
  int64_t stage, order;
  /// Root buffers it reads and writes (nested ops included).
  BufferAccesses access;
  bool touches(Value b) const {
    return access.reads.contains(b) || access.writes.contains(b);
  }
};

/// The schedule of one loop and what the rewrite needs of it.
struct Schedule {
  SmallVector<Statement> stmts;
  int64_t maxStage = 0;
  /// TileLang's number of versions of each allocation the body writes
  /// (only those with more than one).
  llvm::MapVector<Value, int64_t> versions;
};

/// Whether \p root, or a view of it, is used outside \p pipe (other than by
/// a layout annotation).
bool usedOutside(Value root, Operation *pipe) {
  SmallVector<Value> work{root};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<RegionOp, ViewOp>(user)) {
        work.push_back(user->getResult(0));
        continue;
      }
      if (!pipe->isAncestor(user) && !isa<AnnotateLayoutOp>(user))
        return true;
    }
  }
  return false;
}

/// Whether nothing after \p pipe can see which version of the allocation
/// \p root the loop wrote last: it is not used outside the loop, or, for
/// shared memory, every path from the loop's end writes it whole before
/// reading it (later loops that refill it, the loop's own next run).
bool deadAfter(Value root, PipelinedOp pipe) {
  if (!usedOutside(root, pipe))
    return true;
  auto kernel = pipe->getParentOfType<KernelOp>();
  if (!kernel || !isSharedScope(getScopeOf(root)))
    return false;
  // isBufferDeadAt asks about a point that does not touch the buffer: a
  // marker right after the loop.
  OpBuilder b(pipe);
  b.setInsertionPointAfter(pipe);
  Operation *marker = arith::ConstantIndexOp::create(b, pipe.getLoc(), 0);
  bool dead = isBufferDeadAt(kernel.getBody().front(), root, marker);
  marker->erase();
  return dead;
}

/// Whether \p op writes the whole allocation \p root itself (not a view).
bool writesWhole(Operation *op, Value root) {
  if (auto copy = dyn_cast<CopyOp>(op))
    return copy.getDst() == root;
  if (auto fill = dyn_cast<FillOp>(op))
    return fill.getDst() == root;
  if (auto clear = dyn_cast<ClearOp>(op))
    return clear.getDst() == root;
  // `for i, j in T.Parallel(shape): root[i, j] = ...`: a store of every
  // element, unconditionally in the loop's body.
  if (auto par = dyn_cast<ParallelOp>(op)) {
    auto type = dyn_cast<BufferType>(root.getType());
    if (!type || !par.getExtents().empty() ||
        par.getStaticExtents() != type.getShape())
      return false;
    for (Operation &nested : par.getBody().front())
      if (auto store = dyn_cast<StoreOp>(nested))
        if (store.getBuffer() == root &&
            llvm::equal(store.getIndices(), par.getInductionVars()))
          return true;
  }
  return false;
}

/// TileLang's version count of \p root (InjectSoftwarePipeline): with
/// `def` the lowest stage writing it and `use` the highest reading it,
/// `use - def + 1`, one fewer when no writer precedes (in `order`) a reader
/// of a later stage; 1 for buffers the loop does not write.
int64_t countVersions(const Schedule &s, Value root) {
  int64_t def = -1, use = -1;
  for (const Statement &st : s.stmts) {
    if (st.access.writes.contains(root))
      def = def < 0 ? st.stage : std::min(def, st.stage);
    if (st.access.reads.contains(root))
      use = std::max(use, st.stage);
  }
  if (def < 0)
    return 1;
  int64_t n = use - def + 1;
  if (n < 2)
    return 1;
  bool needed = false;
  for (const Statement &w : s.stmts)
    for (const Statement &r : s.stmts)
      needed |= w.access.writes.contains(root) &&
                r.access.reads.contains(root) && w.order < r.order &&
                w.stage < r.stage;
  return needed ? n : n - 1;
}

/// Whether running \p s rotated provably computes what the program order
/// does. Conservative: false when in doubt (the rewrite is then exact).
bool rotationKeepsProgramOrder(const Schedule &s, PipelinedOp pipe) {
  llvm::SetVector<Value> roots;
  for (const Statement &st : s.stmts) {
    roots.insert(st.access.reads.begin(), st.access.reads.end());
    roots.insert(st.access.writes.begin(), st.access.writes.end());
  }
  size_t n = s.stmts.size();
  for (Value b : roots) {
    auto it = s.versions.find(b);
    if (it != s.versions.end()) {
      // Several versions: equal to one buffer when each iteration writes
      // it whole before any statement reads it, in program order and in
      // the schedule, and nothing outside the loop sees which version was
      // written last.
      int writer = -1;
      for (size_t i = 0; i < n; ++i)
        if (s.stmts[i].access.writes.contains(b)) {
          if (writer >= 0)
            return false;
          writer = int(i);
        }
      const Statement &w = s.stmts[writer];
      if (!writesWhole(w.op, b) || w.access.reads.contains(b) ||
          !deadAfter(b, pipe))
        return false;
      for (size_t i = 0; i < n; ++i) {
        const Statement &r = s.stmts[i];
        if (int(i) == writer || !r.access.reads.contains(b))
          continue;
        if (int(i) < writer || r.stage < w.stage ||
            (r.stage == w.stage && r.order < w.order))
          return false;
      }
      continue;
    }
    // One version: every pair of statements that conflict on it keeps the
    // order of all its instances. For a before b in the body, iteration j
    // of a runs at step j + stage(a); that needs the same stage with a
    // ordered first, or b one stage later and ordered first.
    for (size_t a = 0; a < n; ++a)
      for (size_t c = a + 1; c < n; ++c) {
        const Statement &x = s.stmts[a], &y = s.stmts[c];
        if (!x.touches(b) || !y.touches(b) ||
            !(x.access.writes.contains(b) || y.access.writes.contains(b)))
          continue;
        bool same = x.stage == y.stage && x.order < y.order;
        bool next = y.stage == x.stage + 1 && y.order < x.order;
        if (!same && !next)
          return false;
      }
  }
  return true;
}

/// The scalar ops of the body that \p stmt depends on, in body order, or
/// failure when it uses the result of another statement.
FailureOr<SmallVector<Operation *>> scalarSlice(Operation *stmt, Block &body) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work;
  stmt->walk([&](Operation *nested) {
    for (Value v : nested->getOperands())
      work.push_back(v);
  });
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &body)
      continue;
    if (def == stmt)
      continue;
    if (!isScalar(*def))
      return failure();
    if (slice.insert(def))
      for (Value o : def->getOperands())
        work.push_back(o);
  }
  SmallVector<Operation *> ops(slice.begin(), slice.end());
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ops;
}

/// Rewrites \p pipe as its rotated schedule: a serial loop over the steps
/// `k` in [lb, ub + maxStage), statement i (in `order`) running iteration
/// `k - stage[i]` when that lies in [lb, ub), each multi-versioned buffer
/// replaced by version `(iteration - lb) mod versions`.
LogicalResult rotate(PipelinedOp pipe, Schedule &s) {
  Block &body = pipe.getBody().front();
  // Everything a statement uses must be replayable per instance.
  DenseMap<Operation *, SmallVector<Operation *>> slices;
  for (const Statement &st : s.stmts) {
    FailureOr<SmallVector<Operation *>> slice = scalarSlice(st.op, body);
    if (failed(slice))
      return pipe.emitError(
          "T.Pipelined: a statement uses the value another statement "
          "computes; tlc cannot run this `stage`/`order` schedule");
    slices[st.op] = std::move(*slice);
    bool viewOutside = false;
    st.op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (s.versions.contains(getRootBuffer(v)) && v != getRootBuffer(v) &&
            !pipe->isAncestor(v.getParentBlock()->getParentOp()))
          viewOutside = true;
    });
    if (viewOutside)
      return pipe.emitError(
          "T.Pipelined: a statement reads a view, made before the loop, of "
          "a buffer this `stage`/`order` schedule multi-versions; tlc cannot "
          "run it");
  }
  for (Operation &op : body)
    if (isa<AllocOp>(op))
      return pipe.emitError("T.Pipelined: tlc cannot run this "
                            "`stage`/`order` schedule of a loop that "
                            "allocates buffers in its body");

  OpBuilder b(pipe);
  Location l = pipe.getLoc();
  // The versions, as allocations next to the original.
  DenseMap<Value, SmallVector<Value>> copies;
  for (auto [root, count] : s.versions) {
    auto alloc = root.getDefiningOp<AllocOp>();
    if (!alloc)
      return pipe.emitError("T.Pipelined: this `stage`/`order` schedule "
                            "multi-versions a buffer that is not an "
                            "allocation");
    SmallVector<Value> all{root};
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfter(alloc);
    for (int64_t v = 1; v < count; ++v)
      all.push_back(b.clone(*alloc)->getResult(0));
    copies[root] = std::move(all);
  }
  // Layout annotations of the body hold for the whole loop.
  for (Operation &op : body)
    if (isa<AnnotateLayoutOp>(op) &&
        llvm::all_of(op.getOperands(), [&](Value v) {
          return !pipe->isAncestor(v.getParentBlock()->getParentOp());
        }))
      b.clone(op);

  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, l, v);
  };
  Value lb = pipe.getLowerBound(), ub = pipe.getUpperBound();
  Value end = arith::AddIOp::create(b, l, ub, index(s.maxStage));
  auto loop = ForOp::create(b, l, lb, end, index(1));
  loop->setAttr("tile.rotated_stages", b.getI64IntegerAttr(s.maxStage + 1));
  b.setInsertionPointToEnd(&loop.getBody().front());
  Value k = loop.getInductionVar();

  SmallVector<const Statement *> ordered;
  for (const Statement &st : s.stmts)
    ordered.push_back(&st);
  llvm::stable_sort(ordered, [](const Statement *x, const Statement *y) {
    return x->order < y->order;
  });
  for (const Statement *st : ordered) {
    OpBuilder::InsertionGuard guard(b);
    Value j = st->stage == 0
                  ? k
                  : Value(arith::SubIOp::create(b, l, k, index(st->stage)));
    Value inRange = arith::AndIOp::create(
        b, l, arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, j, lb),
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, j, ub));
    auto guardIf = IfOp::create(b, l, inRange);
    b.setInsertionPointToEnd(guardIf.thenBlock());
    // The versioned buffers it touches, and the period of their choice.
    SmallVector<Value> touched;
    int64_t period = 1;
    for (auto [root, count] : s.versions)
      if (st->touches(root)) {
        touched.push_back(root);
        period = std::lcm(period, count);
      }
    auto emit = [&](int64_t phase) {
      IRMapping map;
      map.map(pipe.getInductionVar(), j);
      for (Value root : touched)
        map.map(root, copies[root][phase % copies[root].size()]);
      for (Operation *scalar : slices[st->op])
        b.clone(*scalar, map);
      b.clone(*st->op, map);
    };
    if (period == 1) {
      emit(0);
      continue;
    }
    Value phase = arith::RemSIOp::create(
        b, l, arith::SubIOp::create(b, l, j, lb), index(period));
    for (int64_t p = 0; p < period; ++p) {
      OpBuilder::InsertionGuard inner(b);
      Value is = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, phase,
                                       index(p));
      auto pick = IfOp::create(b, l, is);
      b.setInsertionPointToEnd(pick.thenBlock());
      emit(p);
    }
  }
  pipe.erase();
  return success();
}

/// Reads the schedule of \p pipe; std::nullopt when the loop has no
/// complete explicit lists this pass follows (none, only one of them,
/// negative entries as in TileLang's `group=` schedules, or another length
/// than the statements: tile-plan-pipelines warns about those).
std::optional<Schedule> readSchedule(PipelinedOp pipe) {
  std::optional<ArrayRef<int64_t>> stages = pipe.getStage();
  std::optional<ArrayRef<int64_t>> orders = pipe.getOrder();
  if (!stages || !orders)
    return std::nullopt;
  Schedule s;
  for (Operation &op : pipe.getBody().front())
    if (!isScalar(op))
      s.stmts.push_back({&op, 0, 0, {}});
  if (stages->size() != s.stmts.size() || orders->size() != s.stmts.size())
    return std::nullopt;
  for (auto [i, st] : llvm::enumerate(s.stmts)) {
    st.stage = (*stages)[i];
    st.order = (*orders)[i];
    if (st.stage < 0 || st.order < 0)
      return std::nullopt;
    st.access = getBufferAccesses(st.op);
    s.maxStage = std::max(s.maxStage, st.stage);
  }
  return s;
}

struct TileRotatePipelinesPass final
    : tlc::tile::impl::TileRotatePipelinesBase<TileRotatePipelinesPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](FuncOp func) {
      if (hasLoweringFailed(func))
        return;
      SmallVector<PipelinedOp> loops;
      func.walk([&](PipelinedOp pipe) { loops.push_back(pipe); });
      for (PipelinedOp pipe : loops) {
        std::optional<Schedule> s = readSchedule(pipe);
        if (!s)
          continue;
        llvm::SmallDenseSet<int64_t> seen;
        for (const Statement &st : s->stmts)
          if (!seen.insert(st.order).second) {
            pipe.emitError("T.Pipelined: two statements have the same "
                           "'order' ")
                << st.order;
            markLoweringFailed(func);
            return;
          }
        llvm::SetVector<Value> roots;
        for (const Statement &st : s->stmts)
          roots.insert(st.access.writes.begin(), st.access.writes.end());
        for (Value root : roots)
          if (root.getDefiningOp<AllocOp>())
            if (int64_t v = countVersions(*s, root); v > 1)
              s->versions[root] = v;
        if (rotationKeepsProgramOrder(*s, pipe))
          continue;
        if (failed(rotate(pipe, *s))) {
          markLoweringFailed(func);
          return;
        }
      }
    });
  }
};

} // namespace
