//===- CUDAEmitterExchanges.cpp - Accesses of fragment exchange tiles -----===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// With CudaEmitOptions::recordExchanges, the printer records the element
// every lane accesses in each fragment exchange tile it declares, computed
// from the same facts the printed loops use (the fragment's fitted
// (tid, register) -> coordinate map, its replica bits, the T.Parallel
// partition and the access's indices), so that the editor can state the
// exchange's bank conflicts (Driver/Exchanges.cpp).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/Transforms/SharedAccesses.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

/// The most instructions kept per exchange tile (a 128 x 128 fragment over
/// 128 threads is 512 per direction).
static constexpr size_t kMaxRecordedInstructions = size_t(1) << 15;

/// Row-major element of \p coord in \p shape, or -1 outside it.
static int64_t rowMajorElement(ArrayRef<int64_t> coord,
                               ArrayRef<int64_t> shape) {
  int64_t flat = 0;
  for (auto [c, e] : llvm::zip(coord, shape)) {
    if (c < 0 || c >= e)
      return -1;
    flat = flat * e + c;
  }
  return flat;
}

/// Appends the instructions of \p element (thread, step -> element, -1 for
/// none) over \p threads threads and \p steps steps to \p out, one entry
/// per step and group of 32 threads with an active lane.
static bool appendInstructions(
    CudaExchangeAccesses &record, std::vector<std::array<int64_t, 32>> &out,
    int64_t threads, int64_t steps,
    llvm::function_ref<int64_t(int64_t, int64_t)> element) {
  for (int64_t s = 0; s < steps; ++s)
    for (int64_t g = 0; g * 32 < threads; ++g) {
      std::array<int64_t, 32> lanes;
      lanes.fill(-1);
      bool any = false;
      for (int64_t l = 0; l < 32 && g * 32 + l < threads; ++l) {
        lanes[l] = element(g * 32 + l, s);
        any |= lanes[l] >= 0;
      }
      if (!any)
        continue;
      if (record.stores.size() + record.loads.size() >=
          kMaxRecordedInstructions) {
        record.complete = false;
        return false;
      }
      out.push_back(lanes);
    }
  return true;
}

CudaExchangeAccesses *Emitter::exchangeRecord(StringRef tile) {
  if (!options.recordExchanges)
    return nullptr;
  for (CudaExchangeAccesses &r : llvm::reverse(result.exchanges))
    if (r.tile == tile)
      return &r;
  return nullptr;
}

void Emitter::beginExchangeRecord(StringRef tile, Value root, int64_t offset,
                                  Operation *at) {
  if (!options.recordExchanges)
    return;
  CudaExchangeAccesses &r = result.exchanges.emplace_back();
  r.tile = tile.str();
  r.op = at;
  r.fragment = expr(root);
  r.offset = offset;
  r.elementBytes = std::max<int64_t>(
      1, getElementStorageBytes(cast<BufferType>(root.getType())
                                    .getElementType()));
}

void Emitter::recordExchange(const FragmentInfo &frag, StringRef tile,
                             bool toShared) {
  CudaExchangeAccesses *r = exchangeRecord(tile);
  if (!r)
    return;
  // emitExchange: threads below the fragment's thread extent, one replica
  // storing, every register at its fitted coordinate.
  int64_t threads = std::min(frag.threadExtent, numThreads);
  SmallVector<int64_t> coord(frag.shape.size());
  appendInstructions(*r, toShared ? r->stores : r->loads, threads, frag.regs,
                     [&](int64_t t, int64_t reg) -> int64_t {
                       if ((toShared && (t & frag.repMask)) ||
                           (frag.tables && !frag.tables->holds(t, reg)))
                         return -1;
                       for (unsigned d = 0; d < coord.size(); ++d)
                         coord[d] = frag.coords.evaluate(d, {t, reg});
                       return rowMajorElement(coord, frag.shape);
                     });
}

