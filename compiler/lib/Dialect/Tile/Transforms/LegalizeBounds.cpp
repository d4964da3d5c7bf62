//===- LegalizeBounds.cpp - The --tile-legalize-bounds pass ---------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Decides, for every operation of a kernel that reads or writes global
// memory, which index checks its accesses need (Passes.td has the
// contract; BoundsGuards.h the attribute). The indices an operation uses
// in a view are its explicit indices (tile.load, tile.store, the element
// form of tile.atomic_add) or, for a tile operation, every position of
// the view; through each tile.region their intervals are shifted by the
// region's offsets (IndexIntervals). A dimension whose interval lies in
// [0, extent) needs no check; one that may lie below 0 is checked there;
// one that is unknown is checked at its extent. A check is also dropped
// where a fact proves it: a T.assume (tile.assume) before the access in
// its block or an enclosing one (`i < N`, `i >= 0`, joined by `and`), or
// an enclosing tile.for whose variable is the index (`j < N` in
// `for j in T.serial(N)`), where N is the tensor's symbolic extent or a
// value no larger than its static one. Indices are compared by structure
// (the same pure operations on the same operands), so `l + i` written
// twice is one index.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/BoundsGuards.h"
#include "tlc/Dialect/Tile/IR/IndexIntervals.h"
#include "tlc/Dialect/Tile/IR/SafeValues.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILELEGALIZEBOUNDS
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

