//===- PlanFragmentExchanges.cpp - The --tile-plan-fragment-exchanges pass ===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Records which fragments each T.Parallel and fragment copy exchanges
// through the shared exchange area (chooseFragmentExchanges, from the
// fragment layouts tile-assign-fragment-layouts recorded and the loops'
// partitions; FragmentExchangePlan.h), for the CUDA and HIP printers, the
// scratch-area measurement and the editor's hints.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/FragmentExchangePlan.h"
#include "tlc/Dialect/Tile/Transforms/FragmentLayouts.h"
#include "tlc/Dialect/Tile/Transforms/ParallelPlan.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Dialect/Tile/Transforms/PreparedKernels.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Layout/FragmentTables.h"

#include "mlir/IR/Diagnostics.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEPLANFRAGMENTEXCHANGES
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

static constexpr llvm::StringLiteral kTile = "tile.exchange_tile";
static constexpr llvm::StringLiteral kCopy = "tile.exchanged";

/// The buffer a load or store accesses, else null.
static Value accessedBuffer(Operation *access) {
  if (auto load = dyn_cast<LoadOp>(access))
    return load.getBuffer();
  if (auto store = dyn_cast<StoreOp>(access))
    return store.getBuffer();
  return {};
}

static bool isFragment(Value buffer) {
  auto type = dyn_cast<BufferType>(buffer.getType());
  return type && type.getScope() == MemoryScope::Fragment;
}

Value tlc::tile::directFragmentOf(Operation *access) {
  Value buffer = accessedBuffer(access);
  if (!buffer || !isFragment(buffer) || buffer.getDefiningOp<RegionOp>())
    return {};
  return buffer;
}

void tlc::tile::setFragmentExchanges(KernelOp kernel,
                                     const FragmentExchanges &exchanges) {
  kernel.walk([](Operation *op) {
    op->removeAttr(kTile);
    op->removeAttr(kCopy);
  });
  Builder b(kernel.getContext());
  for (const auto &[op, roots] : exchanges) {
    if (isa<CopyOp>(op)) {
      op->setAttr(kCopy, b.getUnitAttr());
      continue;
    }
    op->walk([&](Operation *access) {
      Value root = directFragmentOf(access);
      const auto *at = root ? llvm::find(roots, root) : roots.end();
      if (at != roots.end())
        access->setAttr(kTile, b.getI64IntegerAttr(at - roots.begin()));
    });
  }
  kernel->setAttr(kExchangesPlanned, b.getUnitAttr());
}

