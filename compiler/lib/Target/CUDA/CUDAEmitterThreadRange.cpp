//===- CUDAEmitterThreadRange.cpp - Tile ops of part of a block -----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Tile operations under a condition that selects a range of threads
// (`with T.ws(g)`, `if tx < c:`, `if tx >= c:` and their else branches):
// TileLang lays such an operation out for the threads of the range, and
// this target partitions it over them. Inside the branch `tid` is the
// thread's index in the range (threadIdx.x - lo) and `numThreads` its size,
// so every partitioning of the printer works unchanged; the fragments the
// range's operations use are laid out for that many threads, and the
// barriers between them (tile-insert-barriers' `tile.barrier` ops and the
// operations' own) are printed as named barriers (`bar.sync id, count`)
// over the range's warps, never `__syncthreads`, which the other threads
// do not reach.
//
// What stays refused, at the operation: a condition on the thread index
// that is not a range (`tx % 2 == 0`), a range that is not a whole number
// of warps, a fragment used by tile operations of different ranges, and
// two ranges that would use the reduction or exchange scratch area at once.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/Transforms/ThreadRangePlan.h"

#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

static std::string rangeText(const ThreadRange &r) {
  return "[" + std::to_string(r.lo) + ", " + std::to_string(r.hi) + ")";
}

FailureOr<ThreadRange> Emitter::rangeOfOp(Operation *op) {
  Operation *bad = nullptr;
  std::optional<ThreadRange> r = threadRangeOf(op, blockThreads, &bad);
  if (!r) {
    InFlightDiagnostic d =
        op->emitError()
        << "a tile operation under a condition on the thread index that "
           "does not select a range of threads (T.ws(g), tx < c, tx >= c) "
           "is not supported by the "
        << lang.name << " target";
    if (bad)
      d.attachNote(bad->getLoc()) << "the condition";
    return failure();
  }
  if (r->condition && (r->count() <= 0 || !r->warpAligned())) {
    InFlightDiagnostic d = op->emitError()
                           << "this tile operation runs on threads "
                           << rangeText(*r)
                           << ", which is not a whole number of warps: the "
                           << lang.name
                           << " target partitions tile operations over "
                              "whole warps";
    d.attachNote(r->condition->getLoc()) << "the condition";
    return failure();
  }
  return *r;
}

int64_t Emitter::threadsFor(Operation *op) {
  std::optional<ThreadRange> r = threadRangeOf(op, blockThreads);
  if (!r || r->count() <= 0 || !r->warpAligned())
    return blockThreads;
  return r->count();
}

std::string Emitter::blockBarrier() {
  // In a warp-specialised kernel the program's threads are the consumers:
  // the producer warpgroup takes no part in their barriers. With consumer
  // ping-pong (tile-gemm-pingpong) each consumer warpgroup runs its own
  // tiles and synchronises alone.
  if (range.lo == 0 && range.hi == blockThreads && gemmPingPong &&
      !wsConsumerGroup.empty())
    return perGroupBarrier(gemmPingPong + 2, blockThreads, /*arrive=*/false);
  if (range.lo == 0 && range.hi == blockThreads && wsProducerThreads)
    return "tlc::cuda::namedBarrierSync(1, " + std::to_string(blockThreads) +
           ");";
  if (range.lo == 0 && range.hi == blockThreads)
    return "__syncthreads();";
  for (auto &[r, id] : rangeBarrierIds)
    if (r == range)
      return "tlc::cuda::namedBarrierSync(" + std::to_string(id) + ", " +
             std::to_string(range.count()) + ");";
  // The plan (tile-plan-thread-ranges) gave every range an id; a range it
  // did not see is a printer bug, which a trap makes visible.
  return "__trap();  // no named barrier for threads " + rangeText(range);
}

std::optional<ThreadRange> Emitter::branchRange(IfOp ifOp, Region &region) {
  return getBranchRange(ifOp, region, blockThreads);
}

LogicalResult Emitter::emitRangeBlock(Block &block, ThreadRange r) {
  llvm::SaveAndRestore<ThreadRange> saveRange(range, r);
  llvm::SaveAndRestore<int64_t> saveThreads(numThreads, r.count());
  line("// threads " + rangeText(r) + " (" + std::to_string(r.count()) +
       "): tile operations are partitioned over them");
  if (r.lo != 0)
    line("const int tid = (int)threadIdx.x - " + std::to_string(r.lo) + ";");
  return emitBlock(block, /*allowBarriers=*/true);
}

