//===- PlanParallelVectors.cpp - The --tile-plan-parallel-vectors pass ----===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Chooses which element loads and stores of each tile.parallel the CUDA and
// HIP printers issue as vectors, at which width (VectorPlan.h), and records
// it on the accesses for the GPU printer.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/VectorPlan.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "SharedAccessPlans.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/Transforms/FragmentLayouts.h"
#include "tlc/Layout/Fragment.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <numeric>

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEPLANPARALLELVECTORS
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

static constexpr llvm::StringLiteral kVec = "tile.vec";
static constexpr llvm::StringLiteral kAligned = "tile.vec_aligned";

/// The allocation (or parameter) a chain of tile.region ops views.
static Value rootBuffer(Value buffer) {
  while (auto region = buffer.getDefiningOp<RegionOp>())
    buffer = region.getSource();
  return buffer;
}

bool tlc::tile::isProvenAligned(BufferType rootType,
                                ArrayRef<std::optional<IndexInterval>> ranges,
                                int64_t width, const SharedStorage *storage) {
  if (width <= 1)
    return true;
  unsigned rank = ranges.size();
  if (rank == 0)
    return false;
  // index * stride is a multiple of div * stride.
  auto divides = [&](unsigned d, int64_t stride) {
    const std::optional<IndexInterval> &r = ranges[d];
    int64_t div = r ? r->div : 1;
    return div == 0 || (stride % width == 0) || ((div * stride) % width == 0);
  };
  if (storage && storage->kind != SharedStorage::Kind::Linear &&
      rootType.getRank() == 0)
    return false;
  if (storage && storage->kind == SharedStorage::Kind::LdsSwizzle) {
    // Runs of storage->lds.vec elements stay contiguous and in place.
    int64_t rowLen = rootType.getShape().back();
    return storage->lds.vec % width == 0 && rowLen % width == 0 &&
           divides(rank - 1, 1);
  }
  if (storage && storage->kind != SharedStorage::Kind::Linear) {
    // A row swizzle (or its panels) permutes 16-byte chunks of a row and
    // keeps the offset inside a chunk: aligned when the column is and the
    // vector fits a chunk.
    int64_t rowLen = rootType.getShape().back();
    int64_t bytes = getElementStorageBytes(rootType.getElementType());
    return width * bytes <= 16 && rowLen % width == 0 && divides(rank - 1, 1);
  }
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    if (!divides(d, stride))
      return false;
    if (d == 0)
      break;
    if (d >= int(rootType.getRank()))
      return false;
    Dim dim = rootType.getDim(d);
    if (!dim.isStatic())
      return false;
    stride *= dim.getValue();
  }
  return true;
}

SmallVector<std::optional<IndexInterval>>
tlc::tile::rootRanges(Value buffer,
                      ArrayRef<std::optional<IndexInterval>> ranges,
                      IndexIntervals &intervals) {
  SmallVector<std::optional<IndexInterval>> out(ranges.begin(), ranges.end());
  while (auto region = buffer.getDefiningOp<RegionOp>()) {
    SmallVector<OpFoldResult> offsets = region.getMixedOffsets();
    if (offsets.size() != out.size())
      return SmallVector<std::optional<IndexInterval>>(out.size(),
                                                       std::nullopt);
    for (auto [range, off] : llvm::zip(out, offsets)) {
      std::optional<IndexInterval> offRange = intervals.of(off);
      if (range && offRange)
        range =
            IndexInterval{range->lo + offRange->lo, range->hi + offRange->hi,
                          std::gcd(range->div, offRange->div)};
      else
        range = std::nullopt;
    }
    buffer = region.getSource();
  }
  return out;
}

SmallVector<std::optional<IndexInterval>>
tlc::tile::runRanges(StoreOp store, const ParallelPlan &plan,
                     ArrayRef<int64_t> fragmentShape, int64_t width) {
  SmallVector<std::optional<IndexInterval>> ranges;
  unsigned last = fragmentShape.size() - 1;
  for (Value i : store.getIndices()) {
    auto arg = dyn_cast<BlockArgument>(i);
    if (!arg || arg.getArgNumber() >= plan.dims.size()) {
      ranges.push_back(std::nullopt);
      continue;
    }
    unsigned d = plan.dims[arg.getArgNumber()];
    if (d == last)
      ranges.push_back(IndexInterval{0, fragmentShape[d] - width, width});
    else
      ranges.push_back(IndexInterval{0, fragmentShape[d] - 1, 1});
  }
  return ranges;
}

