//===- ThreadUniformity.cpp - Values every thread of a block shares -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"
#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace tlc::tile {
namespace {
/// The walk behind mayVaryAcrossThreads. Register buffers are resolved
/// optimistically (a buffer under examination counts as uniform), which gives
/// the least fixed point for `v = v + 1` cycles.
class ThreadVariance {
public:
  bool varies(Value v, unsigned depth = 0) {
    if (depth > 64)
      return true;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (isa_and_nonnull<ParallelOp>(owner))
        return true;
      if (auto loop = dyn_cast_or_null<ForOp>(owner))
        return varies(loop.getLowerBound(), depth + 1) ||
               varies(loop.getUpperBound(), depth + 1) ||
               varies(loop.getStep(), depth + 1);
      if (auto loop = dyn_cast_or_null<PipelinedOp>(owner))
        return varies(loop.getLowerBound(), depth + 1) ||
               varies(loop.getUpperBound(), depth + 1);
      return false; // block indices, function parameters
    }
    Operation *def = v.getDefiningOp();
    if (!def)
      return true;
    if (isa<ThreadBindingOp>(def))
      return true;
    if (auto load = dyn_cast<LoadOp>(def)) {
      for (Value index : load.getIndices())
        if (varies(index, depth + 1))
          return true;
      auto type = cast<BufferType>(load.getBuffer().getType());
      MemoryScope scope = type.getScope();
      if (scope == MemoryScope::Local || scope == MemoryScope::LocalVar ||
          scope == MemoryScope::Fragment)
        return registerBufferVaries(getRootBuffer(load.getBuffer()),
                                    scope == MemoryScope::Fragment, depth);
      return false;
    }
    return llvm::any_of(def->getOperands(), [&](Value operand) {
      return varies(operand, depth + 1);
    });
  }

private:
  /// True when some write of the register buffer \p root (through views)
  /// may store a thread-dependent value.
  /// Outside T.Parallel a fragment is read only where every thread holds
  /// all of it (fully replicated), so the tile operations that write one
  /// (reductions, copies) leave the same values in every thread; scalar
  /// stores are still examined.
  bool registerBufferVaries(Value root, bool fragment, unsigned depth) {
    if (!examining.insert(root).second)
      return false;
    llvm::SmallVector<Value, 4> worklist{root};
    while (!worklist.empty()) {
      Value buffer = worklist.pop_back_val();
      for (Operation *user : buffer.getUsers()) {
        if (isa<LoadOp>(user))
          continue;
        if (isa<ViewOp, RegionOp>(user)) {
          worklist.push_back(user->getResult(0));
          continue;
        }
        if (auto store = dyn_cast<StoreOp>(user)) {
          if (varies(store.getValue(), depth + 1) ||
              llvm::any_of(store.getIndices(),
                           [&](Value i) { return varies(i, depth + 1); }) ||
              store->getParentOfType<ParallelOp>())
            return true;
          continue;
        }
        if (auto fill = dyn_cast<FillOp>(user)) {
          if (varies(fill.getValue(), depth + 1))
            return true;
          continue;
        }
        if (isa<ClearOp>(user) || fragment)
          continue;
        return true; // written by a tile operation (copy, gemm, reduce ...)
      }
    }
    return false;
  }

  llvm::SmallPtrSet<Value, 8> examining;
};
} // namespace

bool mayVaryAcrossThreads(Value v) { return ThreadVariance().varies(v); }

} // namespace tlc::tile
