//===- SplitRangeFragments.cpp - One fragment copy per thread range -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// tile-split-range-fragments: a fragment that tile operations of two or
// more disjoint thread ranges use (the ping-pong accumulator each
// warpgroup's gemm writes under `if tx // 128 == g` / `T.ws(g)`) lives in
// the registers of each range's threads: every range has a copy of its
// own. A target that keeps one block-wide array per fragment (the CPU
// target) would let one range's writes overwrite what another range reads
// later; a GPU target lays a fragment out for the threads of one range.
// This pass gives such a fragment one allocation per range and runs each
// block-wide use once per copy, on the GPU targets inside its range
// (Passes.td has the rules).
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/SetVector.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILESPLITRANGEFRAGMENTS
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

namespace {

/// The buffer \p v views through regions and views (itself when none).
Value fragmentRootOrSelf(Value v) {
  for (;;) {
    if (auto region = v.getDefiningOp<RegionOp>())
      v = region.getSource();
    else if (auto view = v.getDefiningOp<ViewOp>())
      v = view.getSource();
    else
      return v;
  }
}

/// The fragment allocation \p v is (through regions and views), or null.
Value fragmentRoot(Value v) {
  for (;;) {
    if (auto region = v.getDefiningOp<RegionOp>())
      v = region.getSource();
    else if (auto view = v.getDefiningOp<ViewOp>())
      v = view.getSource();
    else
      break;
  }
  auto t = dyn_cast<BufferType>(v.getType());
  if (!t || t.getScope() != MemoryScope::Fragment ||
      !v.getDefiningOp<AllocOp>())
    return {};
  return v;
}

bool isView(Operation *op) { return isa<RegionOp, ViewOp>(op); }

/// What tile-rotate-pipelines does not count as a statement of a staged
/// T.Pipelined body (index arithmetic, regions, layout annotations, thread
/// indices).
bool isPipelineScalar(Operation &op) {
  return isa<RegionOp, AnnotateLayoutOp, ThreadBindingOp>(op) ||
         (op.getDialect() && isa<arith::ArithDialect>(op.getDialect()));
}

/// Whether \p op is a unit the pass places whole: a T.Parallel or an op
/// without regions (control flow is walked into).
bool isLeaf(Operation *op) {
  return isa<ParallelOp>(op) || op->getNumRegions() == 0;
}

/// The fragment allocations \p op reads or writes (nested ops included).
SmallVector<Value, 4> usedFragments(Operation *op) {
  SmallVector<Value, 4> roots;
  op->walk([&](Operation *nested) {
    for (Value v : nested->getOperands())
      if (Value root = fragmentRoot(v);
          root && !llvm::is_contained(roots, root))
        roots.push_back(root);
  });
  return roots;
}

/// The leaves of \p kernel (outside views) in program order.
SmallVector<Operation *> leavesOf(KernelOp kernel) {
  SmallVector<Operation *> leaves;
  kernel.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == kernel.getOperation() || !isLeaf(op))
      return WalkResult::advance();
    if (!isView(op))
      leaves.push_back(op);
    return WalkResult::skip();
  });
  return leaves;
}

/// Whether range \p inner lies within \p outer.
bool within(const ThreadRange &inner, const ThreadRange &outer) {
  return inner.lo >= outer.lo && inner.hi <= outer.hi;
}

/// The split of one kernel: the fragments given copies, the ranges the
/// copies belong to (sorted, disjoint) and the thread range of each leaf
/// (the block's where it has none).
struct Split {
  llvm::SetVector<Value> fragments;
  SmallVector<ThreadRange> ranges;
  llvm::DenseMap<Operation *, ThreadRange> rangeOf;
};

/// The copy index whose range holds \p r, or -1 when \p r holds them all
/// (a block-wide use), or std::nullopt when neither.
std::optional<int> copyOf(const Split &s, const ThreadRange &r) {
  for (auto [k, c] : llvm::enumerate(s.ranges))
    if (within(r, c))
      return static_cast<int>(k);
  if (llvm::all_of(s.ranges,
                   [&](const ThreadRange &c) { return within(c, r); }))
    return -1;
  return std::nullopt;
}

