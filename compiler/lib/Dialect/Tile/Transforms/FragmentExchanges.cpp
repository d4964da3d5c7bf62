//===- FragmentExchanges.cpp - Which fragments go through shared memory ---===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The exchange choice (FragmentExchangePlan.h): which fragments each
// T.Parallel and fragment copy moves through the shared exchange area,
// from the fragments' layouts and the loops' partitions. It is a function
// of those only: tile-plan-fragment-exchanges asks it with the recorded
// `tile.fragment_layout`s, the CUDA/HIP printer with the layouts it
// fitted (to check the recorded plan, and for IR without one).
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/FragmentExchangePlan.h"
#include "tlc/Dialect/Tile/Transforms/ParallelPlan.h"
#include "tlc/Layout/RegisterMapKey.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

static_assert(kUnitLoopDim == layout::kUnitAccessDim,
              "loopAccessDims' unit dimensions are mapRegisters'");

/// The buffer a region of \p buffer views (itself when none).
static Value regionRoot(Value buffer) {
  while (auto region = buffer.getDefiningOp<RegionOp>())
    buffer = region.getSource();
  return buffer;
}

static bool isFragmentScope(Value buffer) {
  return cast<BufferType>(buffer.getType()).getScope() == MemoryScope::Fragment;
}

/// The buffer a tile.load or tile.store accesses, else null.
static Value accessed(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return load.getBuffer();
  if (auto store = dyn_cast<StoreOp>(op))
    return store.getBuffer();
  return {};
}

//===----------------------------------------------------------------------===//
// Shifted loops
//===----------------------------------------------------------------------===//

/// Whether \p op is \p loop or nested inside it.
static bool isInside(Operation *op, ParallelOp loop) {
  return op && loop->isAncestor(op);
}

static bool isInvariant(Value v, ParallelOp loop, unsigned depth) {
  if (depth > 16)
    return false;
  if (auto arg = dyn_cast<BlockArgument>(v))
    return !isInside(arg.getOwner()->getParentOp(), loop);
  Operation *def = v.getDefiningOp();
  if (!isInside(def, loop))
    return true;
  IntegerAttr c;
  if (matchPattern(v, m_Constant(&c)))
    return true;
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def))
    return false;
  return isInvariant(def->getOperand(0), loop, depth + 1) &&
         isInvariant(def->getOperand(1), loop, depth + 1);
}

bool tlc::tile::isLoopInvariantOffset(Value v, ParallelOp loop) {
  return isInvariant(v, loop, 0);
}

/// Whether offsets \p a and \p b are the same expression: one value, equal
/// integer constants, or the same arithmetic of equal operands (the
/// evaluator may build one index expression twice).
static bool isSameOffset(Value a, Value b, unsigned depth = 0) {
  if (a == b)
    return true;
  if (!a || !b || depth > 16)
    return false;
  IntegerAttr ca, cb;
  if (matchPattern(a, m_Constant(&ca)) && matchPattern(b, m_Constant(&cb)))
    return ca.getInt() == cb.getInt();
  Operation *da = a.getDefiningOp(), *db = b.getDefiningOp();
  if (!da || !db || da->getName() != db->getName() ||
      !isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(da))
    return false;
  return isSameOffset(da->getOperand(0), db->getOperand(0), depth + 1) &&
         isSameOffset(da->getOperand(1), db->getOperand(1), depth + 1);
}

/// \p index as loop variable \p var plus an offset: the offset (null for
/// none), or failure.
static FailureOr<Value> offsetFrom(Value index, BlockArgument var) {
  if (index == var)
    return Value();
  auto add = index.getDefiningOp<arith::AddIOp>();
  if (!add)
    return failure();
  if (add.getLhs() == var)
    return add.getRhs();
  if (add.getRhs() == var)
    return add.getLhs();
  return failure();
}