/// Why store \p s of \p loop cannot be a HIP vector store of \p width
/// elements ("" when it can), see chooseParallelVectors().
static std::string
whyNotVector(ParallelOp loop, StoreOp s, const ParallelPlan &plan,
             ArrayRef<int64_t> fragmentShape, int64_t width,
             const llvm::DenseMap<Value, SharedStorage> &storage,
             IndexIntervals &intervals) {
  Block &body = loop.getBody().front();
  if (s->getBlock() != &body)
    return "the store is not straight in the loop's body";
  if (plan.partition != ParallelPartition::Fragment || !plan.box.empty())
    return "the loop is not partitioned by a whole fragment";
  unsigned rank = fragmentShape.size();
  if (rank == 0 || plan.dims.size() != rank ||
      loop.getInductionVars().size() != rank)
    return "the partitioning fragment has dimensions no loop variable runs "
           "along";
  Value root = rootBuffer(s.getBuffer());
  auto rootType = cast<BufferType>(root.getType());
  auto type = cast<BufferType>(s.getBuffer().getType());
  if (!isSharedScope(rootType.getScope()) || !rootType.isStatic() ||
      type.getRank() != rootType.getRank() || type.getRank() == 0 ||
      !hasUnitInnerStride(root))
    return "the store is not into a static shared tile at its full rank";
  int64_t bytes = width * getElementStorageBytes(type.getElementType());
  if (bytes != 4 && bytes != 8 && bytes != 16)
    return std::to_string(width) + " elements are no 4-, 8- or 16-byte vector";
  auto st = storage.find(root);
  const SharedStorage *stored = st == storage.end() ? nullptr : &st->second;
  // The vector's elements stay consecutive in a swizzled tile.
  if (stored && stored->kind == SharedStorage::Kind::LdsSwizzle &&
      stored->lds.vec % width != 0)
    return "the tile's LDS swizzle keeps runs of " +
           std::to_string(stored->lds.vec) + " elements together";
  // Indices: loop variables, the last one on the fragment's last dimension
  // and no other on it.
  ValueRange indices = s.getIndices();
  for (auto [k, i] : llvm::enumerate(indices)) {
    auto arg = dyn_cast<BlockArgument>(i);
    if (!arg || arg.getOwner() != &body)
      return "the store's indices are not the loop variables";
    bool onLast = plan.dims[arg.getArgNumber()] == rank - 1;
    if (onLast != (k + 1 == indices.size()))
      return "the store's last index is not the loop variable along the "
             "fragment's last dimension";
  }
  // Every run's first element aligned (shared memory: no bounds test).
  SmallVector<std::optional<IndexInterval>> ranges = rootRanges(
      s.getBuffer(), runRanges(s, plan, fragmentShape, width), intervals);
  if (!isProvenAligned(rootType, ranges, width, stored))
    return "the runs' alignment to " + std::to_string(width) +
           " elements is not proven";
  // Deferring the store past the run: nothing else in the body may touch
  // the tile, and no grid barrier may split the run.
  int accesses = 0;
  bool gridBarrier = false;
  loop.getBody().walk([&](Operation *o) {
    if (auto l = dyn_cast<LoadOp>(o))
      accesses += rootBuffer(l.getBuffer()) == root;
    else if (auto w = dyn_cast<StoreOp>(o))
      accesses += rootBuffer(w.getBuffer()) == root;
    else if (o->getNumRegions() == 0 && !isMemoryEffectFree(o))
      for (Value v : o->getOperands())
        accesses +=
            isa<BufferType>(v.getType()) && rootBuffer(v) == root ? 2 : 0;
  });
  for (Operation &o : body)
    if (auto i = dyn_cast<IntrinsicOp>(&o); i && i.getCallee() == "T.sync_grid")
      gridBarrier = true;
  if (accesses != 1)
    return "the loop's body touches the tile besides this store";
  if (gridBarrier)
    return "a grid barrier in the loop's body splits the runs";
  return "";
}

SmallVector<AccessVector> tlc::tile::chooseParallelVectors(
    ParallelOp loop, const ParallelPlan &plan, ArrayRef<int64_t> fragmentShape,
    int64_t layoutVec, bool hip,
    const llvm::DenseMap<Value, SharedStorage> &storage,
    IndexIntervals &intervals) {
  SmallVector<AccessVector> vectors;
  if (!hip || layoutVec < 2 || plan.partition != ParallelPartition::Fragment)
    return vectors;
  for (Operation &o : loop.getBody().front())
    if (auto s = dyn_cast<StoreOp>(&o);
        s && whyNotVector(loop, s, plan, fragmentShape, layoutVec, storage,
                          intervals)
                 .empty())
      vectors.push_back({s, layoutVec, /*aligned=*/true});
  return vectors;
}