/// Chooses the split of \p kernel; std::nullopt when no fragment needs one
/// or the uses do not fall in the rules (left as they are).
std::optional<Split> chooseSplit(KernelOp kernel, int64_t threads,
                                 ArrayRef<Operation *> leaves) {
  ThreadRange block{0, threads, nullptr};
  Split s;
  llvm::DenseMap<Operation *, ThreadRange> &rangeOf = s.rangeOf;
  for (Operation *op : leaves) {
    std::optional<ThreadRange> r = threadRangeOf(op, threads);
    rangeOf[op] = r ? *r : block;
  }
  // Fragments with uses on two or more distinct narrower ranges.
  llvm::MapVector<Value, SmallVector<ThreadRange>> narrow;
  for (Operation *op : leaves) {
    ThreadRange r = rangeOf[op];
    if (r == block)
      continue;
    for (Value f : usedFragments(op)) {
      SmallVector<ThreadRange> &rs = narrow[f];
      if (!llvm::is_contained(rs, r))
        rs.push_back(r);
    }
  }
  for (auto &[f, rs] : narrow) {
    if (rs.size() < 2)
      continue;
    llvm::sort(rs, [](auto &a, auto &b) { return a.lo < b.lo; });
    for (size_t i = 1; i < rs.size(); ++i)
      if (rs[i].lo < rs[i - 1].hi)
        return std::nullopt; // overlapping ranges: not copies
    if (!s.ranges.empty() && s.ranges != rs)
      return std::nullopt; // two sets of copies in one kernel
    s.ranges = rs;
    s.fragments.insert(f);
  }
  if (s.fragments.empty())
    return std::nullopt;
  // A block-wide use of a copied fragment runs once per copy; the fragments
  // it writes get copies too (the sum of a per-range accumulator).
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *op : leaves) {
      SmallVector<Value, 4> used = usedFragments(op);
      if (llvm::none_of(used, [&](Value f) { return s.fragments.contains(f); }))
        continue;
      std::optional<int> k = copyOf(s, rangeOf[op]);
      if (!k)
        return std::nullopt;
      if (*k >= 0)
        continue;
      // Run once per copy: only ops whose results no one reads.
      if (op->getNumResults() != 0)
        return std::nullopt;
      for (Value f : used)
        changed |= s.fragments.insert(f);
    }
  }
  // A range that reads a copy no operation of its own (nor a block-wide
  // one) writes would read registers nothing wrote: the program passes
  // values between ranges through a fragment (range 0 loads it, range 1
  // stores it), which registers cannot do. Left as it is: the GPU targets
  // refuse it where the second range uses the fragment.
  auto keepFragments = [](MemoryScope scope) {
    return scope == MemoryScope::Fragment;
  };
  for (Value f : s.fragments) {
    SmallVector<bool> used(s.ranges.size()), written(s.ranges.size());
    for (Operation *op : leaves) {
      BufferAccesses acc = getBufferAccesses(op, keepFragments);
      bool writes = acc.writes.contains(f);
      if (!writes && !acc.reads.contains(f))
        continue;
      std::optional<int> k = copyOf(s, rangeOf[op]);
      for (size_t j = 0; j < s.ranges.size(); ++j) {
        if (*k >= 0 && static_cast<size_t>(*k) != j)
          continue;
        used[j] = true;
        written[j] = written[j] || writes;
      }
    }
    for (size_t j = 0; j < s.ranges.size(); ++j)
      if (used[j] && !written[j])
        return std::nullopt;
  }
  // A view that is a statement of a staged T.Pipelined body would change
  // the statement count when copied.
  bool stagedView = false;
  kernel.walk([&](ViewOp view) {
    auto pipe = dyn_cast<PipelinedOp>(view->getParentOp());
    stagedView |= pipe && pipe.getStage() &&
                  s.fragments.contains(fragmentRoot(view.getResult()));
  });
  if (stagedView)
    return std::nullopt;
  return s;
}

/// Whether \p scope is memory every thread of the block shares.
bool isBlockShared(MemoryScope scope) {
  return scope == MemoryScope::Global || isSharedScope(scope);
}

