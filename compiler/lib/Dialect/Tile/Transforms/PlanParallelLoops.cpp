//===- PlanParallelLoops.cpp - The --tile-plan-parallel-loops pass --------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Chooses how the threads of a block share the iterations of each
// tile.parallel on the CUDA and HIP targets (ParallelPlan.h: along the
// layout of a fragment the body accesses at the loop variables, round-robin
// over the threads, or a loop striding by the thread count) and records it
// on the loop for the GPU printer.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/ParallelPlan.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"

#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEPLANPARALLELLOOPS
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

static constexpr llvm::StringLiteral kPartition = "tile.partition";
static constexpr llvm::StringLiteral kDims = "tile.loop_dims";
static constexpr llvm::StringLiteral kBox = "tile.loop_box";
static constexpr llvm::StringLiteral kMarker = "tile.partitions_loop";
static constexpr llvm::StringLiteral kRegs = "tile.loop_regs";
static constexpr llvm::StringLiteral kGuard = "tile.loop_guard";

/// The buffer a tile.load / tile.store accesses, or null.
static Value accessedBuffer(Operation *op) {
  if (auto l = dyn_cast<LoadOp>(op))
    return l.getBuffer();
  if (auto s = dyn_cast<StoreOp>(op))
    return s.getBuffer();
  return Value();
}

/// The indices of a tile.load / tile.store.
static ValueRange accessIndices(Operation *op) {
  if (auto l = dyn_cast<LoadOp>(op))
    return l.getIndices();
  return cast<StoreOp>(op).getIndices();
}

/// The static extents of \p loop, or nothing.
static std::optional<SmallVector<int64_t>> staticExtents(ParallelOp loop) {
  SmallVector<int64_t> shape;
  for (OpFoldResult ext : loop.getMixedExtents()) {
    auto attr = dyn_cast<Attribute>(ext);
    if (!attr)
      return std::nullopt;
    shape.push_back(cast<IntegerAttr>(attr).getInt());
  }
  return shape;
}

/// The accesses of laid-out fragments whose closest enclosing tile.parallel
/// is \p loop, in program order.
static SmallVector<Operation *> fragmentAccesses(ParallelOp loop) {
  SmallVector<Operation *> accesses;
  loop.getBody().walk([&](Operation *op) {
    Value buf = accessedBuffer(op);
    if (buf && isLaidOutFragment(buf) &&
        op->getParentOfType<ParallelOp>() == loop)
      accesses.push_back(op);
  });
  return accesses;
}

bool tlc::tile::isLaidOutFragment(Value buffer) {
  auto type = dyn_cast<BufferType>(buffer.getType());
  return type && type.getScope() == MemoryScope::Fragment &&
         isa_and_present<AllocOp, ViewOp>(buffer.getDefiningOp());
}

std::optional<SmallVector<unsigned>>
tlc::tile::loopAccessDims(ParallelOp loop, Operation *access) {
  ArrayRef<int64_t> shape =
      cast<BufferType>(accessedBuffer(access).getType()).getShape();
  SmallVector<unsigned> dims;
  for (auto [d, i] : llvm::enumerate(accessIndices(access))) {
    // A unit dimension at 0 (`m[i, 0]` of an [M, 1] fragment).
    IntegerAttr c;
    if (d < shape.size() && shape[d] == 1 && matchPattern(i, m_Constant(&c)) &&
        c.getInt() == 0) {
      dims.push_back(kUnitLoopDim);
      continue;
    }
    auto arg = dyn_cast<BlockArgument>(i);
    if (!arg || arg.getOwner() != &loop.getBody().front())
      return std::nullopt;
    dims.push_back(arg.getArgNumber());
  }
  return dims;
}

/// A loop that touches no fragment and stores into a T.alloc_local buffer,
/// or touches only such buffers: TileLang partitions it over no threads
/// (its layout inference leaves a loop that stores into "local" scope, or
/// that only accesses it, to each thread): upstream's dequantising kernels
/// scale each thread's decoded registers with `for v in
/// T.Parallel(local_size): B_local[v] *= s[0]`. T.alloc_var buffers
/// (scope "local.var") do not count, as in TileLang.
bool tlc::tile::runsWholeInEachThread(ParallelOp loop) {
  bool storesLocal = false, onlyLocal = true, any = false, fragments = false;
  loop.getBody().walk([&](Operation *op) {
    for (Value v : op->getOperands()) {
      auto t = dyn_cast<BufferType>(v.getType());
      if (!t)
        continue;
      any = true;
      fragments |= t.getScope() == MemoryScope::Fragment;
      bool local = t.getScope() == MemoryScope::Local;
      onlyLocal &= local;
      if (auto s = dyn_cast<StoreOp>(op); s && s.getBuffer() == v)
        storesLocal |= local;
    }
  });
  return !fragments && (storesLocal || (any && onlyLocal));
}