std::string tlc::tile::checkParallelVector(
    ParallelOp loop, const AccessVector &vector, const ParallelPlan &plan,
    ArrayRef<int64_t> fragmentShape, bool hip,
    const llvm::DenseMap<Value, SharedStorage> &storage,
    IndexIntervals &intervals) {
  if (!hip)
    return "vector accesses of a T.Parallel are the HIP target's LDS stores";
  auto s = dyn_cast<StoreOp>(vector.access);
  if (!s)
    return "only stores are vectorised";
  if (!vector.aligned)
    return "a vector store needs its alignment proven (tile.vec_aligned)";
  return whyNotVector(loop, s, plan, fragmentShape, vector.width, storage,
                      intervals);
}

SmallVector<AccessVector> tlc::tile::planParallelVectors(
    ParallelOp loop, bool hip,
    const llvm::DenseMap<Value, SharedStorage> &storage,
    IndexIntervals &intervals) {
  FailureOr<std::optional<ParallelPlan>> planned = getParallelPlan(loop);
  if (failed(planned))
    return {};
  ParallelPlan plan =
      *planned ? std::move(**planned) : chooseParallelPlan(loop);
  if (plan.partition != ParallelPartition::Fragment)
    return {};
  // The layout of the partitioning fragment, its runs of consecutive
  // registers: the one the printer follows (tile-assign-fragment-layouts'
  // record), layout inference's `layout` only in a kernel without a record.
  Value buf = isa<LoadOp>(plan.access) ? cast<LoadOp>(plan.access).getBuffer()
                                       : cast<StoreOp>(plan.access).getBuffer();
  Operation *def = buf.getDefiningOp();
  auto kernel = loop->getParentOfType<KernelOp>();
  bool recorded = kernel && kernel->hasAttr(kFragmentLayoutsAssigned);
  auto attr = def ? dyn_cast_or_null<FragmentAttr>(
                        def->getAttr(recorded ? kFragmentLayoutAttr : "layout"))
                  : FragmentAttr();
  if (!attr)
    return {};
  layout::Fragment f = attr.getFragment();
  auto type = cast<BufferType>(buf.getType());
  if (f.getInputShape() != type.getShape() || f.getInputRank() == 0)
    return {};
  std::shared_ptr<const std::vector<std::vector<int64_t>>> table =
      layout::invertTableShared(f);
  if (!table)
    return {};
  int64_t vec = tlc::tile::detail::fragmentVector(
      f, *table, getElementStorageBytes(type.getElementType()));
  return chooseParallelVectors(loop, plan, type.getShape(), vec, hip, storage,
                               intervals);
}

void tlc::tile::setParallelVectors(ArrayRef<AccessVector> vectors) {
  for (const AccessVector &v : vectors) {
    Builder b(v.access->getContext());
    v.access->setAttr(kVec, b.getI64IntegerAttr(v.width));
    if (v.aligned)
      v.access->setAttr(kAligned, b.getUnitAttr());
  }
}

FailureOr<SmallVector<AccessVector>>
tlc::tile::getParallelVectors(ParallelOp loop) {
  SmallVector<AccessVector> vectors;
  WalkResult walk = loop.getBody().walk([&](Operation *op) {
    Attribute vec = op->getAttr(kVec);
    bool aligned = op->hasAttr(kAligned);
    if ((!vec && !aligned) || op->getParentOfType<ParallelOp>() != loop)
      return WalkResult::advance();
    auto malformed = [&](const Twine &why) {
      op->emitError() << "malformed T.Parallel vector plan: " << why
                      << " (tile-plan-parallel-vectors)";
      return WalkResult::interrupt();
    };
    if (!isa<LoadOp, StoreOp>(op))
      return malformed("tile.vec on an operation that is no tile.load or "
                       "tile.store");
    if (!vec)
      return malformed("tile.vec_aligned without tile.vec");
    auto width = dyn_cast<IntegerAttr>(vec);
    if (!width || width.getInt() < 2 || width.getInt() > 16 ||
        !llvm::isPowerOf2_64(width.getInt()))
      return malformed("tile.vec must be 2, 4, 8 or 16 elements");
    vectors.push_back({op, width.getInt(), aligned});
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return vectors;
}

namespace {
struct TilePlanParallelVectorsPass final
    : tlc::tile::impl::TilePlanParallelVectorsBase<
          TilePlanParallelVectorsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The storage the printer addresses a lowered kernel's tiles in (the
    // passes' panels recorded, the architecture not read).
    SharedStorageTarget printer;
    printer.hip = getGpuTarget(module, target).starts_with("hip:");
    IndexIntervals intervals; // a cache of facts of the IR
    llvm::StringRef planned =
        forEachGpuKernel(module, target, [&](FuncOp, KernelOp kernel) {
          llvm::DenseMap<Value, SharedStorage> storage =
              planSharedStorage(kernel, printer);
          kernel.walk([&](ParallelOp loop) {
            setParallelVectors(
                planParallelVectors(loop, printer.hip, storage, intervals));
          });
        });
    if (!planned.empty())
      markModulePlanned(module, kVectorsPlanned);
  }
};
} // namespace