/// Whether \p src, a copied fragment whole, goes elementwise into \p dst,
/// memory every thread shares (global or shared) of the same static
/// shape: a T.copy or a tile-form T.atomic_add that, run once per copy,
/// would write every element once per copy.
bool isWholeTileToShared(Value src, Value dst, const Split &split) {
  auto dstType = cast<BufferType>(dst.getType());
  MemoryScope scope =
      cast<BufferType>(fragmentRootOrSelf(dst).getType()).getScope();
  return split.fragments.contains(src) && isBlockShared(scope) &&
         dstType.isStatic() &&
         dstType.getShape() == cast<BufferType>(src.getType()).getShape();
}

/// Whether \p op is a tile-form T.atomic_add of a copied fragment whole
/// into shared memory of its element type (added elementwise, as a
/// T.Parallel of element-form adds: cloneAtomicRowShare).
bool isWholeTileAtomicAdd(Operation *op, const Split &split) {
  auto add = dyn_cast<AtomicAddOp>(op);
  if (!add || !add.getIndices().empty() || add.getPrev())
    return false;
  auto value = dyn_cast<BufferType>(add.getValue().getType());
  return value && value.getRank() > 0 &&
         value.getElementType() ==
             cast<BufferType>(add.getDst().getType()).getElementType() &&
         isWholeTileToShared(add.getValue(), add.getDst(), split);
}

/// The loop variable a T.Parallel reads every copied fragment's rows at
/// (`C[i, j] = out[i, j]`: i) and those fragments' common row count;
/// std::nullopt when the loop writes a copied fragment, reads one through
/// a view or at a first index that is not one loop variable, or the
/// fragments' row counts differ.
std::optional<std::pair<unsigned, int64_t>> parallelRows(ParallelOp loop,
                                                         const Split &split) {
  std::optional<unsigned> var;
  std::optional<int64_t> rows;
  bool fits = true;
  loop.getBody().walk([&](Operation *op) {
    for (Value v : op->getOperands()) {
      if (!split.fragments.contains(fragmentRoot(v)))
        continue;
      auto load = dyn_cast<LoadOp>(op);
      if (!load || load.getBuffer() != v || !split.fragments.contains(v) ||
          load.getIndices().empty()) {
        fits = false;
        return;
      }
      auto arg = dyn_cast<BlockArgument>(load.getIndices()[0]);
      if (!arg || arg.getOwner() != &loop.getBody().front() ||
          (var && *var != arg.getArgNumber())) {
        fits = false;
        return;
      }
      var = arg.getArgNumber();
      int64_t r = cast<BufferType>(v.getType()).getShape()[0];
      if (rows && *rows != r) {
        fits = false;
        return;
      }
      rows = r;
    }
  });
  if (!fits || !var)
    return std::nullopt;
  return std::make_pair(*var, *rows);
}

/// Whether \p op writes memory every thread shares (global or shared).
bool writesSharedMemory(Operation *op) {
  auto shared = [](MemoryScope scope) { return isBlockShared(scope); };
  return !getBufferAccesses(op, shared).writes.empty();
}

/// How a block-wide statement writing shared memory from a copied fragment
/// writes only its copy's rows.
struct RowShare {
  enum Kind {
    Copy,     ///< T.copy: regions of the rows (cloneCopyRowShare)
    Atomic,   ///< tile-form T.atomic_add: a guarded T.Parallel of adds
    Parallel, ///< T.Parallel: guarded on loop variable `var`
  } kind;
  unsigned var = 0;
  /// The copied fragments' row count.
  int64_t rows = 0;
};
using RowShares = llvm::DenseMap<Operation *, RowShare>;

/// \p off + \p delta, folded when \p off is a constant.
OpFoldResult addOffset(OpBuilder &b, Location loc, OpFoldResult off,
                       int64_t delta) {
  if (std::optional<int64_t> c = getConstantIntValue(off))
    return b.getIndexAttr(*c + delta);
  Value d = arith::ConstantIndexOp::create(b, loc, delta);
  return arith::AddIOp::create(b, loc, cast<Value>(off), d).getResult();
}

