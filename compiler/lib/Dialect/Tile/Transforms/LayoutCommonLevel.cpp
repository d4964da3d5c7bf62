//===- LayoutCommonLevel.cpp - Layout inference: common level -------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The common level: a T.Parallel loop takes its layout from a fragment
// it accesses (or its planned partition) and passes it on to the others
// it accesses; a reduction derives its output's layout from its input's.
//
//===----------------------------------------------------------------------===//

#include "LayoutSolver.h"
#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"

#include "tlc/Layout/Propagation.h"
#include "tlc/Layout/SharedLayouts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CommandLine.h"

#include <deque>
#include <vector>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using layout::Fragment;
using layout::IndexExpr;
using layout::InferLevel;
using layout::Layout;
using namespace tlc::tile::detail;

//===----------------------------------------------------------------------===//
// Common level
//===----------------------------------------------------------------------===//

/// True when \p index is exactly the loop variables in order.
static bool isIdentity(const std::vector<IndexExpr> &index) {
  for (auto [d, e] : llvm::enumerate(index))
    if (e.kind() != layout::IndexKind::Var || e.getVarId() != d)
      return false;
  return true;
}

std::optional<Fragment> Solver::plannedPartition(const Node &n) {
  int64_t trip = layout::numElements(n.loopShape);
  // A loop under a thread-range condition (`tx < 128`, its else branch,
  // `T.ws`) is partitioned over the threads of its range, as TileLang
  // partitions a T.Parallel over the thread bounds of its region; like a
  // gemm's accumulator in a range, its threads are numbered in the block.
  int64_t first = 0, count = threads;
  if (std::optional<std::pair<int64_t, int64_t>> range =
          warpGroupRange(n.op, threads);
      range && range->first + range->second <= threads)
    std::tie(first, count) = *range;
  for (int64_t t = count; t >= 1; t /= 2) {
    int64_t v = layout::chooseVectorWidth(n.loopShape, n.elemBits, t);
    if (trip % (t * v) != 0)
      continue;
    llvm::Expected<Fragment> f = layout::planLoopPartition(n.loopShape, t, v);
    // Fewer threads than the loop's, each running several rounds (384
    // threads divide no power-of-two trip count: down to thread 0):
    // TileLang partitions over all of them instead, the last round
    // guarded.
    if (f && t < count && t * v < trip) {
      int64_t w = layout::chooseVectorWidth(n.loopShape, n.elemBits, 1);
      f = layout::planGuardedLoopPartition(n.loopShape, count, w);
    }
    if (f) {
      Fragment result = first ? f->shiftThreads(first) : std::move(*f);
      result.setOrigin({"parallel", 0, 0});
      return reduciblePartition(n, std::move(result), first, count);
    }
    llvm::consumeError(f.takeError());
  }
  return std::nullopt;
}

Fragment Solver::reduciblePartition(const Node &n, Fragment planned,
                                    int64_t first, int64_t count) {
  for (const Access &a : n.accesses) {
    const BufferInfo &b = buffers[a.buffer];
    if (!b.isFragment || !a.index || !isIdentity(*a.index) ||
        b.shape != n.loopShape)
      continue;
    for (unsigned user : b.users) {
      const Node &r = nodes[user];
      if (r.kind != NodeKind::Reduce || r.src != a.buffer ||
          r.dim >= n.loopShape.size())
        continue;
      llvm::Expected<Fragment> reduced = layout::reduceFragment(planned, r.dim);
      if (reduced)
        continue;
      llvm::consumeError(reduced.takeError());
      // The plain partition mixes the reduced index into other thread
      // digits ((40 i + j) % 128 for a 48 x 40 column sum): one whose low
      // thread bits hold the reduced index's low digit shuffles instead.
      llvm::Expected<Fragment> f =
          layout::planReduciblePartition(n.loopShape, count, r.dim);
      if (!f) {
        llvm::consumeError(f.takeError());
        continue;
      }
      Fragment result = first ? f->shiftThreads(first) : std::move(*f);
      result.setOrigin({"parallel", 0, 0});
      return result;
    }
  }
  return planned;
}

