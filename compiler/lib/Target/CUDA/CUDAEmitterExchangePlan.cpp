//===- CUDAEmitterExchangePlan.cpp - Which fragments are exchanged -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The plan of a kernel's fragment exchanges: which fragments a T.Parallel
// reads at elements other threads hold (chooseFragmentExchanges), the plan
// tile-plan-fragment-exchanges recorded on the kernel, checked against
// what this printer needs, and the copies a partitioned loop makes of
// the exchanged fragments it reads at its own variables. The printing of
// the exchanges themselves stays with T.Parallel (CUDAEmitterTileOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"
#include "tlc/Dialect/Tile/Transforms/ParallelPlan.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

FragmentExchanges Emitter::chooseExchanges(KernelOp kernel) {
  auto lookup = [&](Value v) -> std::optional<layout::IndexedFragment> {
    auto it = fragments.find(v);
    if (it == fragments.end())
      return std::nullopt;
    return it->second.indexed();
  };
  return chooseFragmentExchanges(kernel, lookup, numThreads, intervals);
}

LogicalResult Emitter::readExchangePlan(KernelOp kernel,
                                        const FragmentExchanges &needed) {
  llvm::DenseMap<Operation *, ArrayRef<Value>> need;
  for (const auto &[op, roots] : needed)
    need[op] = roots;
  auto malformed = [](Operation *op, const Twine &why) {
    op->emitError() << "malformed fragment exchange plan: " << why
                    << " (tile-plan-fragment-exchanges)";
    return WalkResult::interrupt();
  };
  WalkResult loops = kernel.walk([&](ParallelOp op) {
    FailureOr<SmallVector<Value, 1>> recorded = getFragmentExchanges(op);
    if (failed(recorded))
      return WalkResult::interrupt();
    for (Value root : need.lookup(op))
      if (!llvm::is_contained(*recorded, root))
        return malformed(op, "this loop accesses '" + bufferDisplayName(root) +
                                 "' at elements its threads do not hold, "
                                 "and the plan does not exchange it");
    if (recorded->empty())
      return WalkResult::advance();
    for (Value root : *recorded)
      if (!fragments.count(root))
        return malformed(op, "'" + bufferDisplayName(root) +
                                 "' is no fragment this printer lays out");
    SmallVector<int64_t> bound;
    SmallVector<unsigned> varDim;
    if (!loopLayout(op, bound, varDim) && shiftedLoop(op))
      return malformed(op, "an exchange in a loop that runs over the slots "
                           "of the fragment it reads");
    exchanges[op] = std::move(*recorded);
    return WalkResult::advance();
  });
  if (loops.wasInterrupted())
    return failure();
  WalkResult copies = kernel.walk([&](CopyOp copy) {
    FailureOr<bool> recorded = isExchangedCopy(copy);
    if (failed(recorded))
      return WalkResult::interrupt();
    if (!*recorded && need.count(copy))
      return malformed(copy, "the two fragments are laid out differently, "
                             "and the plan does not exchange the copy");
    if (!*recorded)
      return WalkResult::advance();
    if (!fragments.count(copy.getSrc()) || !fragments.count(copy.getDst()))
      return malformed(copy, "an exchanged copy between buffers this "
                             "printer does not lay out as fragments");
    exchanges[copy].push_back(copy.getSrc());
    return WalkResult::advance();
  });
  return failure(copies.wasInterrupted());
}

SmallVector<Emitter::ReplicaCopy>
Emitter::replicaCopies(ParallelOp op,
                       ArrayRef<std::pair<Operation *, Value>> fragOps,
                       const llvm::DenseMap<Value, std::string> &exchanged) {
  Block *body = &op.getBody().front();
  // Loads and stores of exchanged fragments at the loop variables, by
  // fragment and dimensions (the same element in every iteration).
  SmallVector<ReplicaCopy> copies;
  SmallVector<std::pair<SmallVector<Operation *>, SmallVector<Operation *>>>
      accesses;
  for (auto [o, buf] : fragOps) {
    std::optional<SmallVector<unsigned>> dims = loopAccessDims(op, o);
    Value root = rootOf(buf);
    if (!dims || root != buf || !exchanged.count(root))
      continue;
    auto *c = llvm::find_if(copies, [&](const ReplicaCopy &c) {
      return c.root == root && c.dims == *dims;
    });
    if (c == copies.end()) {
      copies.push_back({o, root, *dims, ""});
      accesses.emplace_back();
      c = copies.end() - 1;
    }
    auto &[loads, stores] = accesses[c - copies.begin()];
    (isa<StoreOp>(o) ? stores : loads).push_back(o);
  }
  // A copy where some load may read the tile the iteration stores: one
  // before the first store straight in the body, or any load when a store
  // is nested (a load after such a store reads the tile: emitStore forwards
  // only stores straight in the body).
  SmallVector<ReplicaCopy> needed;
  for (auto [c, acc] : llvm::zip(copies, accesses)) {
    auto &[loads, stores] = acc;
    if (loads.empty() || stores.empty())
      continue;
    Operation *first = nullptr;
    bool nested = false;
    for (Operation *s : stores) {
      if (s->getBlock() != body)
        nested = true;
      else if (!first || s->isBeforeInBlock(first))
        first = s;
    }
    if (nested || llvm::any_of(loads, [&](Operation *l) {
          return !first->isBeforeInBlock(body->findAncestorOpInBlock(*l));
        }))
      needed.push_back(c);
  }
  return needed;
}