/// Clones \p copy, which stores a copied fragment whole into shared memory
/// (isWholeTileToShared), for copy \p k of \p n (mapped by \p map) storing
/// only that copy's share of the rows: rows [k * R / n, (k + 1) * R / n)
/// of the fragment where n divides its R rows, else (k = 0) all of them
/// and nothing for the other copies. A region destination is re-based on
/// its source (no region of a region).
void cloneCopyRowShare(OpBuilder &b, CopyOp copy, IRMapping &map, int k,
                       int n) {
  auto type = cast<BufferType>(copy.getSrc().getType());
  int64_t rows = type.getRank() > 0 ? type.getShape()[0] : 1;
  if (type.getRank() == 0 || rows % n != 0) {
    if (k == 0)
      b.clone(*copy, map);
    return;
  }
  int64_t share = rows / n;
  Location loc = copy.getLoc();
  SmallVector<Dim> shape = type.getDims();
  shape[0] = Dim(share);
  SmallVector<OpFoldResult> srcOff(type.getRank(), b.getIndexAttr(0));
  srcOff[0] = b.getIndexAttr(k * share);
  Value from = map.lookup(copy.getSrc());
  auto srcType = BufferType::get(b.getContext(), shape, type.getElementType(),
                                 type.getScope());
  Value part = RegionOp::create(b, loc, srcType, from, srcOff);
  Value to = copy.getDst();
  SmallVector<OpFoldResult> dstOff(type.getRank(), b.getIndexAttr(0));
  if (auto region = to.getDefiningOp<RegionOp>()) {
    dstOff = region.getMixedOffsets();
    to = region.getSource();
  }
  dstOff[0] = addOffset(b, loc, dstOff[0], k * share);
  auto dstType = cast<BufferType>(to.getType());
  Value target = RegionOp::create(b, loc,
                                  BufferType::get(b.getContext(), shape,
                                                  dstType.getElementType(),
                                                  dstType.getScope()),
                                  to, dstOff);
  auto clone = cast<CopyOp>(b.clone(*copy));
  clone.getSrcMutable().assign(part);
  clone.getDstMutable().assign(target);
}

/// Guards the body of \p loop to run only where loop variable \p var lies
/// in share \p k of \p n of \p rows rows, [k * R / n, (k + 1) * R / n)
/// (n > 1).
void guardRows(ParallelOp loop, unsigned var, int64_t rows, int k, int n) {
  Block &body = loop.getBody().front();
  Location loc = loop.getLoc();
  OpBuilder ib = OpBuilder::atBlockBegin(&body);
  Value row = body.getArgument(var);
  int64_t share = rows / n;
  Value cond;
  auto compare = [&](arith::CmpIPredicate p, int64_t c) {
    Value bound = arith::ConstantIndexOp::create(ib, loc, c);
    Value v = arith::CmpIOp::create(ib, loc, p, row, bound);
    cond = cond ? arith::AndIOp::create(ib, loc, cond, v).getResult() : v;
  };
  // The fragment read at `row` bounds it by R already.
  if (k > 0)
    compare(arith::CmpIPredicate::sge, k * share);
  if (k + 1 < n)
    compare(arith::CmpIPredicate::slt, (k + 1) * share);
  auto guard = IfOp::create(ib, loc, cond, /*withElse=*/false);
  Block *then = guard.thenBlock();
  then->getOperations().splice(then->end(), body.getOperations(),
                               std::next(guard->getIterator()), body.end());
}

/// Clones the T.Parallel \p loop, which reads its copied fragments' \p rows
/// rows at loop variable \p var (parallelRows), for copy \p k of \p n
/// (mapped by \p map), its body guarded to run only at that copy's share
/// of the rows, [k * R / n, (k + 1) * R / n), as cloneCopyRowShare splits
/// a whole-tile T.copy; where n does not divide R, copy 0 runs it whole and
/// the other copies not at all.
void cloneParallelRowShare(OpBuilder &b, ParallelOp loop, unsigned var,
                           int64_t rows, IRMapping &map, int k, int n) {
  if (rows % n != 0) {
    if (k == 0)
      b.clone(*loop, map);
    return;
  }
  guardRows(cast<ParallelOp>(b.clone(*loop, map)), var, rows, k, n);
}

