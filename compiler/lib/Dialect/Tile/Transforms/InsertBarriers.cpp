//===- InsertBarriers.cpp - The --tile-insert-barriers pass ---------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Places the barriers that order the shared-memory accesses of the tile
// operations of a kernel (Passes.td has the contract). The walk follows the
// code the GPU printer generates: which blocks every thread of a range runs
// together (only there may a barrier stand), which thread range runs them,
// and which copies a multi-buffered pipeline issues itself. In each such
// block it keeps the shared buffers written and read since the last
// barrier, with the threads that accessed them, and puts a `tile.barrier`
// before the first statement that reads what was written or writes what
// was read or written; buffers placed in common bytes by
// tile-plan-shared-memory conflict like one buffer. A block-wide barrier
// already in the block (`tile.sync_threads` without a barrier id, run by
// every thread of the block; with wgmma only a fenced `tile.barrier`)
// orders what came before it, so none is added next to it, nor next to a
// 1-D bulk copy, which prints barriers of its own. A loop whose body both
// writes and reads shared memory starts each iteration with a barrier.
// A function whose pass configs set tl.disable_thread_storage_sync
// (TL_DISABLE_THREAD_STORAGE_SYNC) gets none: it orders its shared memory
// itself, as TileLang then runs no ThreadSync.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/PassConfigs.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/SaveAndRestore.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEINSERTBARRIERS
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

namespace {
/// The bytes of the dynamic shared memory a buffer occupies.
struct Slot {
  int64_t offset = 0, bytes = 0;
};

/// A shared buffer accessed since the last barrier, with the threads that
/// accessed it.
struct Pending {
  Value buffer;
  ThreadRange by;
};

/// The barrier placement of one kernel.
class BarrierPlacer {
public:
  explicit BarrierPlacer(KernelOp kernel, int64_t threads)
      : blockThreads(threads), range{0, threads, nullptr},
        explicitMbarriers(ordersThreadsWithMbarriers(kernel)) {
    kernel.walk([&](Operation *op) {
      if (auto gemm = dyn_cast<GemmOp>(op)) {
        auto instr = gemm->getAttrOfType<StringAttr>("tile.instr");
        // wgmma and tcgen05.mma read shared memory in the async proxy.
        fenceProxyAsync |= instr && (instr.getValue() == "wgmma" ||
                                     instr.getValue() == "tcgen05");
      }
      auto alloc = dyn_cast<AllocOp>(op);
      if (!alloc || !isSharedScope(getScopeOf(alloc.getResult())))
        return;
      auto type = cast<BufferType>(alloc.getType());
      auto offset = alloc->getAttrOfType<IntegerAttr>("tile.offset");
      if (!offset || !type.isStatic())
        return;
      int64_t bytes = getElementStorageBytes(type.getElementType());
      for (int64_t e : type.getShape())
        bytes *= e;
      if (auto stages = alloc->getAttrOfType<IntegerAttr>("tile.stages"))
        bytes *= stages.getInt();
      slots[alloc.getResult()] = {offset.getInt(), bytes};
    });
  }

  /// Places the barriers of a block that every thread of the current
  /// range runs together when \p allow, and of the blocks nested in it.
  void placeInBlock(Block &block, bool allow);

private:
  void placeInOp(Operation *op);
  void placeInRange(Block &block, ThreadRange r, bool inLoop);
  /// Puts a barrier at \p b's insertion point, at \p loc.
  void insert(OpBuilder &b, Location loc, StringRef reason, bool fence);
  /// Whether \p op is a barrier of every thread of the block already in
  /// the code (the program's `T.sync_threads`, an operation's own
  /// expansion, a barrier placed before) that orders the shared-memory
  /// accesses before it as one placed here would.
  bool isBlockWideBarrier(Operation *op) const;
  /// Whether two shared buffers occupy common bytes.
  bool sharesBytes(Value a, Value b) const;
  /// Whether, in a kernel with explicit mbarriers, every statement of
  /// \p body that accesses shared memory is a branch of thread ranges.
  bool rangeBranchesOnly(Block &body) const;
  /// The loop-carried barrier at the start of \p body: the next iteration
  /// must not overwrite what this one still reads.
  void startLoop(Operation *loop, Block &body, StringRef reason);