void Emitter::recordLoopExchange(ParallelOp op, const FragmentInfo *loop,
                                 ArrayRef<int64_t> bound,
                                 ArrayRef<unsigned> varDim, Operation *o,
                                 StringRef tile, ArrayRef<int64_t> shape) {
  CudaExchangeAccesses *r = exchangeRecord(tile);
  if (!r)
    return;
  SmallVector<int64_t> loopShape;
  for (OpFoldResult e : op.getMixedExtents()) {
    std::optional<int64_t> c = getConstantIntValue(e);
    if (!c || *c <= 0) {
      r->complete = false;
      return;
    }
    loopShape.push_back(*c);
  }
  bool store = isa<StoreOp>(o);
  ValueRange indices =
      store ? cast<StoreOp>(o).getIndices() : cast<LoadOp>(o).getIndices();
  SmallVector<int64_t> vars(loopShape.size()), idx, at(indices.size());
  bool ok = true;
  // The element thread t's step s accesses, as emitParallel spreads the
  // loop: by the loop fragment's registers (inside `bound`) or flat.
  auto element = [&](int64_t t, int64_t s) -> int64_t {
    if (!ok)
      return -1;
    if (loop) {
      if (loop->tables && !loop->tables->holds(t, s))
        return -1;
      idx.resize(loop->shape.size());
      for (unsigned d = 0; d < idx.size(); ++d)
        idx[d] = loop->coords.evaluate(d, {t, s});
      for (auto [d, e] : llvm::enumerate(bound))
        if (e < loop->shape[d] && idx[d] >= e)
          return -1;
      for (unsigned v = 0; v < vars.size(); ++v)
        vars[v] = idx[varDim.empty() ? v : varDim[v]];
    } else {
      int64_t flat = s * numThreads + t;
      if (flat >= layout::numElements(loopShape))
        return -1;
      for (int d = int(loopShape.size()) - 1; d >= 0; --d) {
        vars[d] = flat % loopShape[d];
        flat /= loopShape[d];
      }
    }
    for (auto [d, i] : llvm::enumerate(indices)) {
      std::optional<int64_t> x = evaluateLoopIndex(i, op, vars);
      if (!x) {
        ok = false;
        return -1;
      }
      at[d] = *x;
    }
    return rowMajorElement(at, shape);
  };
  int64_t threads = loop ? std::min(loop->threadExtent, numThreads)
                         : numThreads;
  int64_t steps =
      loop ? loop->regs
           : (layout::numElements(loopShape) + numThreads - 1) / numThreads;
  appendInstructions(*r, store ? r->stores : r->loads, threads, steps,
                     element);
  if (!ok)
    r->complete = false;
}

void Emitter::recordScalarExchangeRead(StringRef tile, ValueRange indices,
                                       ArrayRef<int64_t> shape) {
  CudaExchangeAccesses *r = exchangeRecord(tile);
  if (!r)
    return;
  SmallVector<int64_t> at;
  for (Value i : indices) {
    std::optional<int64_t> c = getConstantIntValue(i);
    if (!c) {
      r->complete = false;
      return;
    }
    at.push_back(*c);
  }
  int64_t e = rowMajorElement(at, shape);
  appendInstructions(*r, r->loads, numThreads, 1,
                     [&](int64_t, int64_t) { return e; });
}

void Emitter::recordScanExchange(StringRef tile, int64_t lines, int64_t len,
                                 int64_t stride, bool reverse) {
  CudaExchangeAccesses *r = exchangeRecord(tile);
  if (!r)
    return;
  // Step s = round * len + i: line round * numThreads + t, position i.
  int64_t rounds = (lines + numThreads - 1) / numThreads;
  auto element = [&](int64_t t, int64_t s) -> int64_t {
    int64_t l = (s / len) * numThreads + t, i = s % len;
    if (l >= lines)
      return -1;
    int64_t pos = reverse ? len - 1 - i : i;
    return (l / stride) * len * stride + l % stride + pos * stride;
  };
  if (appendInstructions(*r, r->loads, numThreads, rounds * len, element))
    appendInstructions(*r, r->stores, numThreads, rounds * len, element);
}