/// Clones the tile-form T.atomic_add \p add (isWholeTileAtomicAdd) for copy
/// \p k of \p n (mapped by \p map) as a T.Parallel over the fragment's
/// shape of element-form adds of the same memory order, guarded to the
/// copy's share of the rows as cloneParallelRowShare guards a loop.
void cloneAtomicRowShare(OpBuilder &b, AtomicAddOp add, IRMapping &map, int k,
                         int n) {
  auto type = cast<BufferType>(add.getValue().getType());
  int64_t rows = type.getShape()[0];
  if (rows % n != 0 && k != 0)
    return;
  Location loc = add.getLoc();
  SmallVector<OpFoldResult> extents;
  for (int64_t e : type.getShape())
    extents.push_back(b.getIndexAttr(e));
  auto loop = ParallelOp::create(b, loc, extents);
  OpBuilder ib = OpBuilder::atBlockBegin(&loop.getBody().front());
  ValueRange ivs = loop.getInductionVars();
  Value v = LoadOp::create(ib, loc, map.lookup(add.getValue()), ivs);
  auto element = AtomicAddOp::create(ib, loc, add.getDst(), ivs, v);
  element.setMemoryOrderAttr(add.getMemoryOrderAttr());
  if (rows % n == 0)
    guardRows(loop, 0, rows, k, n);
}

/// `lo <= tx < hi` on the thread index (the bounds the block already
/// gives left out), a condition threadRangeOf reads as [lo, hi).
Value rangeCondition(OpBuilder &b, Location loc, const ThreadRange &r,
                     int64_t threads) {
  Value tx = ThreadBindingOp::create(b, loc, 0);
  Value cond;
  auto compare = [&](arith::CmpIPredicate p, int64_t c) {
    Value bound = arith::ConstantIndexOp::create(b, loc, c);
    Value v = arith::CmpIOp::create(b, loc, p, tx, bound);
    cond = cond ? arith::AndIOp::create(b, loc, cond, v).getResult() : v;
  };
  if (r.lo > 0)
    compare(arith::CmpIPredicate::sge, r.lo);
  if (r.hi < threads)
    compare(arith::CmpIPredicate::slt, r.hi);
  if (!cond)
    cond = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  return cond;
}

/// Rewrites \p kernel by \p split; with \p wrap, each copy of a
/// block-wide use runs inside its range (`tile.if` on the thread index);
/// a block-wide use in \p shares writes only its copy's rows.
void applySplit(KernelOp kernel, ArrayRef<Operation *> leaves,
                const Split &split, const RowShares &shares, int64_t threads,
                bool wrap) {
  int n = split.ranges.size();
  // copies[k] maps a copied fragment (and its views) to copy k.
  SmallVector<IRMapping> copies(n);
  for (Value f : split.fragments) {
    Operation *alloc = f.getDefiningOp();
    OpBuilder b(alloc);
    for (int k = 0; k < n; ++k) {
      Operation *c = b.clone(*alloc);
      copies[k].map(f, c->getResult(0));
    }
  }
  // Views of copied fragments, once per copy, where they stand.
  SmallVector<Operation *> views;
  kernel.walk([&](Operation *op) {
    if (isView(op) && split.fragments.contains(fragmentRoot(op->getResult(0))))
      views.push_back(op);
  });
  for (Operation *view : views) {
    OpBuilder b(view);
    for (int k = 0; k < n; ++k)
      b.clone(*view, copies[k]);
  }
  for (Operation *op : leaves) {
    SmallVector<Value, 4> used = usedFragments(op);
    if (llvm::none_of(used,
                      [&](Value f) { return split.fragments.contains(f); }))
      continue;
    int k = *copyOf(split, split.rangeOf.lookup(op));
    if (k >= 0) {
      op->walk([&](Operation *nested) {
        for (OpOperand &use : nested->getOpOperands())
          if (Value m = copies[k].lookupOrNull(use.get()))
            use.set(m);
      });
      continue;
    }
    // A statement of an explicitly staged T.Pipelined body becomes n
    // statements of its stage, next to each other in its order.
    auto pipe = dyn_cast<PipelinedOp>(op->getParentOp());
    if (pipe && pipe.getStage() && pipe.getOrder()) {
      int64_t index = 0;
      for (Operation &stmt : pipe.getBody().front()) {
        if (&stmt == op)
          break;
        if (!isPipelineScalar(stmt))
          ++index;
      }
      ArrayRef<int64_t> stages = *pipe.getStage(), orders = *pipe.getOrder();
      if (index < static_cast<int64_t>(stages.size()) &&
          stages.size() == orders.size()) {
        SmallVector<int64_t> newStages(stages), newOrders;
        newStages.insert(newStages.begin() + index, n - 1, stages[index]);
        for (int64_t o : orders)
          newOrders.push_back(o > orders[index] ? o + n - 1 : o);
        for (int j = 1; j < n; ++j)
          newOrders.insert(newOrders.begin() + index + j, orders[index] + j);
        pipe.setStage(newStages);
        pipe.setOrder(newOrders);
      }
    }
    OpBuilder b(op);
    auto share = shares.find(op);
    for (int j = 0; j < n; ++j) {
      OpBuilder::InsertionGuard guard(b);
      if (wrap) {
        Value cond = rangeCondition(b, op->getLoc(), split.ranges[j], threads);
        auto ifOp = IfOp::create(b, op->getLoc(), cond, /*withElse=*/false);
        b.setInsertionPointToStart(ifOp.thenBlock());
      }
      if (share == shares.end())
        b.clone(*op, copies[j]);
      else if (share->second.kind == RowShare::Copy)
        cloneCopyRowShare(b, cast<CopyOp>(op), copies[j], j, n);
      else if (share->second.kind == RowShare::Atomic)
        cloneAtomicRowShare(b, cast<AtomicAddOp>(op), copies[j], j, n);
      else
        cloneParallelRowShare(b, cast<ParallelOp>(op), share->second.var,
                              share->second.rows, copies[j], j, n);
    }
    // A destination region the row shares re-based.
    Operation *dstRegion = nullptr;
    if (auto copy = dyn_cast<CopyOp>(op); copy && share != shares.end())
      dstRegion = copy.getDst().getDefiningOp<RegionOp>();
    op->erase();
    if (dstRegion && dstRegion->use_empty())
      dstRegion->erase();
  }
  for (Operation *view : llvm::reverse(views))
    if (view->use_empty())
      view->erase();
  for (Value f : split.fragments)
    if (f.use_empty())
      f.getDefiningOp()->erase();
}