  int64_t blockThreads;
  /// The threads running the code being walked.
  ThreadRange range;
  /// The kernel orders its thread groups with mbarriers itself.
  bool explicitMbarriers;
  /// The kernel has wgmma gemms, which read shared memory through the
  /// async proxy.
  bool fenceProxyAsync = false;
  /// Whether the block being walked is run by all threads of the range
  /// together, and whether it is the body of a T.Parallel.
  bool barriersAllowed = false;
  bool inParallel = false;
  llvm::DenseMap<Value, Slot> slots;
};
} // namespace

static BufferAccesses sharedAccessesOf(Operation *op) {
  return getBufferAccesses(op, isSharedScope);
}

/// The copies of a multi-buffered pipeline that it issues ahead itself
/// (tile-plan-pipelines' producers): the pipeline's own barrier orders
/// them, so they take no part in the block's dependences.
static bool isPipelineProducer(Operation *op) {
  if (!op->hasAttr("tile.prefetch"))
    return false;
  auto pipe = dyn_cast_or_null<PipelinedOp>(op->getParentOp());
  return pipe && pipe->hasAttr("tile.stages");
}

/// Whether \p op prints block-wide barriers of its own around it: a 1-D
/// bulk copy of tile-plan-tma (`tile.bulk_store`, `tile.bulk_load`, only
/// ever a statement of the kernel body, of a 1-D tile whose storage is
/// row-major, so that the printer always takes the bulk path) makes every
/// thread's earlier writes visible to the async proxy and meets at a
/// barrier before the copy engine touches the tile, and, when a statement
/// follows, meets at one after it (the copy engine read the tile; the
/// threads' part of a loaded tile is written). A barrier placed next to it
/// would stand beside one of those (issue 2529's two barriers in a row).
/// So does a one-shot TMA load (`tile.tma_once`, attention's Q), which
/// every thread waits for on its mbarrier, and which tile-plan-tma plans
/// only where no statement before it touches shared memory.
static bool printsOwnBarriers(Operation *op) {
  return op->hasAttr("tile.bulk_store") || op->hasAttr("tile.bulk_load") ||
         op->hasAttr("tile.tma_once");
}

bool BarrierPlacer::sharesBytes(Value a, Value b) const {
  if (a == b)
    return true;
  auto sa = slots.find(a), sb = slots.find(b);
  if (sa == slots.end() || sb == slots.end())
    return false;
  const Slot &x = sa->second, &y = sb->second;
  return x.bytes && y.bytes && x.offset < y.offset + y.bytes &&
         y.offset < x.offset + x.bytes;
}

bool BarrierPlacer::rangeBranchesOnly(Block &body) const {
  if (!explicitMbarriers)
    return false;
  for (Operation &op : body) {
    BufferAccesses e = sharedAccessesOf(&op);
    if (e.reads.empty() && e.writes.empty())
      continue;
    auto ifOp = dyn_cast<IfOp>(op);
    if (!ifOp || !getBranchRange(ifOp, ifOp.getThenRegion(), blockThreads))
      return false;
    if (!ifOp.getElseRegion().empty() &&
        !getBranchRange(ifOp, ifOp.getElseRegion(), blockThreads))
      return false;
  }
  return true;
}

void BarrierPlacer::insert(OpBuilder &b, Location loc, StringRef reason,
                           bool fence) {
  auto barrier = BarrierOp::create(b, loc, b.getStringAttr(reason),
                                   fence ? b.getUnitAttr() : UnitAttr());
  (void)barrier;
}

/// Whether every shared access of \p body is in branches `if tx == c:` of
/// one and the same thread (its own program order orders them).
static bool oneThreadOnly(Block &body, int64_t blockThreads) {
  std::optional<ThreadRange> only;
  for (Operation &op : body) {
    BufferAccesses e = sharedAccessesOf(&op);
    if (e.reads.empty() && e.writes.empty())
      continue;
    auto ifOp = dyn_cast<IfOp>(op);
    if (!ifOp)
      return false;
    if (!ifOp.getElseRegion().empty())
      for (Operation &nested : ifOp.getElseRegion().front()) {
        BufferAccesses n = sharedAccessesOf(&nested);
        if (!n.reads.empty() || !n.writes.empty())
          return false;
      }
    Region &then = ifOp.getThenRegion();
    if (then.empty() || then.front().empty())
      return false;
    std::optional<ThreadRange> r =
        threadRangeOf(&then.front().front(), blockThreads);
    if (!r || !r->condition || r->count() != 1 || (only && *only != *r))
      return false;
    only = r;
  }
  return true;
}

