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
// one that is unknown is checked at its extent.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/BoundsGuards.h"
#include "tlc/Dialect/Tile/IR/IndexIntervals.h"
#include "tlc/Dialect/Tile/IR/SafeValues.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

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

/// The guards of one kernel.
class BoundsLegalizer {
public:
  BoundsLegalizer(IndexIntervals &intervals,
                  const llvm::DenseMap<Value, double> &safeValues,
                  const llvm::DenseMap<Operation *, double> &paddedReads)
      : intervals(intervals), safeValues(safeValues),
        paddedReads(paddedReads) {}

  /// Records the guards of \p op (nothing for one that touches no global
  /// memory).
  void legalize(Operation *op) {
    if (isa<RegionOp, ViewOp, MakeTensorOp, AllocOp>(op))
      return;
    SmallVector<std::optional<BoundsGuard>> perOperand;
    bool any = false;
    for (OpOperand &operand : op->getOpOperands()) {
      std::optional<BoundsGuard> g;
      if (isa<BufferType>(operand.get().getType()))
        g = guardOf(op, operand.get(), positionsOf(op, operand));
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
    // An intrinsic names its elements by index arguments of its own: none
    // is known.
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

  /// The guard of \p op's accesses at \p positions of the view \p buffer,
  /// or nullopt when it is not a view of global memory.
  std::optional<BoundsGuard> guardOf(Operation *op, Value buffer,
                                     Intervals positions) {
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
      g.dims.push_back(bits);
    }
    // A read into a T.annotate_padding buffer gives its pad; other reads
    // the tensor's T.annotate_safe_value.
    std::optional<double> safe;
    if (auto pad = paddedReads.find(op); pad != paddedReads.end())
      safe = pad->second;
    else if (auto it = safeValues.find(buffer); it != safeValues.end())
      safe = it->second;
    if (safe && *safe != 0 &&
        llvm::any_of(g.dims, [](uint8_t b) { return b != kCheckNone; }))
      g.safeValue = safe;
    return g;
  }

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
        BoundsLegalizer legalizer(intervals, *safe, *padded);
        kernel.walk([&](Operation *op) { legalizer.legalize(op); });
        return WalkResult::advance();
      });
    });
  }
};
} // namespace