LogicalResult Emitter::checkFragmentRanges(Operation *op) {
  if (isa<FillOp, ClearOp>(op))
    return success(); // every thread fills its own registers
  for (Value root : getUsedFragments(op)) {
    auto it = fragmentRanges.find(root);
    ThreadRange home =
        it != fragmentRanges.end() ? it->second : ThreadRange{0, blockThreads};
    if (home == range)
      continue;
    InFlightDiagnostic d = op->emitError()
                           << "this tile operation runs on threads "
                           << rangeText(range)
                           << " but uses a fragment laid out for threads "
                           << rangeText(home) << " (the " << lang.name
                           << " target lays out a fragment for the "
                              "threads of the tile operations that use it; use "
                              "it under one thread range)";
    if (root.getDefiningOp())
      d.attachNote(root.getLoc()) << "the fragment";
    return failure();
  }
  return success();
}

LogicalResult Emitter::planThreadRanges(KernelOp kernel) {
  fragmentRanges.clear();
  rangeBarrierIds.clear();
  // tile-plan-thread-ranges' named barriers (checked here), or the same
  // choice for IR that did not go through the pass.
  FailureOr<SmallVector<RangeBarrier, 4>> barriers =
      isModulePlanned(kernel, kRangesPlanned)
          ? getRangeBarriers(kernel, blockThreads)
          : chooseRangeBarriers(kernel, blockThreads);
  if (failed(barriers))
    return failure();
  for (const RangeBarrier &b : *barriers)
    rangeBarrierIds.push_back({b.range, b.id});

  // Each fragment's range: that of the tile operations using it.
  FailureOr<llvm::DenseMap<Value, FragmentHome>> homes =
      getFragmentHomes(kernel, blockThreads, lang.name);
  if (failed(homes))
    return failure();
  for (auto &[fragment, home] : *homes)
    fragmentRanges[fragment] = home.range;
  // A fragment bound to a thread range (Fragment.bind_thread_range) counts
  // its threads from the range's first: the tile operations using it must
  // run on exactly that range.
  WalkResult bound = kernel.walk([&](AnnotateLayoutOp op) {
    auto want = op->getAttrOfType<DenseI64ArrayAttr>("thread_range");
    auto it = fragmentRanges.find(op.getBuffer());
    if (!want || want.size() != 2 || it == fragmentRanges.end())
      return WalkResult::advance();
    ThreadRange bind{want[0], want[1], nullptr};
    if (bind.hi > blockThreads) {
      op.emitError() << "the fragment layout is bound to threads "
                     << rangeText(bind) << ", beyond the kernel's "
                     << blockThreads << " threads";
      return WalkResult::interrupt();
    }
    if (it->second == bind)
      return WalkResult::advance();
    InFlightDiagnostic d = op.emitError()
                           << "the fragment layout is bound to threads "
                           << rangeText(bind)
                           << " (bind_thread_range), but the tile operations "
                              "using it run on threads "
                           << rangeText(it->second);
    auto home = homes->find(op.getBuffer());
    if (home != homes->end() && home->second.user)
      d.attachNote(home->second.user->getLoc()) << "an operation using it";
    return WalkResult::interrupt();
  });
  return failure(bound.wasInterrupted());
}

LogicalResult Emitter::checkAreaRanges(KernelOp kernel) {
  std::optional<ThreadRange> user;
  Operation *first = nullptr;
  auto use =
      [&](Operation *op) {
        std::optional<ThreadRange> r = threadRangeOf(op, blockThreads);
        if (!r)
          return success();
        r->condition = nullptr;
        if (!user) {
          user = *r;
          first = op;
          return success();
        }
        if (*user == *r)
          return success();
        InFlightDiagnostic d =
            op->emitError()
            << "this operation needs the shared scratch area on "
               "threads "
            << rangeText(*r) << " while threads " << rangeText(*user)
            << " may use it at the same time; the " << lang.name
            << " target does not give thread ranges areas of their own "
               "yet";
        d.attachNote(first->getLoc()) << "the other user";
        return failure();
      };
  ThreadRange whole{0, blockThreads, nullptr};
  bool ranged =
      llvm::any_of(rangeBarrierIds, [&](auto &e) { return e.first != whole; });
  if (!ranged)
    return success();
  WalkResult w = kernel.walk([&](Operation *op) {
    bool scratch = false;
    if (auto red = dyn_cast<ReduceOp>(op))
      scratch = reduceScratchBytes(red) > 0;
    scratch |= finalizeScratchBytes(op) > 0;
    scratch |= exchanges.count(op) != 0;
    if (scratch && failed(use(op)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(w.wasInterrupted());
}