std::optional<ShiftedLoop>
tlc::tile::matchShiftedLoop(ParallelOp op, FragmentLookup fragments,
                            int64_t threads, IndexIntervals &intervals) {
  SmallVector<int64_t> extents;
  for (OpFoldResult ext : op.getMixedExtents()) {
    auto attr = dyn_cast<Attribute>(ext);
    if (!attr)
      return std::nullopt;
    extents.push_back(cast<IntegerAttr>(attr).getInt());
  }
  Block &body = op.getBody().front();
  // A body that is one `if v < C` (and pure arithmetic) does nothing at
  // v >= C.
  IfOp guard;
  unsigned effects = 0;
  for (Operation &o : body) {
    if (isMemoryEffectFree(&o))
      continue;
    ++effects;
    if (auto i = dyn_cast<IfOp>(o))
      guard = i;
  }
  if (guard && effects == 1 && !guard.elseBlock()) {
    auto cmp = guard.getCondition().getDefiningOp<arith::CmpIOp>();
    IntegerAttr c;
    if (cmp &&
        (cmp.getPredicate() == arith::CmpIPredicate::slt ||
         cmp.getPredicate() == arith::CmpIPredicate::ult) &&
        matchPattern(cmp.getRhs(), m_Constant(&c)))
      if (auto var = dyn_cast<BlockArgument>(cmp.getLhs());
          var && var.getOwner() == &body && c.getInt() >= 0)
        extents[var.getArgNumber()] =
            std::min(extents[var.getArgNumber()], c.getInt());
  }

  ShiftedLoop shifted;
  bool anyOffset = false;
  WalkResult walk = op.getBody().walk([&](Operation *o) {
    Value buf = accessed(o);
    if (!buf || !isFragmentScope(regionRoot(buf)))
      return WalkResult::advance();
    std::optional<layout::IndexedFragment> frag = fragments(buf);
    bool direct = regionRoot(buf) == buf;
    // Fragments every thread holds whole are read as scalar code does.
    if (isa<LoadOp>(o) && frag && direct &&
        layout::isWholeInEveryThread(*frag, threads) && buf != shifted.root)
      return WalkResult::advance();
    if (!isa<LoadOp>(o) || !direct || !frag ||
        (shifted.root && shifted.root != buf))
      return WalkResult::interrupt();
    ValueRange indices = cast<LoadOp>(o).getIndices();
    if (indices.size() != extents.size() ||
        frag->shape.size() != extents.size())
      return WalkResult::interrupt();
    SmallVector<Value> offsets;
    for (auto [d, index] : llvm::enumerate(indices)) {
      FailureOr<Value> off = offsetFrom(index, body.getArgument(d));
      if (failed(off))
        return WalkResult::interrupt();
      if (!*off) {
        if (extents[d] > frag->shape[d])
          return WalkResult::interrupt();
        offsets.push_back({});
        continue;
      }
      std::optional<IndexInterval> range = intervals.of(*off);
      // v + offset stays inside the fragment for every v and offset.
      if (!isLoopInvariantOffset(*off, op) || !range || range->lo < 0 ||
          range->hi + extents[d] > frag->shape[d])
        return WalkResult::interrupt();
      offsets.push_back(*off);
      anyOffset = true;
    }
    if (shifted.root &&
        !llvm::all_of(llvm::zip_equal(offsets, shifted.offsets), [](auto p) {
          return isSameOffset(std::get<0>(p), std::get<1>(p));
        }))
      return WalkResult::interrupt();
    shifted.root = buf;
    shifted.offsets = offsets;
    shifted.loads.push_back(o);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || !shifted.root || !anyOffset)
    return std::nullopt;
  shifted.extents = extents;
  return shifted;
}

//===----------------------------------------------------------------------===//
// The choice
//===----------------------------------------------------------------------===//

std::optional<SmallVector<unsigned>>
tlc::tile::fragmentCopyDims(ArrayRef<int64_t> src, ArrayRef<int64_t> dst) {
  SmallVector<unsigned> dstDims;
  for (auto [i, e] : llvm::enumerate(dst))
    if (e != 1)
      dstDims.push_back(i);
  SmallVector<unsigned> dims;
  unsigned next = 0;
  for (int64_t e : src) {
    if (e == 1) {
      dims.push_back(layout::kUnitAccessDim);
      continue;
    }
    if (next == dstDims.size() || dst[dstDims[next]] != e)
      return std::nullopt;
    dims.push_back(dstDims[next++]);
  }
  if (next != dstDims.size())
    return std::nullopt;
  return dims;
}

namespace {
/// Whether one layout's registers follow another's, asked once per pair of
/// layouts, dimensions and box (mapRegisters enumerates every slot).
class FollowMemo {
public:
  bool follows(const layout::IndexedFragment &loop,
               const layout::IndexedFragment &buf, ArrayRef<unsigned> dims,
               ArrayRef<int64_t> bound) {
    std::string key =
        layout::registerMapKey(loop.tables, buf.tables, dims, bound);
    if (loop.tables && buf.tables) {
      auto it = known.find(key);
      if (it != known.end())
        return it->second;
    }
    bool own = layout::mapRegisters(loop, buf, dims, bound).isOwn();
    if (loop.tables && buf.tables)
      known[key] = own;
    return own;
  }

private:
  llvm::StringMap<bool> known;
};
} // namespace

/// The fragment that partitions \p op (its `tile.partition`, else the
/// same choice), with the fragment dimension of each loop variable and the
/// loop's box; std::nullopt when none does.
static std::optional<layout::IndexedFragment>
partitioningFragment(ParallelOp op, FragmentLookup fragments,
                     SmallVectorImpl<unsigned> &varDim,
                     SmallVectorImpl<int64_t> &bound) {
  for (OpFoldResult ext : op.getMixedExtents())
    if (!isa<Attribute>(ext))
      return std::nullopt;
  FailureOr<std::optional<ParallelPlan>> planned = getParallelPlan(op);
  ParallelPlan plan = succeeded(planned) && *planned ? std::move(**planned)
                                                     : chooseParallelPlan(op);
  if (plan.partition != ParallelPartition::Fragment)
    return std::nullopt;
  std::optional<layout::IndexedFragment> frag =
      fragments(accessed(plan.access));
  if (!frag)
    return std::nullopt;
  varDim.assign(plan.dims.begin(), plan.dims.end());
  bound.assign(plan.box.begin(), plan.box.end());
  return frag;
}

FragmentExchanges
tlc::tile::chooseFragmentExchanges(KernelOp kernel, FragmentLookup fragments,
                                   int64_t threads, IndexIntervals &intervals) {
  FragmentExchanges chosen;
  FollowMemo memo;
  auto wholeRead = [&](Operation *o, const layout::IndexedFragment &f) {
    return isa<LoadOp>(o) && layout::isWholeInEveryThread(f, threads);
  };
  kernel.walk([&](ParallelOp op) {
    SmallVector<unsigned> varDim;
    SmallVector<int64_t> bound;
    std::optional<layout::IndexedFragment> loop =
        partitioningFragment(op, fragments, varDim, bound);
    // Runs over the slots of the fragment it reads.
    if (!loop && matchShiftedLoop(op, fragments, threads, intervals))
      return;
    SmallVector<Value, 1> list;
    op.getBody().walk([&](Operation *o) {
      Value buf = accessed(o);
      if (!buf || !isFragmentScope(regionRoot(buf)) || regionRoot(buf) != buf ||
          llvm::is_contained(list, buf))
        return;
      std::optional<layout::IndexedFragment> frag = fragments(buf);
      if (!frag)
        return;
      std::optional<SmallVector<unsigned>> dims = loopAccessDims(op, o);
      if (!dims || !loop) {
        // An access at indices that are not the loop variables (a row
        // chosen by an outer loop, a flattened `b[i * N + j]`), or a loop
        // no fragment partitions (`s[h]` under T.Parallel(H, N), run flat
        // over the threads), needs the whole fragment, unless it is a read
        // and every thread holds it whole.
        if (wholeRead(o, *frag))
          return;
      } else {
        SmallVector<unsigned> onLoop;
        for (unsigned d : *dims)
          onLoop.push_back(d == kUnitLoopDim ? d : varDim[d]);
        if (memo.follows(*loop, *frag, onLoop, bound))
          return;
      }
      list.push_back(buf);
    });
    if (!list.empty())
      chosen.push_back({op, std::move(list)});
  });
  // Whole-fragment copies between layouts that disagree.
  kernel.walk([&](CopyOp copy) {
    Value src = copy.getSrc(), dst = copy.getDst();
    std::optional<layout::IndexedFragment> s = fragments(src),
                                           d = fragments(dst);
    if (!s || !d)
      return;
    std::optional<SmallVector<unsigned>> dims =
        fragmentCopyDims(s->shape, d->shape);
    if (!dims || memo.follows(*d, *s, *dims, {}))
      return;
    chosen.push_back({copy, {src}});
  });
  return chosen;
}