/// True when \p index names distinct loop variables whose extents are the
/// buffer's: the loop touches the whole buffer, each element once per
/// iteration slice, and completeBufferFragment() applies.
static bool coversBuffer(const std::vector<IndexExpr> &index,
                         llvm::ArrayRef<int64_t> loopShape,
                         llvm::ArrayRef<int64_t> bufferShape) {
  std::vector<bool> used(loopShape.size(), false);
  for (auto [d, e] : llvm::enumerate(index)) {
    // A unit dimension read at 0 (`m[i, 0]` of an [M, 1] fragment).
    if (e.kind() == layout::IndexKind::Const && e.getConstant() == 0 &&
        bufferShape[d] == 1)
      continue;
    if (e.kind() != layout::IndexKind::Var)
      return false;
    unsigned v = e.getVarId();
    if (v >= loopShape.size() || used[v] || loopShape[v] != bufferShape[d])
      return false;
    used[v] = true;
  }
  return true;
}

/// True when \p index is exactly the loop variables in order and the loop
/// runs at least as far as the buffer in every dimension, further in one
/// (`for i in T.Parallel(128): frag32[i] = ...`: the iterations past the
/// buffer touch nothing). TileLang gives such a buffer the loop's own
/// layout; here it is the loop layout restricted to the buffer's shape.
static bool overrunsBuffer(const std::vector<IndexExpr> &index,
                           llvm::ArrayRef<int64_t> loopShape,
                           llvm::ArrayRef<int64_t> bufferShape) {
  if (!isIdentity(index) || loopShape.size() != bufferShape.size())
    return false;
  bool longer = false;
  for (auto [l, b] : llvm::zip(loopShape, bufferShape)) {
    if (l < b)
      return false;
    longer |= l > b;
  }
  return longer;
}

/// \p f's thread and register expressions over the input shape \p shape.
static std::optional<Fragment> reshapeInputs(const Fragment &f,
                                             llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<Fragment> r =
      Fragment::get(shape.vec(), f.getForwardIndex(), f.getForwardThread(),
                    f.getReplicate(), f.getOrigin());
  if (!r) {
    llvm::consumeError(r.takeError());
    return std::nullopt;
  }
  return std::move(*r);
}

bool Solver::isCompatible(const Node &n, const Fragment &loop) {
  for (const Access &a : n.accesses) {
    const BufferInfo &b = buffers[a.buffer];
    if (!a.index || !b.fragment)
      continue;
    if (overrunsBuffer(*a.index, n.loopShape, b.shape)) {
      std::optional<Fragment> derived = reshapeInputs(loop, b.shape);
      if (!derived || !(b.fragment->isEquivalentTo(*derived) ||
                        (!a.write && b.fragment->contains(*derived))))
        return false;
      continue;
    }
    if (!coversBuffer(*a.index, n.loopShape, b.shape)) {
      if (!accessFits(loop, *a.index, *b.fragment, a.write))
        return false;
      continue;
    }
    llvm::Expected<Fragment> derived =
        layout::completeBufferFragment(loop, *a.index, b.shape);
    if (!derived) {
      llvm::consumeError(derived.takeError());
      return false;
    }
    if (b.fragment->isEquivalentTo(*derived))
      continue;
    if (!a.write && b.fragment->contains(*derived))
      continue;
    if (b.pinned || b.level == InferLevel::Strict ||
        !derived->contains(*b.fragment))
      return false;
  }
  return true;
}