/// Plans the block-wide statements that run once per copy and write
/// memory every thread shares (global or shared) from a copied fragment:
/// each copy writes only its share of the fragment's rows, or each would
/// write the same elements (an atomic add would add them once per copy).
/// A whole-tile T.copy stores a region of the rows (cloneCopyRowShare), a
/// whole-tile T.atomic_add becomes a T.Parallel of element-form adds
/// guarded to the rows (cloneAtomicRowShare); a T.Parallel that reads its
/// copied fragments' rows at one loop variable and writes none of them runs
/// guarded to the copy's rows (cloneParallelRowShare). Any other such statement
/// is refused: no split gives the program's answer.
FailureOr<RowShares> planRowShares(ArrayRef<Operation *> leaves,
                                   const Split &split) {
  RowShares shares;
  for (Operation *op : leaves) {
    SmallVector<Value, 4> used = usedFragments(op);
    if (llvm::none_of(used,
                      [&](Value f) { return split.fragments.contains(f); }))
      continue;
    std::optional<int> k = copyOf(split, split.rangeOf.lookup(op));
    if (!k || *k >= 0)
      continue;
    if (auto copy = dyn_cast<CopyOp>(op);
        copy && isWholeTileToShared(copy.getSrc(), copy.getDst(), split)) {
      shares[op] = RowShare{RowShare::Copy};
      continue;
    }
    if (isWholeTileAtomicAdd(op, split)) {
      shares[op] = RowShare{RowShare::Atomic};
      continue;
    }
    if (!writesSharedMemory(op))
      continue;
    if (auto loop = dyn_cast<ParallelOp>(op))
      if (std::optional<std::pair<unsigned, int64_t>> rows =
              parallelRows(loop, split)) {
        shares[op] = RowShare{RowShare::Parallel, rows->first, rows->second};
        continue;
      }
    return op->emitError()
           << "this statement runs on every thread of the block and writes "
              "global or shared memory from a fragment that "
           << split.ranges.size()
           << " thread ranges each hold their own copy of; building it is "
              "not supported yet (each copy would write the same elements): "
              "write the fragment with T.copy, in a T.Parallel that reads "
              "its rows at one loop variable and writes no such fragment, "
              "or inside each range";
  }
  return shares;
}

/// Whether \p op is a tile operation whose fragments' layouts bind it to
/// their threads (what getFragmentHomes counts; fills run anywhere).
bool bindsFragmentThreads(Operation *op) {
  return isa<GemmOp, CopyOp, ReduceOp, CumSumOp, AtomicAddOp, ParallelOp>(op);
}

