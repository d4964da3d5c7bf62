//===- PlanSharedMemory.cpp - The --tile-plan-shared-memory pass ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Places the shared buffers of every kernel in its dynamic shared memory,
// letting buffers whose live ranges do not overlap share bytes (Passes.td
// has the contract). The placement is a greedy interval packing: buffers
// by decreasing size, each at the lowest aligned offset free for its whole
// live range.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "llvm/Support/MathExtras.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEPLANSHAREDMEMORY
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

namespace {
/// One shared buffer to place.
struct Item {
  AllocOp alloc;
  int64_t bytes = 0;
  /// Live statements [first, last] of the kernel body.
  int first = 0, last = -1;
  /// The nested live range (kernels marked `tile.reuse_in_loops`).
  NestedLiveRange nested;
  int64_t offset = 0;
  /// The buffer's own alignment (`tile.align`), 0 when none.
  int64_t align = 0;
};
} // namespace

/// The largest buffer placed (2^40 bytes, far past any GPU's shared memory):
/// below it, sums of a kernel's offsets and sizes cannot overflow int64.
static constexpr int64_t kMaxPlacedBytes = int64_t(1) << 40;

/// Places the shared buffers of \p kernel; false after an error.
static bool planKernel(KernelOp kernel, int64_t alignment) {
  Block &body = kernel.getBody().front();
  StatementIndex index = indexStatements(body);
  // The evaluator marks kernels that fit their budget only when buffers
  // share bytes within loop iterations.
  bool inLoops = kernel->hasAttr("tile.reuse_in_loops");
  SmallVector<Item> items;
  bool ok = true;
  kernel.walk([&](AllocOp alloc) {
    auto type = cast<BufferType>(alloc.getType());
    if (!isSharedScope(type.getScope()))
      return;
    if (!type.isStatic()) {
      // A shape of the kernel's symbols is sized at launch: the target
      // places it after every byte planned here (tile.dynamic_shared).
      bool symbolic = llvm::all_of(type.getDims(), [](Dim d) {
        return d.isStatic() || d.isSymbolic();
      });
      if (!symbolic) {
        alloc.emitError("a shared buffer needs a static or symbolic shape "
                        "to be placed in shared memory (an extent is "
                        "unknown)");
        ok = false;
      } else if (alloc->hasAttr("tile.stages")) {
        alloc.emitError("a pipelined shared buffer needs a static shape");
        ok = false;
      } else {
        alloc->setAttr("tile.dynamic_shared",
                       UnitAttr::get(alloc.getContext()));
      }
      return;
    }
    Item item;
    item.alloc = alloc;
    if (auto align = alloc->getAttrOfType<IntegerAttr>("tile.align")) {
      int64_t a = align.getInt();
      if (a <= 0 || (a & (a - 1))) {
        alloc.emitError() << "tile.align " << a << " is not a power of two";
        ok = false;
        return;
      }
      item.align = a;
    }
    // Sizes are bounded before they are added: a tile of 2^62 columns
    // must not wrap int64 into a small (or negative) size.
    bool tooLarge = false;
    auto scale = [&](int64_t factor) {
      if (llvm::MulOverflow(item.bytes, factor, item.bytes) ||
          item.bytes > kMaxPlacedBytes)
        tooLarge = true;
    };
    item.bytes = getElementStorageBytes(type.getElementType());
    for (int64_t e : type.getShape())
      scale(e);
    if (auto stages = alloc->getAttrOfType<IntegerAttr>("tile.stages"))
      scale(std::max<int64_t>(1, stages.getInt()));
    if (tooLarge) {
      alloc.emitError() << "a shared buffer of more than " << kMaxPlacedBytes
                        << " bytes cannot be placed in shared memory";
      ok = false;
      return;
    }
    std::optional<std::pair<int, int>> range =
        getLiveRange(body, alloc.getResult(), index);
    if (!range) {
      item.bytes = 0; // never used: no bytes
    } else {
      item.first = range->first;
      item.last = range->second;
      if (inLoops)
        item.nested = getNestedLiveRange(body, alloc.getResult());
      if (item.nested.empty())
        item.nested.push_back({&body, item.first, item.last});
    }
    items.push_back(item);
  });
  if (!ok)
    return false;
  // Largest first (ties: allocation order), each at the lowest offset that
  // no placed buffer live at the same time covers.
  SmallVector<Item *> order;
  for (Item &item : items)
    order.push_back(&item);
  llvm::stable_sort(order,
                    [](Item *a, Item *b) { return a->bytes > b->bytes; });
  SmallVector<Item *> placed;
  int64_t total = 0;
  auto alignUp = [&](int64_t v, int64_t a) {
    a = std::max(a, alignment);
    return (v + a - 1) / a * a;
  };
  for (Item *item : order) {
    if (item->bytes == 0)
      continue;
    SmallVector<std::pair<int64_t, int64_t>> busy;
    for (Item *other : placed)
      if (inLoops ? nestedLiveRangesOverlap(other->nested, item->nested)
                  : other->first <= item->last && item->first <= other->last)
        busy.push_back({other->offset, other->offset + other->bytes});
    llvm::sort(busy);
    int64_t offset = 0;
    for (auto [lo, hi] : busy) {
      if (offset + item->bytes <= lo)
        break;
      offset = std::max(offset, alignUp(hi, item->align));
    }
    item->offset = offset;
    total = std::max(total, offset + item->bytes);
    placed.push_back(item);
  }
  Builder b(kernel.getContext());
  for (Item &item : items)
    item.alloc->setAttr("tile.offset", b.getI64IntegerAttr(item.offset));
  kernel->setAttr("tile.shared_bytes", b.getI64IntegerAttr(total));
  return true;
}

namespace {
struct TilePlanSharedMemoryPass final
    : tlc::tile::impl::TilePlanSharedMemoryBase<TilePlanSharedMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    if (alignment <= 0 || (alignment & (alignment - 1))) {
      getOperation().emitError()
          << "tile-plan-shared-memory: alignment " << int64_t(alignment)
          << " is not a power of two";
      return signalPassFailure();
    }
    getOperation().walk([&](FuncOp func) {
      // Instances without values for their tile shapes, or already failed.
      if (hasLoweringFailed(func) || !getUnboundTileParameters(func).empty())
        return;
      func.walk([&](KernelOp kernel) {
        if (!planKernel(kernel, alignment))
          markLoweringFailed(func);
      });
    });
  }
};
} // namespace