ParallelPlan tlc::tile::chooseParallelPlan(ParallelOp loop) {
  ParallelPlan plan;
  if (runsWholeInEachThread(loop)) {
    plan.partition = ParallelPartition::Whole;
    return plan;
  }
  std::optional<SmallVector<int64_t>> extents = staticExtents(loop);
  if (!extents) {
    plan.partition = ParallelPartition::Strided;
    return plan;
  }
  ArrayRef<int64_t> loopShape = *extents;
  unsigned rank = loopShape.size();
  SmallVector<Operation *> accesses = fragmentAccesses(loop);
  auto take = [&](Operation *access, ArrayRef<unsigned> dims,
                  ArrayRef<int64_t> box) {
    plan.partition = ParallelPartition::Fragment;
    plan.access = access;
    plan.dims.assign(dims.begin(), dims.end());
    plan.box.assign(box.begin(), box.end());
    return plan;
  };
  auto shapeOf = [](Operation *access) {
    return cast<BufferType>(accessedBuffer(access).getType()).getShape();
  };
  SmallVector<unsigned> identity;
  for (unsigned v = 0; v < rank; ++v)
    identity.push_back(v);
  // A fragment accessed at exactly the loop variables over its whole shape.
  for (Operation *o : accesses) {
    std::optional<SmallVector<unsigned>> dims = loopAccessDims(loop, o);
    if (dims && shapeOf(o) == loopShape && llvm::equal(*dims, identity))
      return take(o, identity, {});
  }
  // A loop over a leading box of a fragment accessed at exactly the loop
  // variables: the slots outside the box are skipped.
  for (Operation *o : accesses) {
    std::optional<SmallVector<unsigned>> dims = loopAccessDims(loop, o);
    ArrayRef<int64_t> shape = shapeOf(o);
    if (!dims || shape.size() != rank || !llvm::equal(*dims, identity))
      continue;
    if (llvm::all_of(identity,
                     [&](unsigned v) { return loopShape[v] <= shape[v]; }))
      return take(o, identity, loopShape);
  }
  // The loop variables in order with unit dimensions read at 0 between
  // them (`m[i, 0]` of an [M, 1] fragment under T.Parallel(M)).
  for (Operation *o : accesses) {
    std::optional<SmallVector<unsigned>> dims = loopAccessDims(loop, o);
    ArrayRef<int64_t> shape = shapeOf(o);
    if (!dims || shape.size() != dims->size())
      continue;
    SmallVector<unsigned> where;
    for (auto [d, v] : llvm::enumerate(*dims)) {
      if (v == kUnitLoopDim)
        continue;
      if (v != where.size() || shape[d] != loopShape[v])
        break;
      where.push_back(d);
    }
    if (where.size() == rank)
      return take(o, where, {});
  }
  // A permutation of the loop variables over the fragment's whole shape
  // (`logits[j, i]` under T.Parallel(I, J)).
  for (Operation *o : accesses) {
    std::optional<SmallVector<unsigned>> dims = loopAccessDims(loop, o);
    ArrayRef<int64_t> shape = shapeOf(o);
    if (!dims || shape.size() != rank || dims->size() != rank)
      continue;
    SmallVector<unsigned> where(rank, kUnitLoopDim);
    bool permutation = true;
    for (auto [d, v] : llvm::enumerate(*dims)) {
      permutation &= v != kUnitLoopDim && v < rank &&
                     where[v] == kUnitLoopDim && shape[d] == loopShape[v];
      if (!permutation)
        break;
      where[v] = d;
    }
    if (permutation)
      return take(o, where, {});
  }
  // The program's own layout places the iterations of a loop that touches
  // no fragment (one that does follows its fragments, which
  // tile-assign-fragment-layouts derives from that layout).
  bool touchesFragments = false;
  loop.getBody().walk([&](Operation *op) {
    for (Value v : op->getOperands())
      if (auto t = dyn_cast<BufferType>(v.getType()))
        touchesFragments |= t.getScope() == MemoryScope::Fragment;
  });
  if (!touchesFragments && givenLoopLayout(loop)) {
    plan.partition = ParallelPartition::Layout;
    return plan;
  }
  plan.partition = ParallelPartition::Threads;
  if (int64_t threads = parallelLoopThreads(loop)) {
    // No rounds for an iteration count past int64_t (the printer refuses
    // the loop).
    int64_t count = 1;
    bool overflow = false;
    for (int64_t e : loopShape)
      overflow |= e < 0 || llvm::MulOverflow(count, e, count);
    if (!overflow && count <= std::numeric_limits<int64_t>::max() - threads) {
      plan.regs = (count + threads - 1) / threads;
      plan.guard = *plan.regs * threads != count;
    }
  }
  return plan;
}