/// On a GPU target: a fragment that the tile operations of one narrower
/// range R use (a warpgroup's gemm under `T.ws(1)`) and that operations
/// over a wider range then use too (`T.copy(C_local_g1, C[...])` after the
/// branches) lives in R's registers; TileLang lays it out for R and the
/// wider operation's loop follows that layout, so only R's threads run it.
/// Each such wider use is wrapped in a `tile.if` on R; the fragments it
/// uses with no range of their own go to R as well. Left alone when a
/// wider use also touches a fragment of another range or has a result.
void narrowToOneRange(KernelOp kernel, int64_t threads,
                      ArrayRef<Operation *> leaves) {
  ThreadRange block{0, threads, nullptr};
  llvm::DenseMap<Operation *, ThreadRange> rangeOf;
  for (Operation *op : leaves) {
    std::optional<ThreadRange> r = threadRangeOf(op, threads);
    rangeOf[op] = r ? *r : block;
  }
  // The narrow ranges each fragment's binding operations run on.
  llvm::MapVector<Value, SmallVector<ThreadRange>> narrow;
  for (Operation *op : leaves) {
    ThreadRange r = rangeOf[op];
    if (r == block || !bindsFragmentThreads(op))
      continue;
    for (Value f : usedFragments(op)) {
      SmallVector<ThreadRange> &rs = narrow[f];
      if (!llvm::is_contained(rs, r))
        rs.push_back(r);
    }
  }
  llvm::DenseMap<Value, ThreadRange> home;
  for (auto &[f, rs] : narrow)
    if (rs.size() == 1)
      home.try_emplace(f, rs.front());
  // The wider uses, each run on the range of the fragments it uses.
  llvm::MapVector<Operation *, ThreadRange> wrap;
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *op : leaves) {
      if (wrap.count(op) || !bindsFragmentThreads(op) ||
          op->getNumResults() != 0)
        continue;
      ThreadRange r = rangeOf[op];
      std::optional<ThreadRange> target;
      bool mixed = false;
      SmallVector<Value, 4> used = usedFragments(op);
      for (Value f : used) {
        if (narrow.count(f) && !home.count(f))
          mixed = true; // a fragment of several ranges
        auto it = home.find(f);
        if (it == home.end())
          continue;
        if (target && !(*target == it->second))
          mixed = true;
        target = it->second;
      }
      if (mixed || !target || *target == r || !within(*target, r))
        continue;
      // The fragments it uses that no range holds yet follow it.
      bool taken = llvm::any_of(used, [&](Value f) {
        auto it = home.find(f);
        return it == home.end() && narrow.count(f);
      });
      if (taken)
        continue;
      for (Value f : used)
        if (home.try_emplace(f, *target).second)
          changed = true;
      wrap[op] = *target;
      changed = true;
    }
  }
  for (auto &[op, r] : wrap) {
    OpBuilder b(op);
    Value cond = rangeCondition(b, op->getLoc(), r, threads);
    auto ifOp = IfOp::create(b, op->getLoc(), cond, /*withElse=*/false);
    op->moveBefore(ifOp.thenBlock(), ifOp.thenBlock()->end());
  }
}

struct TileSplitRangeFragmentsPass final
    : tlc::tile::impl::TileSplitRangeFragmentsBase<
          TileSplitRangeFragmentsPass> {
  using Base::Base;

  void runOnOperation() override {
    // On a GPU target each range's threads run the uses of its copy.
    bool wrap = isGpuTarget(getGpuTarget(getOperation(), target));
    getOperation().walk([&](KernelOp kernel) {
      std::optional<int64_t> threads = kernel.getStaticNumThreads();
      if (!threads)
        return;
      SmallVector<Operation *> leaves = leavesOf(kernel);
      if (wrap) {
        narrowToOneRange(kernel, *threads, leaves);
        leaves = leavesOf(kernel);
      }
      std::optional<Split> split = chooseSplit(kernel, *threads, leaves);
      if (!split)
        return;
      FailureOr<RowShares> shares = planRowShares(leaves, *split);
      if (failed(shares)) {
        signalPassFailure();
        return;
      }
      applySplit(kernel, leaves, *split, *shares, *threads, wrap);
    });
  }
};

} // namespace