void BarrierPlacer::startLoop(Operation *loop, Block &body, StringRef reason) {
  BufferAccesses effects = sharedAccessesOf(loop);
  if (effects.writes.empty() || effects.reads.empty() ||
      rangeBranchesOnly(body) || oneThreadOnly(body, blockThreads))
    return;
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  insert(b, loop->getLoc(), reason, /*fence=*/false);
}

bool BarrierPlacer::isBlockWideBarrier(Operation *op) const {
  if (range.lo != 0 || range.hi != blockThreads)
    return false;
  // In a kernel with wgmma only a barrier with the async-proxy fence will
  // do: the writes it orders may be read through the async proxy.
  if (auto barrier = dyn_cast<BarrierOp>(op))
    return !fenceProxyAsync || barrier.getFenceProxyAsync();
  auto sync = dyn_cast<SyncThreadsOp>(op);
  return sync && !sync.getBarrierId() && !fenceProxyAsync;
}

void BarrierPlacer::placeInBlock(Block &block, bool allow) {
  llvm::SaveAndRestore<bool> scope(barriersAllowed, allow);
  SmallVector<Pending, 8> pendingReads, pendingWrites;
  auto overlapsAny = [&](Value v, const ThreadRange &by,
                         ArrayRef<Pending> pending) {
    return llvm::any_of(pending, [&](const Pending &p) {
      // Disjoint ranges of a kernel with mbarriers order themselves.
      if (explicitMbarriers && (p.by.hi <= by.lo || by.hi <= p.by.lo))
        return false;
      return sharesBytes(v, p.buffer);
    });
  };
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (isPipelineProducer(&op))
      continue;
    if (allow && !inParallel && isBlockWideBarrier(&op)) {
      pendingReads.clear();
      pendingWrites.clear();
      continue;
    }
    // A bulk copy's own barriers order what came before it and its own
    // accesses before what follows.
    if (allow && !inParallel && range.lo == 0 && range.hi == blockThreads &&
        printsOwnBarriers(&op)) {
      pendingReads.clear();
      pendingWrites.clear();
      continue;
    }
    if (allow && !isa<AllocOp, RegionOp>(op) &&
        op.getNumRegions() + op.getNumOperands() > 0) {
      // Per branch of an if on the thread index, the branch's threads;
      // else the current range's.
      SmallVector<std::pair<BufferAccesses, ThreadRange>, 2> parts;
      auto ifOp = dyn_cast<IfOp>(op);
      if (ifOp && !inParallel && mayVaryAcrossThreads(ifOp.getCondition())) {
        for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
          if (region->empty())
            continue;
          BufferAccesses acc;
          for (Operation &nested : region->front()) {
            BufferAccesses n = sharedAccessesOf(&nested);
            acc.reads.insert(n.reads.begin(), n.reads.end());
            acc.writes.insert(n.writes.begin(), n.writes.end());
          }
          parts.push_back(
              {acc,
               getBranchRange(ifOp, *region, blockThreads).value_or(range)});
        }
      } else {
        parts.push_back({sharedAccessesOf(&op), range});
      }
      bool conflict = false;
      for (auto &[e, by] : parts) {
        for (Value r : e.reads)
          conflict |= overlapsAny(r, by, pendingWrites);
        for (Value w : e.writes)
          conflict |= overlapsAny(w, by, pendingWrites) ||
                      overlapsAny(w, by, pendingReads);
      }
      if (conflict) {
        OpBuilder b(&op);
        insert(b, op.getLoc(), "shared-memory dependence", fenceProxyAsync);
        pendingReads.clear();
        pendingWrites.clear();
      }
      for (auto &[e, by] : parts) {
        for (Value r : e.reads)
          pendingReads.push_back({r, by});
        for (Value w : e.writes)
          pendingWrites.push_back({w, by});
      }
    }
    placeInOp(&op);
  }
}