FailureOr<SmallVector<Value, 1>>
tlc::tile::getFragmentExchanges(ParallelOp loop) {
  SmallVector<Value, 1> byTile;
  llvm::DenseMap<Value, int64_t> tileOf;
  WalkResult walk = loop.getBody().walk([&](Operation *access) {
    Attribute attr = access->getAttr(kTile);
    if (!attr)
      return WalkResult::advance();
    auto malformed = [&](const Twine &why) {
      access->emitError() << "malformed fragment exchange plan: " << why
                          << " (tile-plan-fragment-exchanges)";
      return WalkResult::interrupt();
    };
    auto index = dyn_cast<IntegerAttr>(attr);
    if (!index || index.getInt() < 0)
      return malformed("tile.exchange_tile must be a non-negative integer");
    Value root = directFragmentOf(access);
    if (!root)
      return malformed("an exchange tile on an access that is no direct "
                       "fragment load or store of the loop");
    auto [it, added] = tileOf.try_emplace(root, index.getInt());
    if (!added && it->second != index.getInt())
      return malformed("the fragment has exchange tiles " + Twine(it->second) +
                       " and " + Twine(index.getInt()));
    if (added) {
      if (size_t(index.getInt()) >= byTile.size())
        byTile.resize(index.getInt() + 1);
      if (byTile[index.getInt()])
        return malformed("exchange tile " + Twine(index.getInt()) +
                         " holds two fragments");
      byTile[index.getInt()] = root;
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  for (auto [k, root] : llvm::enumerate(byTile))
    if (!root) {
      loop.emitError() << "malformed fragment exchange plan: no fragment in "
                          "exchange tile "
                       << k << " of " << byTile.size()
                       << " (tile-plan-fragment-exchanges)";
      return failure();
    }
  // Every direct access of an exchanged fragment names its tile.
  walk = loop.getBody().walk([&](Operation *access) {
    Value root = directFragmentOf(access);
    if (!root || !tileOf.count(root) || access->hasAttr(kTile))
      return WalkResult::advance();
    access->emitError() << "malformed fragment exchange plan: the loop "
                           "exchanges this fragment, but this access has no "
                           "tile.exchange_tile (tile-plan-fragment-exchanges)";
    return WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return failure();
  return byTile;
}

FailureOr<bool> tlc::tile::isExchangedCopy(CopyOp copy) {
  Attribute attr = copy->getAttr(kCopy);
  if (!attr)
    return false;
  auto malformed = [&](const Twine &why) {
    copy.emitError() << "malformed fragment exchange plan: " << why
                     << " (tile-plan-fragment-exchanges)";
    return failure();
  };
  if (!isa<UnitAttr>(attr))
    return malformed("tile.exchanged must be a unit attribute");
  auto whole = [](Value v) {
    return isFragment(v) && !v.getDefiningOp<RegionOp>();
  };
  if (!whole(copy.getSrc()) || !whole(copy.getDst()))
    return malformed("tile.exchanged on a copy that is not between whole "
                     "fragments");
  return true;
}

namespace {
/// A recorded fragment layout with the tables the GPU code indexes it by.
struct RecordedFragment {
  layout::Fragment layout;
  std::shared_ptr<const layout::FragmentTables> tables;
  SmallVector<int64_t> shape;
};
} // namespace

/// The layouts recorded on \p kernel of \p threads threads, each as the
/// printer fits it (describeFragment); nothing when the record is malformed
/// or a layout is one the printer refuses (it reports which when it prints
/// the kernel).
static std::optional<llvm::DenseMap<Value, RecordedFragment>>
readIndexedFragments(KernelOp kernel, int64_t threads, StringRef targetName) {
  FailureOr<llvm::DenseMap<Value, FragmentHome>> homes =
      getFragmentHomes(kernel, threads, targetName);
  if (failed(homes))
    return std::nullopt;
  llvm::DenseMap<Value, ThreadRange> ranges;
  for (auto &[fragment, home] : *homes)
    ranges[fragment] = home.range;
  llvm::DenseMap<Value, RecordedFragment> fragments;
  auto fit = [&](Value v, const layout::Fragment &f, Operation *,
                 int64_t homeThreads) -> LogicalResult {
    auto type = cast<BufferType>(v.getType());
    std::shared_ptr<const layout::FragmentTables> tables =
        layout::FragmentTables::get(f, type.getRank());
    if (f.getThreadExtent() > homeThreads || !tables->error.empty() ||
        !tables->coords)
      return failure();
    fragments[v] = RecordedFragment{
        f, std::move(tables),
        SmallVector<int64_t>(type.getShape().begin(), type.getShape().end())};
    return success();
  };
  if (failed(readFragmentLayouts(kernel, ranges, threads, fit)))
    return std::nullopt;
  return fragments;
}

namespace {
struct TilePlanFragmentExchangesPass final
    : tlc::tile::impl::TilePlanFragmentExchangesBase<
          TilePlanFragmentExchangesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Recording a plan changes only attributes the printer's kernel
    // preparation (tile-plan-scratch-areas') reads when asked.
    markAnalysesPreserved<PreparedKernels>();
    llvm::StringRef target = getGpuTarget(module, this->target);
    std::optional<FragmentLayoutTarget> layoutTarget =
        getFragmentLayoutTarget(target);
    if (!layoutTarget)
      return;
    forEachGpuKernel(module, target, [&](FuncOp func, KernelOp kernel) {
      // The printer lays out only kernels whose shared memory is planned
      // and whose tile parameters are bound; it chooses the layouts itself
      // (and reports why it cannot) for a kernel without a record.
      std::optional<int64_t> threads = kernel.getStaticNumThreads();
      if (!kernel->hasAttr("tile.shared_bytes") ||
          !getUnboundTileParameters(func).empty() ||
          !hasFragmentLayouts(kernel) || !threads || *threads < 1 ||
          *threads > 1024)
        return;
      // Quiet: what the printer cannot lay out or follow (a malformed
      // record or loop partition) it reports, once, when it prints.
      ScopedDiagnosticHandler quiet(&getContext(),
                                    [](Diagnostic &) { return success(); });
      bool malformed = kernel
                           .walk([](ParallelOp loop) {
                             return failed(getParallelPlan(loop))
                                        ? WalkResult::interrupt()
                                        : WalkResult::advance();
                           })
                           .wasInterrupted();
      if (malformed)
        return;
      std::optional<llvm::DenseMap<Value, RecordedFragment>> fragments =
          readIndexedFragments(kernel, *threads, layoutTarget->name);
      if (!fragments)
        return;
      auto lookup = [&](Value v) -> std::optional<layout::IndexedFragment> {
        auto it = fragments->find(v);
        if (it == fragments->end())
          return std::nullopt;
        const RecordedFragment &f = it->second;
        return layout::IndexedFragment{&f.layout, f.tables.get(),
                                       &*f.tables->coords, f.shape};
      };
      IndexIntervals intervals;
      setFragmentExchanges(
          kernel, chooseFragmentExchanges(kernel, lookup, *threads, intervals));
    });
  }
};
} // namespace