namespace {
using Intervals = SmallVector<std::optional<IndexInterval>>;

/// Whether \p a and \p b are the same index: one value, or the results
/// of equal pure operations (same name, attributes and result number) on
/// the same operands, to \p depth operations deep.
static bool sameIndex(Value a, Value b, unsigned depth = 8) {
  // A signed widening keeps the value (`T.int32` scalars as indices).
  while (auto cast = a.getDefiningOp<arith::IndexCastOp>())
    a = cast.getIn();
  while (auto cast = b.getDefiningOp<arith::IndexCastOp>())
    b = cast.getIn();
  if (a == b)
    return true;
  Operation *da = a.getDefiningOp(), *db = b.getDefiningOp();
  if (!da || !db || depth == 0 || da->getNumRegions() || db->getNumRegions() ||
      !isPure(da) || !isPure(db) ||
      cast<OpResult>(a).getResultNumber() !=
          cast<OpResult>(b).getResultNumber())
    return false;
  return OperationEquivalence::isEquivalentTo(
      da, db,
      [&](Value x, Value y) { return success(sameIndex(x, y, depth - 1)); },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

/// `subject REL bound`, a fact about an index value.
struct Fact {
  enum Rel { Lt, Le, Gt, Ge };
  Value subject, bound;
  Rel rel;
};

/// The facts that hold at an operation of a kernel: the promises of the
/// T.assume ops before it (in its block or an enclosing one) and the
/// ranges of the tile.for loops around it.
class Facts {
public:
  explicit Facts(KernelOp kernel) {
    kernel.walk([&](AssumeOp a) { assumes.push_back(a); });
  }

  /// The facts at \p op.
  SmallVector<Fact> at(Operation *op) {
    SmallVector<Fact> facts;
    for (AssumeOp a : assumes) {
      Operation *anc = a->getBlock()->findAncestorOpInBlock(*op);
      if (anc && anc != a && a->isBeforeInBlock(anc))
        addCondition(a.getCondition(), facts);
    }
    for (auto loop = op->getParentOfType<ForOp>(); loop;
         loop = loop->getParentOfType<ForOp>()) {
      IntegerAttr step;
      if (!matchPattern(loop.getStep(), m_Constant(&step)) ||
          step.getInt() <= 0)
        continue;
      facts.push_back({loop.getInductionVar(), loop.getUpperBound(), Fact::Lt});
      facts.push_back({loop.getInductionVar(), loop.getLowerBound(), Fact::Ge});
    }
    return facts;
  }

private:
  /// The facts of the condition \p c: each comparison of an `and` chain,
  /// from both sides.
  static void addCondition(Value c, SmallVector<Fact> &facts,
                           unsigned depth = 16) {
    Operation *def = c.getDefiningOp();
    if (!def || depth == 0)
      return;
    if (auto both = dyn_cast<arith::AndIOp>(def)) {
      addCondition(both.getLhs(), facts, depth - 1);
      addCondition(both.getRhs(), facts, depth - 1);
      return;
    }
    auto cmp = dyn_cast<arith::CmpIOp>(def);
    if (!cmp)
      return;
    Value l = cmp.getLhs(), r = cmp.getRhs();
    switch (cmp.getPredicate()) {
    case arith::CmpIPredicate::slt:
      facts.push_back({l, r, Fact::Lt});
      facts.push_back({r, l, Fact::Gt});
      break;
    case arith::CmpIPredicate::sle:
      facts.push_back({l, r, Fact::Le});
      facts.push_back({r, l, Fact::Ge});
      break;
    case arith::CmpIPredicate::sgt:
      facts.push_back({l, r, Fact::Gt});
      facts.push_back({r, l, Fact::Lt});
      break;
    case arith::CmpIPredicate::sge:
      facts.push_back({l, r, Fact::Ge});
      facts.push_back({r, l, Fact::Le});
      break;
    default:
      break;
    }
  }

  SmallVector<AssumeOp> assumes;
};

/// The guards of one kernel.
class BoundsLegalizer {
public:
  BoundsLegalizer(KernelOp kernel, IndexIntervals &intervals,
                  const llvm::DenseMap<Value, double> &safeValues,
                  const llvm::DenseMap<Operation *, double> &paddedReads)
      : facts(kernel), intervals(intervals), safeValues(safeValues),
        paddedReads(paddedReads) {}

  /// Records the guards of \p op (nothing for one that touches no global
  /// memory).
  void legalize(Operation *op) {
    if (isa<RegionOp, ViewOp, MakeTensorOp, AllocOp>(op))
      return;
    SmallVector<std::optional<BoundsGuard>> perOperand;
    bool any = false;
    std::optional<SmallVector<Fact>> known; // computed on first use
    for (OpOperand &operand : op->getOpOperands()) {
      std::optional<BoundsGuard> g;
      if (isa<BufferType>(operand.get().getType()))
        g = guardOf(op, operand.get(), positionsOf(op, operand),
                    indicesOf(op, operand), known);
      any |= g.has_value();
      perOperand.push_back(std::move(g));
    }
    if (any)
      setBoundsGuards(op, perOperand);
  }

private:
  /// The intervals of the indices \p op uses in the view \p operand.
  Intervals positionsOf(Operation *op, OpOperand &operand) {
    auto type = cast<BufferType>(operand.get().getType());
    ValueRange indices;
    bool indexed = false;
    if (auto load = dyn_cast<LoadOp>(op)) {
      indices = load.getIndices();
      indexed = true;
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      indexed = operand.get() == store.getBuffer();
      indices = store.getIndices();
    } else if (auto atomic = dyn_cast<AtomicAddOp>(op)) {
      indexed = operand.get() == atomic.getDst() &&
                !atomic.getIndices().empty();
      indices = atomic.getIndices();
    }
    Intervals r;
    if (indexed) {
      for (Value i : indices)
        r.push_back(intervals.ofIndex(i));
      return r;
    }
    // T.address_of names the first element of its view; another intrinsic
    // names its elements by index arguments of its own: none is known.
    if (auto intr = dyn_cast<IntrinsicOp>(op);
        intr && intr.getCallee() == "T.address_of") {
      r.assign(type.getRank(), IndexInterval{0, 0, 1});
      return r;
    }
    bool known = !isa<IntrinsicOp>(op);
    for (unsigned d = 0; d < type.getRank(); ++d) {
      Dim dim = type.getDim(d);
      if (known && dim.isStatic() && dim.getValue() > 0)
        r.push_back(IndexInterval{0, dim.getValue() - 1, 1});
      else
        r.push_back(std::nullopt);
    }
    return r;
  }

  /// The explicit indices \p op uses in \p operand (none for a tile
  /// operation).
  static ValueRange indicesOf(Operation *op, OpOperand &operand) {
    if (auto load = dyn_cast<LoadOp>(op))
      return load.getIndices();
    if (auto store = dyn_cast<StoreOp>(op))
      return operand.get() == store.getBuffer() ? store.getIndices()
                                                : ValueRange();
    if (auto atomic = dyn_cast<AtomicAddOp>(op))
      return operand.get() == atomic.getDst() ? atomic.getIndices()
                                              : ValueRange();
    return {};
  }

  /// Whether \p facts prove `index >= 0` (\p lower) or `index < extent`
  /// of \p dim.
  bool proves(ArrayRef<Fact> facts, Value index, Dim dim, bool lower) {
    for (const Fact &f : facts) {
      if (!sameIndex(f.subject, index))
        continue;
      std::optional<IndexInterval> b = intervals.of(f.bound);
      if (lower) {
        if (b && ((f.rel == Fact::Ge && b->lo >= 0) ||
                  (f.rel == Fact::Gt && b->lo >= -1)))
          return true;
        continue;
      }
      if (f.rel != Fact::Lt && f.rel != Fact::Le)
        continue;
      int64_t slack = f.rel == Fact::Le ? 1 : 0;
      if (dim.isStatic() && b && b->hi + slack <= dim.getValue())
        return true;
      auto sym = f.bound.getDefiningOp<SymbolOp>();
      if (f.rel == Fact::Lt && dim.isSymbolic() && sym &&
          sym.getName() == dim.getSymbol().getValue())
        return true;
    }
    return false;
  }

  /// The guard of \p op's accesses at \p positions of the view \p buffer,
  /// or nullopt when it is not a view of global memory. \p indices are the
  /// explicit index values behind \p positions (empty for a tile
  /// operation); the facts at \p op (\p known, filled on first use) may
  /// prove their checks unneeded.
  std::optional<BoundsGuard> guardOf(Operation *op, Value buffer,
                                     Intervals positions, ValueRange indices,
                                     std::optional<SmallVector<Fact>> &known) {
    // Through a region the positions are shifted by its offsets; where
    // the operation touches only the region's first element (T.address_of
    // of `A[i, j]`), those offsets are its indices, which facts may bound.
    SmallVector<Value> idx(indices.begin(), indices.end());
    if (auto region = buffer.getDefiningOp<RegionOp>()) {
      idx.clear();
      bool first = llvm::all_of(positions, [](const auto &p) {
        return p && p->lo == 0 && p->hi == 0;
      });
      if (first && !region.getSource().getDefiningOp<RegionOp>())
        for (OpFoldResult off : region.getMixedOffsets())
          idx.push_back(dyn_cast<Value>(off));
    }
    while (auto region = buffer.getDefiningOp<RegionOp>()) {
      SmallVector<OpFoldResult> offsets = region.getMixedOffsets();
      if (offsets.size() != positions.size())
        positions.assign(offsets.size(), std::nullopt);
      for (auto [pos, off] : llvm::zip(positions, offsets)) {
        std::optional<IndexInterval> o = intervals.of(off);
        if (pos && o)
          pos = IndexInterval{pos->lo + o->lo, pos->hi + o->hi, 1};
        else
          pos = std::nullopt;
      }
      buffer = region.getSource();
    }
    auto type = cast<BufferType>(buffer.getType());
    if (type.getScope() != MemoryScope::Global)
      return std::nullopt;
    BoundsGuard g;
    positions.resize(type.getRank());
    for (unsigned d = 0; d < type.getRank(); ++d) {
      const std::optional<IndexInterval> &pos = positions[d];
      Dim dim = type.getDim(d);
      uint8_t bits = kCheckNone;
      // Unknown indices are taken as non-negative (the tile ops' offsets);
      // only a known negative end (`i - 1`, or data read from memory) is
      // checked there.
      if (pos && pos->lo < 0)
        bits |= kCheckLower;
      if (!pos || !dim.isStatic() || pos->hi >= dim.getValue())
        bits |= kCheckUpper;
      if (bits != kCheckNone && d < idx.size() && idx[d]) {
        if (!known)
          known = facts.at(op);
        if ((bits & kCheckLower) && proves(*known, idx[d], dim, true))
          bits &= ~kCheckLower;
        if ((bits & kCheckUpper) && proves(*known, idx[d], dim, false))
          bits &= ~kCheckUpper;
      }
      g.dims.push_back(bits);
    }
    // A read into a T.annotate_padding buffer gives its pad; other reads
    // the tensor's T.annotate_safe_value.
    std::optional<double> safe;
    if (auto pad = paddedReads.find(op); pad != paddedReads.end())
      safe = pad->second;
    else if (auto it = safeValues.find(buffer); it != safeValues.end())
      safe = it->second;
    if (safe && !isPositiveZero(*safe) &&
        llvm::any_of(g.dims, [](uint8_t b) { return b != kCheckNone; }))
      g.safeValue = safe;
    return g;
  }

  Facts facts;
  IndexIntervals &intervals;
  const llvm::DenseMap<Value, double> &safeValues;
  const llvm::DenseMap<Operation *, double> &paddedReads;
};

struct TileLegalizeBoundsPass final
    : tlc::tile::impl::TileLegalizeBoundsBase<TileLegalizeBoundsPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](FuncOp func) {
      if (hasLoweringFailed(func))
        return;
      IndexIntervals intervals;
      func.walk([&](KernelOp kernel) {
        FailureOr<llvm::DenseMap<Value, double>> safe =
            collectSafeValues(kernel, func);
        FailureOr<llvm::DenseMap<Operation *, double>> padded =
            collectPaddedReads(kernel);
        if (failed(safe) || failed(padded)) {
          markLoweringFailed(func);
          return WalkResult::interrupt();
        }
        BoundsLegalizer legalizer(kernel, intervals, *safe, *padded);
        kernel.walk([&](Operation *op) { legalizer.legalize(op); });
        return WalkResult::advance();
      });
    });
  }
};
} // namespace
