//===- SharedAccessLoops.cpp - Shared accesses inside T.Parallel ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The shared loads and stores inside T.Parallel: each thread's loop
// coordinates from the fragment that partitions the loop, and the index
// expressions evaluated at them.
//
//===----------------------------------------------------------------------===//

#include "SharedAccessPlans.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/Transforms/SharedAccesses.h"
#include "tlc/Dialect/Tile/Transforms/VectorPlan.h"

#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/SharedLayouts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::tile::detail;

std::optional<int64_t> tlc::tile::evaluateLoopIndex(Value v, ParallelOp par,
                                                   ArrayRef<int64_t> coords) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != &par.getBody().front() ||
        arg.getArgNumber() >= coords.size())
      return std::nullopt;
    return coords[arg.getArgNumber()];
  }
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return c;
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto cast = dyn_cast<arith::IndexCastOp>(def))
    return evaluateLoopIndex(cast.getIn(), par, coords);
  if (def->getNumOperands() != 2 || def->getNumResults() != 1)
    return std::nullopt;
  std::optional<int64_t> a = evaluateLoopIndex(def->getOperand(0), par, coords);
  if (!a)
    return std::nullopt;
  std::optional<int64_t> b = evaluateLoopIndex(def->getOperand(1), par, coords);
  if (!b)
    return std::nullopt;
  auto floorDiv = [](int64_t x, int64_t y) {
    return x / y - ((x % y != 0) && ((x < 0) != (y < 0)));
  };
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(def)
      .Case([&](arith::AddIOp) { return *a + *b; })
      .Case([&](arith::SubIOp) { return *a - *b; })
      .Case([&](arith::MulIOp) { return *a * *b; })
      .Case([&](arith::AndIOp) { return *a & *b; })
      .Case([&](arith::OrIOp) { return *a | *b; })
      .Case([&](arith::XOrIOp) { return *a ^ *b; })
      .Case([&](arith::MinSIOp) { return std::min(*a, *b); })
      .Case([&](arith::MaxSIOp) { return std::max(*a, *b); })
      .Case([&](arith::ShLIOp) -> std::optional<int64_t> {
        if (*b < 0 || *b > 62)
          return std::nullopt;
        return *a << *b;
      })
      .Case([&](arith::ShRSIOp) -> std::optional<int64_t> {
        if (*b < 0 || *b > 62)
          return std::nullopt;
        return *a >> *b;
      })
      .Case([&](arith::DivSIOp) -> std::optional<int64_t> {
        if (*b == 0)
          return std::nullopt;
        return *a / *b;
      })
      .Case([&](arith::RemSIOp) -> std::optional<int64_t> {
        if (*b == 0)
          return std::nullopt;
        return *a % *b;
      })
      .Case([&](arith::FloorDivSIOp) -> std::optional<int64_t> {
        if (*b == 0)
          return std::nullopt;
        return floorDiv(*a, *b);
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// The loop dimension of each index of fragment access \p o of \p par
/// (kUnitDim for a unit dimension read at 0), as the CUDA printer matches
/// them (CUDAEmitterTileOps: accessDims), or std::nullopt.
static constexpr unsigned kUnitDim = ~0u;
static std::optional<SmallVector<unsigned>>
loopDimsOf(ParallelOp par, Value buf, ValueRange indices) {
  ArrayRef<int64_t> shape = cast<BufferType>(buf.getType()).getShape();
  SmallVector<unsigned> dims;
  for (auto [d, i] : llvm::enumerate(indices)) {
    std::optional<int64_t> c = getConstantIntValue(i);
    if (d < shape.size() && shape[d] == 1 && c && *c == 0) {
      dims.push_back(kUnitDim);
      continue;
    }
    auto arg = dyn_cast<BlockArgument>(i);
    if (!arg || arg.getOwner() != &par.getBody().front())
      return std::nullopt;
    dims.push_back(arg.getArgNumber());
  }
  return dims;
}

/// The fragment that partitions \p par, chosen as the CUDA printer chooses
/// it (CUDAEmitterTileOps: Emitter::loopLayout) but from the fragments'
/// inferred `layout` attributes: one accessed at exactly the loop variables
/// over the loop's whole shape, else over a leading box of it, else in
/// order with unit dimensions read at 0 between them. No fragment access:
/// the flat partition.
static std::optional<layout::LoopPartition>
loopPartition(ParallelOp par, ArrayRef<int64_t> loopShape,
              std::optional<layout::Fragment> &storage) {
  struct Access {
    layout::Fragment fragment;
    std::optional<SmallVector<unsigned>> dims;
  };
  std::vector<Access> accesses;
  bool touchesFragments = false;
  par.getBody().walk([&](Operation *o) {
    Value buf;
    ValueRange indices;
    if (auto l = dyn_cast<LoadOp>(o)) {
      buf = l.getBuffer();
      indices = l.getIndices();
    } else if (auto s = dyn_cast<StoreOp>(o)) {
      buf = s.getBuffer();
      indices = s.getIndices();
    }
    if (!buf || scopeOfRoot(buf) != MemoryScope::Fragment)
      return;
    touchesFragments = true;
    auto alloc = buf.getDefiningOp<AllocOp>();
    auto attr = alloc ? dyn_cast_or_null<FragmentAttr>(alloc.getLayoutAttr())
                      : FragmentAttr();
    if (attr)
      accesses.push_back({attr.getFragment(), loopDimsOf(par, buf, indices)});
  });
  layout::LoopPartition p;
  auto take = [&](const Access &a) {
    const layout::Fragment &f = a.fragment;
    storage = f;
    p.fragment = &*storage;
    return p;
  };
  for (const Access &a : accesses) {
    if (!a.dims || a.fragment.getInputShape() != loopShape)
      continue;
    bool identity = true;
    for (auto [i, d] : llvm::enumerate(*a.dims))
      identity &= d == i;
    if (identity)
      return take(a);
  }
  for (const Access &a : accesses) {
    ArrayRef<int64_t> shape = a.fragment.getInputShape();
    if (!a.dims || shape.size() != loopShape.size())
      continue;
    bool box = true;
    for (auto [i, d] : llvm::enumerate(*a.dims))
      box &= d == i && loopShape[i] <= shape[i];
    if (box) {
      p.bound.assign(loopShape.begin(), loopShape.end());
      return take(a);
    }
  }
  for (const Access &a : accesses) {
    ArrayRef<int64_t> shape = a.fragment.getInputShape();
    if (!a.dims || shape.size() != a.dims->size())
      continue;
    std::vector<unsigned> where;
    for (auto [d, v] : llvm::enumerate(*a.dims)) {
      if (v == kUnitDim)
        continue;
      if (v != where.size() || shape[d] != loopShape[v])
        break;
      where.push_back(d);
    }
    if (where.size() == loopShape.size()) {
      p.varDim = std::move(where);
      return take(a);
    }
  }
  // The printer refuses a loop that touches fragments without one it can
  // partition by (or reads them through the exchange area, which is not
  // modelled): no code to analyse.
  if (touchesFragments)
    return std::nullopt;
  return p;
}

/// The elements per ds_write of HIP store \p s in \p par as the printer
/// writes it: tile-plan-parallel-vectors' `tile.vec` in a planned module,
/// else the pass's choice (VectorPlan.h: planParallelVectors). 1 when it
/// stores element by element.
static int64_t ldsStoreVector(ParallelOp par, StoreOp s,
                              const DenseMap<Value, SharedStorage> &storage) {
  if (isModulePlanned(par, kVectorsPlanned)) {
    auto vec = s->getAttrOfType<IntegerAttr>("tile.vec");
    return vec ? vec.getInt() : 1;
  }
  IndexIntervals intervals;
  for (const AccessVector &v :
       planParallelVectors(par, /*hip=*/true, storage, intervals))
    if (v.access == s.getOperation())
      return v.width;
  return 1;
}

/// The shared loads and stores inside T.Parallel: one element per lane and
/// instruction, at the loop coordinates the printer gives each thread
/// (layout::parallelLoopWarps), through index expressions of the loop
/// variables and constants (others are not modelled).
void tlc::tile::detail::planParallel(
    ParallelOp op, int64_t threads, std::vector<AccessPlan> &plans, bool hip,
    const DenseMap<Value, SharedStorage> &sharedStorage) {
  SmallVector<int64_t> loopShape;
  for (OpFoldResult e : op.getMixedExtents()) {
    std::optional<int64_t> c = getConstantIntValue(e);
    if (!c || *c <= 0)
      return;
    loopShape.push_back(*c);
  }
  if (layout::numElements(loopShape) > kMaxEnumeratedElements)
    return;
  SmallVector<Operation *> shared;
  op.getBody().walk([&](Operation *o) {
    Value buf;
    if (auto l = dyn_cast<LoadOp>(o))
      buf = l.getBuffer();
    else if (auto s = dyn_cast<StoreOp>(o))
      buf = s.getBuffer();
    if (!buf)
      return;
    auto rootType = cast<BufferType>(rootOf(buf).getType());
    if (isSharedScope(rootType.getScope()) && rootType.isStatic())
      shared.push_back(o);
  });
  if (shared.empty())
    return;
  std::optional<layout::Fragment> storage;
  std::optional<layout::LoopPartition> partition =
      loopPartition(op, loopShape, storage);
  if (!partition)
    return;
  std::optional<std::vector<layout::LaneCoords>> warps =
      layout::parallelLoopWarps(loopShape, threads, *partition);
  if (!warps)
    return;
  for (Operation *o : shared) {
    bool store = isa<StoreOp>(o);
    Value buf =
        store ? cast<StoreOp>(o).getBuffer() : cast<LoadOp>(o).getBuffer();
    ValueRange indices =
        store ? cast<StoreOp>(o).getIndices() : cast<LoadOp>(o).getIndices();
    std::optional<SmallVector<int64_t>> offsets = staticOffsets(buf);
    if (!offsets || offsets->size() != indices.size())
      continue;
    AccessPlan plan;
    plan.op = o;
    plan.root = rootOf(buf);
    plan.elementBytes = getElementStorageBytes(
        cast<BufferType>(plan.root.getType()).getElementType());
    plan.store = store;
    plan.instruction = widthName(plan.elementBytes, store, hip);
    // HIP: a vector store of each run of vec registers (at the run's first
    // register's coordinates), as the printer writes it.
    int64_t perRegister =
        partition->fragment
            ? int64_t(warps->size()) / partition->fragment->getRegsPerThread()
            : 0;
    int64_t vec = hip && store && perRegister > 0
                      ? ldsStoreVector(op, cast<StoreOp>(o), sharedStorage)
                      : 1;
    if (vec > 1) {
      plan.vec = vec;
      plan.instruction = widthName(vec * plan.elementBytes, store, hip);
    }
    bool ok = true;
    for (auto [k, w] : llvm::enumerate(*warps)) {
      if (vec > 1 && (int64_t(k) / perRegister) % vec != 0)
        continue;
      layout::LaneCoords lanes;
      for (auto [l, c] : llvm::enumerate(w)) {
        if (!c)
          continue;
        std::vector<int64_t> at(offsets->begin(), offsets->end());
        for (auto [d, i] : llvm::enumerate(indices)) {
          std::optional<int64_t> x = evaluateLoopIndex(i, op, *c);
          if (!x) {
            ok = false;
            break;
          }
          at[d] += *x;
        }
        if (!ok)
          break;
        lanes[l] = std::move(at);
      }
      if (!ok)
        break;
      plan.warps.push_back(std::move(lanes));
    }
    if (ok)
      plans.push_back(std::move(plan));
  }
}
