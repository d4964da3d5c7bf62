//===- PlanFragmentExchanges.cpp - The --tile-plan-fragment-exchanges pass ===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Records which fragments each T.Parallel and fragment copy exchanges
// through the shared exchange area, as the target library chooses them
// with its fragment layouts (FragmentExchangePlan.h, PreparedKernels.h),
// for the CUDA and HIP printers, the scratch-area measurement and the
// editor's hints.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/FragmentExchangePlan.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Dialect/Tile/Transforms/PreparedKernels.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/LoweringStatus.h"

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
struct TilePlanFragmentExchangesPass final
    : tlc::tile::impl::TilePlanFragmentExchangesBase<
          TilePlanFragmentExchangesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!hasKernelPreparer())
      return; // no target library: nothing to choose with (tlc-opt)
    // The preparations stay for tile-plan-scratch-areas: recording a plan
    // changes only attributes they read when asked.
    markAnalysesPreserved<PreparedKernels>();
    auto &prepared = getAnalysis<PreparedKernels>();
    llvm::StringRef target = getGpuTarget(module, this->target);
    forEachGpuKernel(module, target, [&](FuncOp func, KernelOp kernel) {
      // The printer lays out only kernels whose shared memory is planned
      // and whose tile parameters are bound.
      if (!kernel->hasAttr("tile.shared_bytes") ||
          !getUnboundTileParameters(func).empty())
        return;
      if (PreparedKernel *p = prepared.get(kernel, target))
        setFragmentExchanges(kernel, p->chooseExchanges());
    });
  }
};
} // namespace