void BarrierPlacer::placeInRange(Block &block, ThreadRange r, bool inLoop) {
  llvm::SaveAndRestore<ThreadRange> scope(range, r);
  // The branch runs again in the next iteration: its accesses of this one
  // are done before it starts over.
  if (inLoop) {
    BufferAccesses acc;
    for (Operation &op : block) {
      BufferAccesses n = sharedAccessesOf(&op);
      acc.reads.insert(n.reads.begin(), n.reads.end());
      acc.writes.insert(n.writes.begin(), n.writes.end());
    }
    if (!acc.reads.empty() && !acc.writes.empty()) {
      OpBuilder b = OpBuilder::atBlockBegin(&block);
      insert(b, block.getParentOp()->getLoc(),
             "the previous iteration's accesses are done", /*fence=*/false);
    }
  }
  placeInBlock(block, /*allow=*/true);
}

void BarrierPlacer::placeInOp(Operation *op) {
  bool together = barriersAllowed && !inParallel;
  if (auto par = dyn_cast<ParallelOp>(op)) {
    // Each thread runs its share of the iterations: no barrier inside.
    llvm::SaveAndRestore<bool> scope(inParallel, true);
    placeInBlock(par.getBody().front(), /*allow=*/false);
    return;
  }
  if (auto forOp = dyn_cast<ForOp>(op)) {
    Block &body = forOp.getBody().front();
    if (together)
      startLoop(op, body, "the previous iteration's reads are done");
    placeInBlock(body, together);
    return;
  }
  if (auto pipe = dyn_cast<PipelinedOp>(op)) {
    Block &body = pipe.getBody().front();
    // A multi-buffered loop synchronises its stages itself, once per
    // iteration (the printer's pipeline barrier or the mbarrier rings).
    if (pipe->hasAttr("tile.stages")) {
      placeInBlock(body, /*allow=*/true);
      return;
    }
    if (barriersAllowed)
      startLoop(op, body, "the previous iteration's reads are done");
    placeInBlock(body, barriersAllowed);
    return;
  }
  if (auto ifOp = dyn_cast<IfOp>(op)) {
    // Every thread takes the same branch of a block-uniform condition; a
    // branch a warp-aligned range of threads takes is run by those threads
    // together; any other branch holds no barrier.
    bool uniform = together && !mayVaryAcrossThreads(ifOp.getCondition());
    bool ranged = together && !uniform;
    bool inLoop =
        isa_and_nonnull<ForOp, PipelinedOp, WhileOp>(op->getParentOp());
    for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
      if (region->empty())
        continue;
      if (ranged)
        if (std::optional<ThreadRange> r =
                getBranchRange(ifOp, *region, blockThreads)) {
          placeInRange(region->front(), *r, inLoop);
          continue;
        }
      placeInBlock(region->front(), uniform);
    }
    return;
  }
  if (auto whileOp = dyn_cast<WhileOp>(op)) {
    Block &cond = whileOp.getCond().front();
    auto condition = dyn_cast<ConditionOp>(cond.getTerminator());
    bool uniform = together && condition &&
                   !mayVaryAcrossThreads(condition.getCondition());
    BufferAccesses effects = sharedAccessesOf(op);
    if (uniform && !effects.writes.empty() && !effects.reads.empty()) {
      OpBuilder b = OpBuilder::atBlockBegin(&cond);
      insert(b, op->getLoc(), "the previous iteration's accesses are done",
             /*fence=*/false);
    }
    // The condition's statements run where the loop does.
    for (Operation &c : llvm::make_early_inc_range(cond))
      placeInOp(&c);
    placeInBlock(whileOp.getBody().front(), uniform);
    return;
  }
}

namespace {
struct TileInsertBarriersPass final
    : tlc::tile::impl::TileInsertBarriersBase<TileInsertBarriersPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](FuncOp func) {
      // Instances without values for their tile shapes, or already failed.
      if (hasLoweringFailed(func) || !getUnboundTileParameters(func).empty())
        return;
      // TL_DISABLE_THREAD_STORAGE_SYNC: the program orders its shared
      // memory itself (TileLang then runs no ThreadSync).
      if (isPassConfigOn(func, "tl.disable_thread_storage_sync"))
        return;
      func.walk([&](KernelOp kernel) {
        std::optional<int64_t> threads = kernel.getStaticNumThreads();
        if (!threads) // the printers refuse the kernel
          return;
        BarrierPlacer(kernel, *threads)
            .placeInBlock(kernel.getBody().front(), /*allow=*/true);
      });
    });
  }
};
} // namespace