std::optional<layout::Fragment> tlc::tile::givenLoopLayout(ParallelOp loop) {
  if (!loop->hasAttr("tile.loop_layout_given") || !loop.getLoopLayoutAttr())
    return std::nullopt;
  std::optional<SmallVector<int64_t>> extents = staticExtents(loop);
  std::optional<layout::Fragment> f = decodeFragment(loop.getLoopLayoutAttr());
  if (!extents || !f || f->getInputShape() != ArrayRef<int64_t>(*extents))
    return std::nullopt;
  return f;
}

int64_t tlc::tile::parallelLoopThreads(ParallelOp loop) {
  auto kernel = loop->getParentOfType<KernelOp>();
  std::optional<int64_t> block =
      kernel ? kernel.getStaticNumThreads() : std::nullopt;
  if (!block || *block < 1)
    return 0;
  std::optional<ThreadRange> range = threadRangeOf(loop, *block);
  if (!range || range->count() <= 0 || !range->warpAligned())
    return *block;
  return range->count();
}

llvm::StringRef tlc::tile::stringifyParallelPartition(ParallelPartition p) {
  switch (p) {
  case ParallelPartition::Fragment:
    return "fragment";
  case ParallelPartition::Threads:
    return "threads";
  case ParallelPartition::Strided:
    return "strided";
  case ParallelPartition::Layout:
    return "layout";
  case ParallelPartition::Whole:
    return "whole";
  }
  llvm_unreachable("unknown partition");
}

void tlc::tile::setParallelPlan(ParallelOp loop, const ParallelPlan &plan) {
  Builder b(loop.getContext());
  loop->setAttr(kPartition,
                b.getStringAttr(stringifyParallelPartition(plan.partition)));
  if (plan.partition == ParallelPartition::Threads && plan.regs) {
    loop->setAttr(kRegs, b.getI64IntegerAttr(*plan.regs));
    if (plan.guard)
      loop->setAttr(kGuard, b.getUnitAttr());
  }
  if (plan.partition != ParallelPartition::Fragment)
    return;
  SmallVector<int64_t> dims(plan.dims.begin(), plan.dims.end());
  loop->setAttr(kDims, b.getDenseI64ArrayAttr(dims));
  if (!plan.box.empty())
    loop->setAttr(kBox, b.getDenseI64ArrayAttr(plan.box));
  plan.access->setAttr(kMarker, b.getUnitAttr());
}