/// Whether \p n, the SIMT loop of a whole-fragment T.copy, copies between
/// two fragments whose layouts are both known and cannot be made one at
/// \p level (a gemm's accumulator copied into the next gemm's register
/// operand under another warp policy). Such a copy needs no common layout:
/// the CUDA and HIP printers move it through shared memory (the exchange
/// area, Emitter::planExchanges).
static bool copiesBetweenFixedLayouts(const Node &n,
                                      const std::vector<BufferInfo> &buffers,
                                      InferLevel level) {
  if (!isa<CopyOp>(n.op) || !n.loopLayout || n.accesses.size() != 2)
    return false;
  for (const Access &a : n.accesses) {
    const BufferInfo &b = buffers[a.buffer];
    if (!b.fragment || !a.index ||
        overrunsBuffer(*a.index, n.loopShape, b.shape) ||
        !coversBuffer(*a.index, n.loopShape, b.shape))
      return false;
  }
  for (const Access &a : n.accesses) {
    const BufferInfo &b = buffers[a.buffer];
    llvm::Expected<Fragment> derived =
        layout::completeBufferFragment(*n.loopLayout, *a.index, b.shape);
    if (!derived) {
      llvm::consumeError(derived.takeError());
      return false;
    }
    // As setFragment accepts a layout.
    if (b.fragment->isEquivalentTo(*derived) ||
        (!a.write && b.fragment->contains(*derived)))
      continue;
    InferLevel mergeLevel = (b.pinned || level == InferLevel::Strict)
                                ? InferLevel::Strict
                                : level;
    llvm::Expected<Fragment> merged =
        layout::mergeFragments(*b.fragment, *derived, mergeLevel);
    if (merged)
      continue;
    llvm::consumeError(merged.takeError());
    return true;
  }
  return false;
}