FailureOr<std::optional<ParallelPlan>>
tlc::tile::getParallelPlan(ParallelOp loop) {
  Attribute partitionAttr = loop->getAttr(kPartition);
  SmallVector<Operation *> marked;
  loop.getBody().walk([&](Operation *op) {
    if (op->hasAttr(kMarker) && op->getParentOfType<ParallelOp>() == loop)
      marked.push_back(op);
  });
  if (!partitionAttr && marked.empty() && !loop->hasAttr(kDims) &&
      !loop->hasAttr(kBox) && !loop->hasAttr(kRegs) && !loop->hasAttr(kGuard))
    return std::optional<ParallelPlan>();
  auto malformed = [&](const Twine &why) {
    loop.emitError() << "malformed T.Parallel partition plan: " << why
                     << " (tile-plan-parallel-loops)";
    return failure();
  };
  auto name = dyn_cast_or_null<StringAttr>(partitionAttr);
  std::optional<ParallelPartition> kind;
  if (name)
    for (ParallelPartition k :
         {ParallelPartition::Fragment, ParallelPartition::Threads,
          ParallelPartition::Strided, ParallelPartition::Layout,
          ParallelPartition::Whole})
      if (name.getValue() == stringifyParallelPartition(k))
        kind = k;
  if (!kind)
    return malformed("tile.partition must be \"fragment\", \"threads\", "
                     "\"strided\", \"layout\" or \"whole\"");
  std::optional<SmallVector<int64_t>> extents = staticExtents(loop);
  ParallelPlan plan;
  plan.partition = *kind;
  Attribute regsAttr = loop->getAttr(kRegs);
  if (*kind != ParallelPartition::Threads &&
      (regsAttr || loop->hasAttr(kGuard)))
    return malformed("only a partition over the threads has tile.loop_regs "
                     "or tile.loop_guard");
  if (regsAttr) {
    auto regs = dyn_cast<IntegerAttr>(regsAttr);
    if (!regs || regs.getInt() < 0)
      return malformed("tile.loop_regs must be a number of rounds");
    plan.regs = regs.getInt();
    plan.guard = loop->hasAttr(kGuard);
  } else if (loop->hasAttr(kGuard)) {
    return malformed("tile.loop_guard needs tile.loop_regs");
  }
  if (*kind != ParallelPartition::Fragment) {
    if (!marked.empty() || loop->hasAttr(kDims) || loop->hasAttr(kBox))
      return malformed("only a fragment partition has tile.loop_dims, "
                       "tile.loop_box or a tile.partitions_loop access");
    if (*kind == ParallelPartition::Layout) {
      if (!givenLoopLayout(loop))
        return malformed("a layout partition needs the program's "
                         "loop_layout (tile.loop_layout_given) over the "
                         "loop's static extents");
      return std::optional<ParallelPlan>(plan);
    }
    if (*kind == ParallelPartition::Whole)
      return std::optional<ParallelPlan>(plan);
    if ((*kind == ParallelPartition::Strided) != !extents)
      return malformed(*kind == ParallelPartition::Strided
                           ? "a strided partition is for extents known at "
                             "run time"
                           : "a partition over the threads needs static "
                             "extents");
    return std::optional<ParallelPlan>(plan);
  }
  if (!extents)
    return malformed("a fragment partition needs static extents");
  if (marked.size() != 1)
    return malformed("a fragment partition marks exactly one access "
                     "tile.partitions_loop, not " +
                     Twine(marked.size()));
  Operation *access = marked.front();
  Value buf = accessedBuffer(access);
  if (!buf || !isLaidOutFragment(buf))
    return malformed("the tile.partitions_loop access is no tile.load or "
                     "tile.store of a fragment allocation or view");
  auto dimsAttr = loop->getAttrOfType<DenseI64ArrayAttr>(kDims);
  auto boxAttr = loop->getAttr(kBox);
  ArrayRef<int64_t> loopShape = *extents;
  ArrayRef<int64_t> shape = cast<BufferType>(buf.getType()).getShape();
  std::optional<SmallVector<unsigned>> accessDims =
      loopAccessDims(loop, access);
  if (!dimsAttr || dimsAttr.size() != int64_t(loopShape.size()))
    return malformed("tile.loop_dims must give a fragment dimension for each "
                     "loop variable");
  if (!accessDims)
    return malformed("the tile.partitions_loop access must index with the "
                     "loop variables (or 0 in unit dimensions)");
  for (auto [v, d] : llvm::enumerate(dimsAttr.asArrayRef())) {
    // Loop variable v must run along fragment dimension d of the access.
    if (d < 0 || d >= int64_t(accessDims->size()) || (*accessDims)[d] != v)
      return malformed("tile.loop_dims[" + Twine(v) + "] = " + Twine(d) +
                       " is not the fragment dimension the access indexes "
                       "with loop variable " +
                       Twine(v));
    plan.dims.push_back(unsigned(d));
  }
  for (unsigned v : *accessDims)
    if (v != kUnitLoopDim && llvm::count(*accessDims, v) != 1)
      return malformed("the access indexes two fragment dimensions with "
                       "loop variable " +
                       Twine(v));
  if (llvm::count(*accessDims, kUnitLoopDim) + loopShape.size() !=
      accessDims->size())
    return malformed("the access leaves a loop variable out");
  if (boxAttr) {
    auto box = dyn_cast<DenseI64ArrayAttr>(boxAttr);
    if (!box || box.asArrayRef() != loopShape ||
        shape.size() != loopShape.size())
      return malformed("tile.loop_box must be the loop's extents");
    for (auto [v, d] : llvm::enumerate(plan.dims))
      if (d != v || loopShape[v] > shape[d])
        return malformed("a box partition runs the loop variables along the "
                         "fragment's dimensions in order, inside them");
    plan.box.assign(loopShape.begin(), loopShape.end());
  } else {
    for (auto [v, d] : llvm::enumerate(plan.dims))
      if (shape[d] != loopShape[v])
        return malformed("loop variable " + Twine(v) + " runs over " +
                         Twine(loopShape[v]) +
                         " iterations, fragment "
                         "dimension " +
                         Twine(d) + " has " + Twine(shape[d]) +
                         " (a partial loop needs tile.loop_box)");
  }
  plan.access = access;
  return std::optional<ParallelPlan>(std::move(plan));
}

namespace {
struct TilePlanParallelLoopsPass final
    : tlc::tile::impl::TilePlanParallelLoopsBase<TilePlanParallelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    forEachGpuKernel(getOperation(), target, [](FuncOp, KernelOp kernel) {
      kernel.walk([](ParallelOp loop) {
        setParallelPlan(loop, chooseParallelPlan(loop));
      });
    });
  }
};
} // namespace