LogicalResult Solver::visitLoop(unsigned id, InferLevel level) {
  Node &n = nodes[id];
  if (!n.loopLayout) {
    auto fromAccess = [&](const Access &a) -> std::optional<Fragment> {
      const BufferInfo &b = buffers[a.buffer];
      if (!b.fragment)
        return std::nullopt;
      if (!a.index)
        return a.heldIndex ? heldLoopLayout(n, a) : std::nullopt;
      if (overrunsBuffer(*a.index, n.loopShape, b.shape))
        return reshapeInputs(*b.fragment, n.loopShape);
      llvm::Expected<Fragment> f =
          layout::loopLayoutFromBuffer(*b.fragment, *a.index, n.loopShape);
      if (!f) {
        llvm::consumeError(f.takeError());
        return std::nullopt;
      }
      return std::move(*f);
    };
    // (1) a written fragment with a layout, exact accesses first;
    // (2) a non-replicated fragment it reads.
    for (int pass = 0; pass < 3 && !n.loopLayout; ++pass)
      for (const Access &a : n.accesses) {
        const BufferInfo &b = buffers[a.buffer];
        bool want = pass == 0   ? a.write && a.index && isIdentity(*a.index)
                    : pass == 1 ? a.write
                                : !a.write && b.fragment &&
                                      b.fragment->getReplicate() == 1;
        if (!want)
          continue;
        if ((n.loopLayout = fromAccess(a)))
          break;
      }
    // (3) free: the cheapest of the read layouts and the planned partition.
    if (!n.loopLayout && level == InferLevel::Free) {
      std::vector<Fragment> candidates;
      for (const Access &a : n.accesses)
        if (std::optional<Fragment> f = fromAccess(a))
          if (isCompatible(n, *f))
            candidates.push_back(std::move(*f));
      if (std::optional<Fragment> planned = plannedPartition(n))
        if (candidates.empty() || isCompatible(n, *planned))
          candidates.push_back(std::move(*planned));
      int best = layout::chooseCheapest(candidates);
      if (best >= 0)
        n.loopLayout = std::move(candidates[best]);
    }
    if (!n.loopLayout)
      return success();
  }
  // A copy between layouts that disagree goes through shared memory.
  if (copiesBetweenFixedLayouts(n, buffers, level))
    return success();
  // Complete the layouts of every fragment the loop touches.
  for (const Access &a : n.accesses) {
    BufferInfo &b = buffers[a.buffer];
    if (!a.index) {
      if (a.heldIndex && failed(completeHeld(id, a, level)))
        return failure();
      continue;
    }
    if (overrunsBuffer(*a.index, n.loopShape, b.shape)) {
      std::optional<Fragment> derived = reshapeInputs(*n.loopLayout, b.shape);
      if (!derived)
        continue;
      bool hadLayout = b.fragment.has_value();
      std::optional<Fragment> before = b.fragment;
      if (failed(setFragment(a.buffer, std::move(*derived), n.op, level,
                             !a.write)))
        return failure();
      if (!hadLayout || !before->isEquivalentTo(*b.fragment))
        enqueueUsers(a.buffer, id);
      continue;
    }
    if (!coversBuffer(*a.index, n.loopShape, b.shape)) {
      // A fragment read a group of iterations at a time (`packed[i, j //
      // 2]`) that has no layout yet takes the one the loop gives it.
      if (!b.fragment)
        if (std::optional<Fragment> packed =
                packedBufferFragment(a, *n.loopLayout)) {
          if (failed(setFragment(a.buffer, std::move(*packed), n.op, level,
                                 /*readOnly=*/true)))
            return failure();
          enqueueUsers(a.buffer, id);
          continue;
        }
      // A fragment touched once per element through a permuted index
      // (`y[t + 64 * k]`) that has no layout yet takes the one the loop
      // gives it, as TileLang inverts such an access.
      if (!b.fragment)
        if (std::optional<Fragment> permuted =
                permutedBufferFragment(a, *n.loopLayout)) {
          if (failed(setFragment(a.buffer, std::move(*permuted), n.op, level,
                                 !a.write)))
            return failure();
          enqueueUsers(a.buffer, id);
          continue;
        }
      // A part of the buffer, or through an index expression: it must
      // already hold what the loop touches.
      if (b.fragment && !accessFits(*n.loopLayout, *a.index, *b.fragment,
                                    a.write))
        return conflict(a.buffer, n.op, b.fragment->shortLabel(),
                        n.loopLayout->shortLabel() + " loop", "");
      continue;
    }
    llvm::Expected<Fragment> derived =
        layout::completeBufferFragment(*n.loopLayout, *a.index, b.shape);
    if (!derived) {
      llvm::consumeError(derived.takeError());
      continue;
    }
    if (b.fragment)
      derived->setOrigin(b.fragment->getOrigin());
    bool hadLayout = b.fragment.has_value();
    std::optional<Fragment> before = b.fragment;
    if (failed(setFragment(a.buffer, std::move(*derived), n.op, level,
                           !a.write)))
      return failure();
    if (!hadLayout || !before->isEquivalentTo(*b.fragment))
      enqueueUsers(a.buffer, id);
  }
  return success();
}

LogicalResult Solver::visitReduce(unsigned id, InferLevel level) {
  Node &n = nodes[id];
  BufferInfo &src = buffers[n.src];
  BufferInfo &dst = buffers[n.dst];
  if (!src.fragment || n.dim >= src.shape.size())
    return success();
  // dst drops the reduced dimension, or keeps it with extent 1.
  std::vector<int64_t> reduced = src.shape, kept = src.shape;
  reduced.erase(reduced.begin() + n.dim);
  kept[n.dim] = 1;
  bool keep = kept == dst.shape && reduced != dst.shape;
  if (reduced != dst.shape && !keep)
    return success();
  llvm::Expected<Fragment> f =
      keep ? layout::reduceFragmentKeepDim(*src.fragment, n.dim)
           : layout::reduceFragment(*src.fragment, n.dim);
  if (!f) {
    n.op->emitWarning() << "cannot derive the layout of the reduction "
                           "result: "
                        << llvm::toString(f.takeError());
    return success();
  }
  bool hadLayout = dst.fragment.has_value();
  std::optional<Fragment> before = dst.fragment;
  if (failed(setFragment(n.dst, std::move(*f), n.op, level)))
    return failure();
  if (!hadLayout || !before->isEquivalentTo(*dst.fragment))
    enqueueUsers(n.dst, id);
  return success();
}
