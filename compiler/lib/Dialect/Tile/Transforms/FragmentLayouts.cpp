//===- FragmentLayouts.cpp - The GPU targets' fragment layouts ------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The layout choice of FragmentLayouts.h, in its order of strength: gemm
// operands (the instructions fix them), annotations, tensor-memory copies,
// then propagation through reductions (reduceFragment), views
// (reshapeFragment), fragment copies of equal shape and T.Parallel (a
// loop's layout from an access of its full shape at its variables;
// completeBufferFragment for the other accesses), and finally the default
// partition (bounded: a fragment every thread would hold whole past
// layout::kMaxReplicatedSlots is refused at its allocation). The record
// that tile-assign-fragment-layouts writes is read back here too.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/FragmentLayouts.h"

#include "tlc/Dialect/Tile/IR/LayoutAttrCodec.h"
#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"
#include "tlc/Dialect/Tile/Transforms/ParallelPlan.h"
#include "tlc/Layout/FragmentTables.h"
#include "tlc/Layout/GpuTargets.h"
#include "tlc/Layout/Propagation.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// A dimension index of a loop access: a unit dimension read at 0.
static constexpr unsigned kUnitDim = ~0u;
/// A dimension index of a loop access: a value the loop does not vary
/// (`lse[k, i]` in a T.Parallel over i inside a loop over k).
static constexpr unsigned kHeldDim = ~1u;

/// The buffer a region of \p buffer views (itself when none).
static Value regionRoot(Value buffer) {
  while (auto region = buffer.getDefiningOp<RegionOp>())
    buffer = region.getSource();
  return buffer;
}

/// Whether a gemm was given wgmma by tile-plan-wgmma.
static bool isWgmmaGemm(GemmOp op) {
  auto instr = op->getAttrOfType<StringAttr>("tile.instr");
  return instr && instr.getValue() == "wgmma";
}

std::optional<FragmentLayoutTarget>
tlc::tile::getFragmentLayoutTarget(llvm::StringRef gpuTarget) {
  std::optional<layout::GpuLayoutFacts> facts =
      layout::getGpuLayoutFacts(gpuTarget);
  if (!facts)
    return std::nullopt;
  return FragmentLayoutTarget{facts->name, facts->gemmArch};
}

//===----------------------------------------------------------------------===//
// Homes
//===----------------------------------------------------------------------===//

SmallVector<Value, 4> tlc::tile::getUsedFragments(Operation *op) {
  SmallVector<Value, 4> roots;
  op->walk([&](Operation *nested) {
    for (Value v : nested->getOperands()) {
      if (!isa<BufferType>(v.getType()))
        continue;
      // A view of a fragment (T.reshape) lives in its source's registers.
      Value root = regionRoot(v);
      while (auto view = root.getDefiningOp<ViewOp>())
        root = regionRoot(view.getSource());
      if (cast<BufferType>(root.getType()).getScope() ==
              MemoryScope::Fragment &&
          !llvm::is_contained(roots, root))
        roots.push_back(root);
    }
  });
  return roots;
}

/// `[lo, hi)`.
static std::string rangeText(const ThreadRange &r) {
  return "[" + std::to_string(r.lo) + ", " + std::to_string(r.hi) + ")";
}

FailureOr<llvm::DenseMap<Value, FragmentHome>>
tlc::tile::getFragmentHomes(KernelOp kernel, int64_t blockThreads,
                            llvm::StringRef targetName) {
  // Each fragment's range: that of the tile operations using it, in
  // program order (fills run anywhere: every thread fills its registers).
  llvm::DenseMap<Value, FragmentHome> homes;
  WalkResult uses = kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isa<GemmOp, CopyOp, ReduceOp, CumSumOp, AtomicAddOp, ParallelOp>(op))
      return WalkResult::advance();
    std::optional<ThreadRange> r = threadRangeOf(op, blockThreads);
    if (r && r->count() > 0 && r->warpAligned()) {
      r->condition = nullptr;
      for (Value root : getUsedFragments(op)) {
        auto [it, inserted] = homes.try_emplace(root, FragmentHome{*r, op});
        if (inserted || it->second.range == *r)
          continue;
        InFlightDiagnostic d =
            op->emitError()
            << "this tile operation runs on threads " << rangeText(*r)
            << " and another that uses the same fragment on threads "
            << rangeText(it->second.range) << ": the " << targetName
            << " target lays out a fragment for the threads of "
               "one range";
        d.attachNote(it->second.user->getLoc()) << "the other operation";
        return WalkResult::interrupt();
      }
    } // else refused where it is emitted
    // A T.Parallel's accesses are its own.
    return isa<ParallelOp>(op) ? WalkResult::skip() : WalkResult::advance();
  });
  if (uses.wasInterrupted())
    return failure();
  llvm::DenseMap<Value, FragmentHome> allocs;
  kernel.walk([&](AllocOp alloc) {
    if (cast<BufferType>(alloc.getType()).getScope() != MemoryScope::Fragment)
      return;
    auto it = homes.find(alloc.getResult());
    allocs[alloc.getResult()] = it != homes.end()
                                    ? it->second
                                    : FragmentHome{{0, blockThreads, nullptr}};
  });
  return allocs;
}

//===----------------------------------------------------------------------===//
// Choice
//===----------------------------------------------------------------------===//

/// The shape without leading unit dimensions kept for rank >= 2 (gemm
/// operands may be regions of multi-buffered tiles).
static SmallVector<int64_t> matrixShape(BufferType t) {
  SmallVector<int64_t> s(t.getShape().begin(), t.getShape().end());
  while (s.size() > 2 && s.front() == 1)
    s.erase(s.begin());
  return s;
}

/// The fragment \p v views (T.reshape / T.view of a whole fragment), or
/// null when \p v is no such view.
static Value viewedFragment(Value v) {
  auto view = v.getDefiningOp<ViewOp>();
  if (!view)
    return {};
  auto t = dyn_cast<BufferType>(view.getSource().getType());
  return t && t.getScope() == MemoryScope::Fragment ? view.getSource()
                                                    : Value();
}

/// A fragment allocation or a view of one: a buffer with a layout.
static bool isFragmentBuffer(Value v) {
  auto t = dyn_cast<BufferType>(v.getType());
  return t && t.getScope() == MemoryScope::Fragment &&
         (v.getDefiningOp<AllocOp>() || viewedFragment(v));
}

/// The gemm configuration of \p op for \p threads threads.
static FailureOr<layout::GemmConfig> gemmConfig(GemmOp op, int64_t threads,
                                                layout::GemmArch arch) {
  auto a = cast<BufferType>(op.getA().getType());
  auto c = cast<BufferType>(op.getC().getType());
  SmallVector<int64_t> as = matrixShape(a), cs = matrixShape(c);
  if (as.size() != 2 || cs.size() != 2 || !a.isStatic() || !c.isStatic()) {
    op.emitError("the GPU targets lower T.gemm of static 2-D tiles only");
    return failure();
  }
  layout::GemmConfig cfg;
  // tile-plan-wgmma chose wgmma: the sm_90 family's layouts (whose
  // selection gives wgmma for this gemm); otherwise the target's.
  cfg.arch = isWgmmaGemm(op) ? layout::GemmArch::SM90 : arch;
  cfg.transA = op.getTransposeA();
  cfg.transB = op.getTransposeB();
  cfg.m = cs[0];
  cfg.n = cs[1];
  cfg.k = cfg.transA ? as[0] : as[1];
  cfg.abBits = getElementBitWidth(a.getElementType());
  cfg.accBits = getElementBitWidth(c.getElementType());
  cfg.threads = threads;
  cfg.policy = toLayoutWarpPolicy(op.getPolicy());
  return cfg;
}

/// Whether every use of fragment \p v is an element load or store outside
/// a T.Parallel or inside one at indices that are not all loop variables
/// (or a fill; with \p reduceSource, also a T.reduce reading it), and it
/// has at most 64 elements.
static bool isScalarFragment(Value v, bool reduceSource = false) {
  auto t = cast<BufferType>(v.getType());
  if (!t.isStatic())
    return false;
  int64_t numel = 1;
  for (int64_t e : t.getShape())
    numel *= e;
  if (numel > 64)
    return false;
  return llvm::all_of(v.getUsers(), [&](Operation *user) {
    if (isa<FillOp, ClearOp>(user))
      return true;
    if (auto red = dyn_cast<ReduceOp>(user);
        red && reduceSource && red.getSrc() == v && red.getDst() != v)
      return true;
    ValueRange idx;
    if (auto l = dyn_cast<LoadOp>(user))
      idx = l.getIndices();
    else if (auto s = dyn_cast<StoreOp>(user))
      idx = s.getIndices();
    else
      return false;
    auto par = user->getParentOfType<ParallelOp>();
    if (!par)
      return true;
    return llvm::any_of(idx, [&](Value i) {
      auto arg = dyn_cast<BlockArgument>(i);
      return !arg || arg.getOwner() != &par.getBody().front();
    });
  });
}

LogicalResult tlc::tile::assignFragmentLayouts(
    KernelOp kernel, const FragmentLayoutTarget &target,
    const llvm::DenseMap<Value, ThreadRange> &homes, int64_t blockThreads,
    IndexIntervals &intervals, FragmentLayoutVisitor visit) {
  llvm::DenseMap<Value, layout::Fragment> layouts;
  // The threads that run \p op: its warp-aligned range, else the block.
  auto threadsFor = [&](Operation *op) {
    std::optional<ThreadRange> r = threadRangeOf(op, blockThreads);
    if (!r || r->count() <= 0 || !r->warpAligned())
      return blockThreads;
    return r->count();
  };
  auto fail = [&](Operation *op, llvm::Error err) {
    op->emitError() << "fragment layout: " << llvm::toString(std::move(err));
    return failure();
  };
  // A T.Parallel variable indexing a fragment dimension it runs past (a
  // [32] fragment written for i in T.Parallel(128)) leaves the fragment:
  // no layout can hold it (the CPU target stops at the access).
  WalkResult outside = kernel.walk([&](Operation *op) {
    Value buffer;
    ValueRange indices;
    if (auto load = dyn_cast<LoadOp>(op))
      buffer = load.getBuffer(), indices = load.getIndices();
    else if (auto store = dyn_cast<StoreOp>(op))
      buffer = store.getBuffer(), indices = store.getIndices();
    auto par = op->getParentOfType<ParallelOp>();
    if (!buffer || !par || regionRoot(buffer) != buffer ||
        cast<BufferType>(buffer.getType()).getScope() != MemoryScope::Fragment)
      return WalkResult::advance();
    ArrayRef<int64_t> shape = cast<BufferType>(buffer.getType()).getShape();
    for (auto [d, i] : llvm::enumerate(indices)) {
      auto arg = dyn_cast<BlockArgument>(i);
      if (!arg || arg.getOwner() != &par.getBody().front())
        continue;
      std::optional<IndexInterval> r = intervals.of(i);
      if (!r || r->hi < shape[d])
        continue;
      op->emitError() << "T.Parallel variable " << arg.getArgNumber()
                      << " runs to " << r->hi << " past dimension " << d
                      << " of the fragment (extent " << shape[d]
                      << "): the access leaves it";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (outside.wasInterrupted())
    return failure();
  auto known = [&](Value v) { return layouts.count(v) != 0; };
  // A fragment that scalar code stores into outside every T.Parallel (a
  // T.serial loop writing `B[i, j]`, issue 2395's pattern): every thread
  // runs that code, and only a layout where every thread holds the whole
  // fragment gives each store a register (the printers have no other way
  // to write a fragment from scalar code), so it is held whole from the
  // start and the copies and loops that use it follow; TileLang refuses
  // the pattern. Only fragments that element accesses, copies and fills
  // use (no views, T.gemm or T.reduce), when every thread can hold them.
  kernel.walk([&](AllocOp alloc) {
    Value v = alloc.getResult();
    auto type = cast<BufferType>(v.getType());
    if (type.getScope() != MemoryScope::Fragment || !type.isStatic() ||
        known(v))
      return;
    bool scalarStore = false;
    for (Operation *user : v.getUsers()) {
      if (isa<LoadOp, CopyOp, FillOp, ClearOp>(user))
        continue;
      auto store = dyn_cast<StoreOp>(user);
      if (!store || store.getBuffer() != v)
        return;
      scalarStore |= !store->getParentOfType<ParallelOp>();
    }
    if (!scalarStore)
      return;
    auto home = homes.find(v);
    int64_t threads = home != homes.end() ? home->second.count() : blockThreads;
    if (std::optional<layout::Fragment> whole =
            layout::fullyReplicatedWithin(type.getShape(), threads))
      layouts.try_emplace(v, std::move(*whole));
  });
  // The dimensions each fragment is reduced over (T.reduce sources).
  llvm::DenseMap<Value, llvm::SmallVector<std::pair<unsigned, bool>>>
      reducedDims;
  kernel.walk([&](ReduceOp red) {
    bool keep = cast<BufferType>(red.getDst().getType()).getRank() ==
                cast<BufferType>(red.getSrc().getType()).getRank();
    reducedDims[red.getSrc()].push_back({red.getDim(), keep});
  });
  // A guarded default partition (chunks dealt over threads that do not
  // divide the tile; the last round may leave slots empty) serves where
  // the printers can index it and each T.reduce of it keeps to thread bits
  // of the reduced dimension (the shuffle plan) with a result they can
  // index; else the fragment is held whole by every thread, as before the
  // guarded default.
  auto guardedServes = [&](const layout::Fragment &f,
                           llvm::ArrayRef<Value> bufs) {
    unsigned rank = f.getInputShape().size();
    std::shared_ptr<const layout::FragmentTables> t =
        layout::FragmentTables::get(f, rank);
    if (!t->error.empty() || !t->coords)
      return false;
    for (Value b : bufs) {
      auto it = reducedDims.find(b);
      if (it == reducedDims.end())
        continue;
      if (t->coords->isFlat())
        return false;
      for (auto [dim, keep] : it->second) {
        llvm::Expected<layout::Fragment> r =
            keep ? layout::reduceFragmentKeepDim(f, dim)
                 : layout::reduceFragment(f, dim);
        if (!r) {
          llvm::consumeError(r.takeError());
          return false;
        }
        std::shared_ptr<const layout::FragmentTables> rt =
            layout::FragmentTables::get(*r, r->getInputShape().size());
        if (!rt->error.empty() || !rt->coords)
          return false;
        for (const auto &c : t->coords->coef[0])
          if (c[dim] != 0)
            for (auto [d, x] : llvm::enumerate(c))
              if (d != dim && x != 0)
                return false;
      }
    }
    return true;
  };
  // Whether some T.reduce of \p bufs cannot derive its result's layout
  // from \p f.
  auto failsReduce = [&](const layout::Fragment &f,
                         llvm::ArrayRef<Value> bufs) {
    for (Value b : bufs) {
      auto it = reducedDims.find(b);
      if (it == reducedDims.end())
        continue;
      for (auto [dim, keep] : it->second) {
        llvm::Expected<layout::Fragment> r =
            keep ? layout::reduceFragmentKeepDim(f, dim)
                 : layout::reduceFragment(f, dim);
        if (!r) {
          llvm::consumeError(r.takeError());
          return true;
        }
      }
    }
    return false;
  };
  auto chooseDefault =
      [&](llvm::ArrayRef<int64_t> shape, unsigned bits, int64_t threads,
          llvm::ArrayRef<Value> bufs) -> std::optional<layout::Fragment> {
    std::optional<layout::Fragment> plain = layout::defaultFragmentWithin(
        shape, bits, threads, layout::kMaxReplicatedSlots, /*guarded=*/false);
    std::optional<layout::Fragment> f = layout::defaultFragmentWithin(
        shape, bits, threads, layout::kMaxReplicatedSlots);
    if (!f || (plain && f->isEquivalentTo(*plain)) || guardedServes(*f, bufs))
      if (!f || !failsReduce(*f, bufs))
        return f;
    // A partition whose thread map mixes a reduced index into its other
    // digits ((40 i + j) % 128 for a 48 x 40 column sum on 128 threads, the
    // guarded (10 i + j / 4) % 256 on 256) cannot be shuffled: one whose
    // low thread bits hold the reduced index's low digit can
    // (planReduciblePartition; its last round guarded where the threads
    // do not divide the other dimensions).
    for (Value b : bufs) {
      auto it = reducedDims.find(b);
      if (it == reducedDims.end())
        continue;
      llvm::Expected<layout::Fragment> r =
          layout::planReduciblePartition(shape, threads, it->second[0].first);
      if (!r) {
        llvm::consumeError(r.takeError());
        continue;
      }
      if (guardedServes(*r, bufs))
        return std::move(*r);
    }
    return plain;
  };
  // Pinned: `T.annotate_layout({frag: T.Fragment(...)})` gives the
  // program's own element -> (thread, register) map, which every use
  // follows (the rows of an RMS norm one per thread, summed without a
  // cross-thread reduction). Uses that need another layout are refused at
  // the annotation below.
  llvm::DenseMap<Value, AnnotateLayoutOp> pinned;
  WalkResult pins = kernel.walk([&](AnnotateLayoutOp op) {
    Value v = op.getBuffer();
    if (!isFragmentBuffer(v) || !v.getDefiningOp<AllocOp>())
      return WalkResult::advance();
    // Not a fragment layout: layout inference warned it ignores it.
    std::optional<layout::Fragment> f = decodeFragment(op.getLayout());
    if (!f)
      return WalkResult::advance();
    auto type = cast<BufferType>(v.getType());
    if (f->getInputShape() != type.getShape()) {
      op.emitError("annotated fragment shape does not match the buffer");
      return WalkResult::interrupt();
    }
    if (known(v) && !layouts[v].isEquivalentTo(*f)) {
      op.emitError() << "fragment '" << bufferDisplayName(v)
                     << "' is annotated twice with different layouts ("
                     << layouts[v].shortLabel() << ", " << f->shortLabel()
                     << ")";
      return WalkResult::interrupt();
    }
    layouts.try_emplace(v, *f);
    pinned.try_emplace(v, op);
    return WalkResult::advance();
  });
  if (pins.wasInterrupted())
    return failure();
  /// Refuses a pinned fragment whose use \p user needs layout \p need.
  auto refusePinned = [&](Value v, Operation *user, StringRef what,
                          const layout::Fragment &need) {
    InFlightDiagnostic d = pinned[v].emitError();
    d << "the " << target.name << " target cannot use the annotated layout "
      << layouts[v].shortLabel() << " of fragment '" << bufferDisplayName(v)
      << "': " << what << " needs " << need.shortLabel();
    d.attachNote(user->getLoc()) << "used here";
    return failure();
  };

  // Strict: gemm operands.
  Operation *bad = nullptr;
  std::string badText;
  Value badPinned;
  std::optional<layout::Fragment> badNeed;
  kernel.walk([&](GemmOp gemm) {
    if (bad)
      return;
    FailureOr<layout::GemmConfig> cfg =
        gemmConfig(gemm, threadsFor(gemm), target.gemmArch);
    if (failed(cfg)) {
      bad = gemm;
      return;
    }
    // An accumulator annotated with the C layout of another warp grid than
    // the gemm's policy gives (TileLang's WGMMA atom emitter, 4 x 1 warps):
    // the gemm takes that grid, as layout inference did, and the equivalent
    // gemm layout replaces the annotation's, for the printers read the warp
    // grid from its origin.
    Value acc = gemm.getC();
    if (pinned.count(acc) && isFragmentBuffer(acc) &&
        acc.getDefiningOp<AllocOp>())
      if (auto match = matchAnnotatedAccumulator(
              *cfg, cast<BufferType>(acc.getType()).getShape(), layouts[acc])) {
        cfg->policy = match->first;
        layouts[acc] = std::move(match->second);
      }
    auto setOp = [&](Value v, layout::GemmOperand which) {
      if (!isFragmentBuffer(v))
        return;
      auto t = cast<BufferType>(v.getType());
      llvm::Expected<layout::OperandLayout> l = layout::layoutForGemmOperand(
          *cfg, which, layout::OperandScope::Fragment, t.getShape());
      if (!l) {
        bad = gemm;
        badText = llvm::toString(l.takeError());
        return;
      }
      // The mma instructions fix where each operand element lives.
      if (pinned.count(v) && !layouts[v].isEquivalentTo(*l->fragment)) {
        bad = gemm;
        badPinned = v;
        badNeed = *l->fragment;
        return;
      }
      layouts.try_emplace(v, *l->fragment);
    };
    setOp(gemm.getC(), layout::GemmOperand::C);
    setOp(gemm.getA(), layout::GemmOperand::A);
    setOp(gemm.getB(), layout::GemmOperand::B);
  });
  if (bad) {
    if (badPinned)
      return refusePinned(badPinned, bad, "T.gemm's matrix instructions",
                          *badNeed);
    if (!badText.empty())
      bad->emitError() << "T.gemm layout: " << badText;
    return failure();
  }

  // Strict: a fragment copied to or from tensor memory holds one row per
  // thread of the copy's range, the columns in its registers (tcgen05.ld /
  // st .32x32b; layout inference gives it the same "tcgen05 32x32b").
  kernel.walk([&](CopyOp copy) {
    bool load =
        cast<BufferType>(regionRoot(copy.getSrc()).getType()).getScope() ==
        MemoryScope::TensorMemory;
    bool store =
        cast<BufferType>(regionRoot(copy.getDst()).getType()).getScope() ==
        MemoryScope::TensorMemory;
    Value frag = load ? copy.getDst() : copy.getSrc();
    if ((!load && !store) || !isFragmentBuffer(frag) ||
        !frag.getDefiningOp<AllocOp>() || known(frag))
      return;
    ArrayRef<int64_t> shape = cast<BufferType>(frag.getType()).getShape();
    if (shape.size() != 2)
      return; // emitTmemCopy refuses it
    layout::FragmentOrigin origin;
    origin.tag = "tcgen05 32x32b";
    llvm::Expected<layout::Fragment> f = layout::Fragment::parse(
        std::vector<int64_t>(shape.begin(), shape.end()), {"j"}, "i", 1,
        origin);
    if (!f) {
      llvm::consumeError(f.takeError());
      return;
    }
    layouts.try_emplace(frag, std::move(*f));
  });

  auto shapeOf = [](Value v) {
    return SmallVector<int64_t>(cast<BufferType>(v.getType()).getShape());
  };
  auto elemBits = [](Value v) {
    Type t = cast<BufferType>(v.getType()).getElementType();
    if (t.isTF32()) // stored in 32 bits (MLIR's type has 19)
      return 32u;
    return t.isIntOrFloat() ? t.getIntOrFloatBitWidth() : 32u;
  };
  // Common: propagate in program order, twice (copies may run backwards).
  for (int round = 0; round < 3; ++round) {
    WalkResult w = kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto red = dyn_cast<ReduceOp>(op)) {
        Value s = red.getSrc(), d = red.getDst();
        // Past kMaxReplicatedSlots the source stays unknown: its allocation
        // is refused below.
        // A small source that scalar code writes (`s[0] = x` before
        // reducing it) is every thread's own copy, as for a fragment only
        // scalar code uses (below): each thread reduces its copy.
        if (round > 0 && isFragmentBuffer(s) && !known(s))
          if (std::optional<layout::Fragment> f =
                  isScalarFragment(s, /*reduceSource=*/true)
                      ? layout::fullyReplicatedWithin(shapeOf(s),
                                                      threadsFor(red))
                      : chooseDefault(shapeOf(s), elemBits(s), threadsFor(red),
                                      {s}))
            layouts.try_emplace(s, std::move(*f));
        // dst takes the source's layout with the reduced dimension dropped
        // (or kept with extent 1); a pinned dst must already have it, as
        // the reduction writes each row where the source's threads meet.
        if (isFragmentBuffer(s) && isFragmentBuffer(d) && known(s) &&
            (!known(d) || pinned.count(d))) {
          bool keep = shapeOf(d).size() == shapeOf(s).size();
          llvm::Expected<layout::Fragment> f =
              keep ? layout::reduceFragmentKeepDim(layouts[s], red.getDim())
                   : layout::reduceFragment(layouts[s], red.getDim());
          if (!f) {
            (void)fail(op, f.takeError());
            return WalkResult::interrupt();
          }
          if (!known(d)) {
            layouts.try_emplace(d, *f);
          } else if (!layouts[d].isEquivalentTo(*f)) {
            (void)refusePinned(d, op, "T.reduce of its source's layout", *f);
            return WalkResult::interrupt();
          }
        }
        return WalkResult::advance();
      }
      if (auto view = dyn_cast<ViewOp>(op)) {
        // A reshape keeps each element in its registers: the view's layout
        // is the source's re-indexed, and the other way round.
        Value s = viewedFragment(view.getResult()), v = view.getResult();
        if (!s || !isFragmentBuffer(s) || known(s) == known(v))
          return WalkResult::advance();
        Value from = known(s) ? s : v, to = known(s) ? v : s;
        llvm::Expected<layout::Fragment> f =
            layout::reshapeFragment(layouts[from], shapeOf(to));
        if (!f) {
          (void)fail(op, f.takeError());
          return WalkResult::interrupt();
        }
        layouts.try_emplace(to, *f);
        return WalkResult::advance();
      }
      if (auto copy = dyn_cast<CopyOp>(op)) {
        Value s = copy.getSrc(), d = copy.getDst();
        if (isFragmentBuffer(s) && isFragmentBuffer(d) &&
            shapeOf(s) == shapeOf(d)) {
          if (known(s) && !known(d))
            layouts.try_emplace(d, layouts[s]);
          else if (known(d) && !known(s))
            layouts.try_emplace(s, layouts[d]);
        }
        return WalkResult::advance();
      }
      auto par = dyn_cast<ParallelOp>(op);
      if (!par)
        return WalkResult::advance();
      SmallVector<int64_t> loopShape;
      for (OpFoldResult e : par.getMixedExtents()) {
        auto attr = dyn_cast<Attribute>(e);
        if (!attr)
          return WalkResult::advance();
        loopShape.push_back(cast<IntegerAttr>(attr).getInt());
      }
      // Fragment accesses at loop variables: buffer -> dims.
      SmallVector<std::pair<Value, SmallVector<unsigned>>> accesses;
      par.getBody().walk([&](Operation *nested) {
        Value buf;
        OperandRange idx = nested->getOperands();
        if (auto l = dyn_cast<LoadOp>(nested)) {
          buf = l.getBuffer();
          idx = l.getIndices();
        } else if (auto s = dyn_cast<StoreOp>(nested)) {
          buf = s.getBuffer();
          idx = s.getIndices();
        }
        if (!buf || !isFragmentBuffer(buf))
          return;
        SmallVector<unsigned> dims;
        for (auto [d, idxValue] : llvm::enumerate(idx)) {
          // A unit dimension at 0 (`m[i, 0]` of an [M, 1] fragment).
          IntegerAttr c;
          if (shapeOf(buf)[d] == 1 && matchPattern(idxValue, m_Constant(&c)) &&
              c.getInt() == 0) {
            dims.push_back(kUnitDim);
            continue;
          }
          // `0 + i` (a row copy's SIMT loop adds the region's offsets).
          Value i = idxValue;
          while (auto add = i.getDefiningOp<arith::AddIOp>()) {
            if (matchPattern(add.getLhs(), m_Zero()))
              i = add.getRhs();
            else if (matchPattern(add.getRhs(), m_Zero()))
              i = add.getLhs();
            else
              break;
          }
          auto arg = dyn_cast<BlockArgument>(i);
          if (arg && arg.getOwner() == &par.getBody().front()) {
            dims.push_back(arg.getArgNumber());
            continue;
          }
          // Defined outside the loop: the same in every iteration.
          Operation *def = i.getDefiningOp();
          Region *home = def ? def->getParentRegion()
                             : cast<BlockArgument>(i).getOwner()->getParent();
          if (par.getBody().isAncestor(home))
            return;
          dims.push_back(kHeldDim);
        }
        // Scalar reads (`s[0]`) say nothing about the loop's layout.
        if (llvm::all_of(dims, [](unsigned d) {
              return d == kUnitDim || d == kHeldDim;
            }))
          return;
        accesses.push_back({buf, dims});
      });
      auto isFull = [&](const SmallVector<unsigned> &dims, Value buf) {
        if (dims.size() != loopShape.size() || shapeOf(buf) != loopShape)
          return false;
        for (auto [i, d] : llvm::enumerate(dims))
          if (d != i)
            return false;
        return true;
      };
      // T.Parallel(loop_layout=F): the program places the iterations by F
      // (layout inference pins it); the fragments the loop accesses at its
      // variables and that nothing fixed yet take F, completed for their
      // accesses (`t[j, i]`, `r[i]`).
      std::optional<layout::Fragment> loop = givenLoopLayout(par);
      for (auto &[buf, dims] : accesses)
        if (!loop && isFull(dims, buf) && known(buf)) {
          loop = layouts[buf];
          break;
        }
      if (!loop && round > 0) {
        // Prefer a layout some fragment of the loop's shape already has
        // (then row vectors derived from it line up), in allocation order.
        kernel.walk([&](AllocOp alloc) {
          Value v = alloc.getResult();
          if (!loop && known(v) && shapeOf(v) == loopShape)
            loop = layouts[v];
        });
      }
      if (!loop && round > 0) {
        for (auto &[buf, dims] : accesses)
          if (isFull(dims, buf)) {
            llvm::SmallVector<Value> full;
            for (auto &[b, d] : accesses)
              if (isFull(d, b))
                full.push_back(b);
            loop =
                chooseDefault(loopShape, elemBits(buf), threadsFor(par), full);
            break;
          }
      }
      if (!loop)
        return WalkResult::advance();
      for (auto &[buf, dims] : accesses) {
        if (known(buf))
          continue;
        if (isFull(dims, buf)) {
          layouts.try_emplace(buf, *loop);
          continue;
        }
        // The dimensions the loop does not vary (`lse[k, i]`) are left out
        // of the completion and then held in registers: each thread holds
        // every k of the elements the loop gives it, as TileLang lays out
        // the fragment a row copy `T.copy(lse[k, :], row)` reads (then a
        // T.reduce over k stays in the thread).
        std::vector<layout::IndexExpr> access;
        SmallVector<int64_t> accessed, withUnits;
        for (auto [d, extent] : llvm::zip(dims, shapeOf(buf))) {
          withUnits.push_back(d == kHeldDim ? 1 : extent);
          if (d == kHeldDim)
            continue;
          accessed.push_back(extent);
          access.push_back(d == kUnitDim ? layout::IndexExpr::constant(0)
                                         : layout::IndexExpr::var(
                                               d, "x" + std::to_string(d)));
        }
        llvm::Expected<layout::Fragment> f =
            layout::completeBufferFragment(*loop, access, accessed);
        if (!f && accessed.size() != dims.size()) {
          // Not a whole row at the loop's variables: left to the default.
          llvm::consumeError(f.takeError());
          continue;
        }
        if (!f) {
          (void)fail(par, f.takeError());
          return WalkResult::interrupt();
        }
        if (accessed.size() != dims.size()) {
          llvm::Expected<layout::Fragment> held =
              layout::reshapeFragment(*f, withUnits);
          if (!held) {
            llvm::consumeError(held.takeError());
            continue;
          }
          for (auto [d, extent] : llvm::enumerate(shapeOf(buf)))
            if (dims[d] == kHeldDim)
              *held = held->repeat(d, extent, /*onThread=*/false);
          f = std::move(*held);
        }
        layouts.try_emplace(buf, *f);
      }
      return WalkResult::advance();
    });
    if (w.wasInterrupted())
      return failure();
  }

  // Free: the default partition; then the inverse maps. Views come after
  // their sources (program order) and take the source's final layout.
  // A view of a fragment: the source's final layout re-indexed by the
  // view's shape (one the view's own users asked for must agree).
  auto layoutView = [&](ViewOp view) -> LogicalResult {
    Value v = view.getResult(), src = viewedFragment(v);
    auto type = cast<BufferType>(v.getType());
    auto srcType = cast<BufferType>(view.getSource().getType());
    if (!src || !isFragmentBuffer(src) || !known(src)) {
      view.emitError() << "the " << target.name
                       << " target reshapes whole fragments only";
      return failure();
    }
    if (type.getElementType() != srcType.getElementType()) {
      view.emitError() << "T.view of a fragment as another element type ("
                       << srcType.getElementType() << " to "
                       << type.getElementType()
                       << ") is not a re-indexing of its registers; the "
                       << target.name << " target reshapes fragments only";
      return failure();
    }
    llvm::Expected<layout::Fragment> f =
        layout::reshapeFragment(layouts[src], type.getShape());
    if (!f)
      return fail(view, f.takeError());
    if (known(v) && !layouts[v].isEquivalentTo(*f)) {
      view.emitError() << "the users of this reshaped fragment need layout "
                       << layouts[v].shortLabel()
                       << ", but its source's layout "
                       << layouts[src].shortLabel() << " reshaped gives "
                       << f->shortLabel();
      return failure();
    }
    layouts[v] = std::move(*f);
    return success();
  };
  WalkResult w = kernel.walk([&](Operation *alloc) {
    if (!isa<AllocOp, ViewOp>(alloc) || alloc->getNumResults() != 1)
      return WalkResult::advance();
    Value v = alloc->getResult(0);
    auto type = cast<BufferType>(v.getType());
    if (type.getScope() != MemoryScope::Fragment)
      return WalkResult::advance();
    if (!type.isStatic()) {
      alloc->emitError() << "fragments need static shapes on the "
                         << target.name << " target";
      return WalkResult::interrupt();
    }
    Value home = v;
    if (isa<ViewOp>(alloc)) {
      if (failed(layoutView(cast<ViewOp>(alloc))))
        return WalkResult::interrupt();
      while (Value src = viewedFragment(home))
        home = src;
    } else if (!known(v)) {
      // Only a view of it constrained it: the view's layout re-indexed.
      for (Operation *user : v.getUsers()) {
        auto view = dyn_cast<ViewOp>(user);
        if (!view || !known(view.getResult()))
          continue;
        if (llvm::Expected<layout::Fragment> f = layout::reshapeFragment(
                layouts[view.getResult()], type.getShape()))
          layouts.try_emplace(v, *f);
        else
          llvm::consumeError(f.takeError());
      }
    }
    // Laid out for the threads of the range whose operations use it.
    auto homeRange = homes.find(home);
    int64_t homeThreads =
        homeRange != homes.end() ? homeRange->second.count() : blockThreads;
    // A small fragment that only scalar code reads and writes (`s[0]`
    // outside any T.Parallel, or at indices that are not loop variables)
    // is every thread's own copy, as in TileLang: all threads run that code
    // and compute the same values.
    // Tabulating a fragment every thread holds whole costs threads x
    // elements slots: past layout::kMaxReplicatedSlots the instance is
    // refused here too (layout inference reports it at the use; the
    // editor's hints print instances whatever inference said).
    // A rank-0 fragment (`T.alloc_fragment(())`) is one value: every thread
    // holds it, whatever reads it (scalar code, a T.Parallel, T.copy).
    if (!known(v)) {
      std::optional<layout::Fragment> chosen =
          type.getRank() == 0 || isScalarFragment(v)
              ? layout::fullyReplicatedWithin(type.getShape(), homeThreads)
              : chooseDefault(type.getShape(), elemBits(v), homeThreads, {v});
      if (!chosen) {
        alloc->emitError() << "fragment of " << type.getNumElements()
                           << " elements would be held whole by each of "
                           << homeThreads << " threads";
        return WalkResult::interrupt();
      }
      layouts.try_emplace(v, std::move(*chosen));
    }
    const layout::Fragment &f = layouts[v];
    // What the layout itself cannot do is reported where it was written.
    Operation *blame = alloc;
    if (AnnotateLayoutOp pin = pinned.lookup(v))
      blame = pin;
    if (failed(visit(v, f, blame, homeThreads)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(w.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// The record
//===----------------------------------------------------------------------===//

LogicalResult tlc::tile::readFragmentLayouts(
    KernelOp kernel, const llvm::DenseMap<Value, ThreadRange> &homes,
    int64_t blockThreads, FragmentLayoutVisitor visit) {
  auto malformed = [](Operation *op, const Twine &why) {
    op->emitError() << "malformed fragment layout record: " << why
                    << " (tile-assign-fragment-layouts)";
    return WalkResult::interrupt();
  };
  // The annotations that pin a fragment's layout: blamed for what it
  // cannot do, as when the layouts are chosen.
  llvm::DenseMap<Value, AnnotateLayoutOp> pinned;
  kernel.walk([&](AnnotateLayoutOp op) {
    if (isFragmentBuffer(op.getBuffer()) &&
        op.getBuffer().getDefiningOp<AllocOp>() &&
        decodeFragment(op.getLayout()))
      pinned.try_emplace(op.getBuffer(), op);
  });
  WalkResult w = kernel.walk([&](Operation *op) {
    Attribute attr = op->getAttr(kFragmentLayoutAttr);
    bool buffer = isa<AllocOp, ViewOp>(op) && op->getNumResults() == 1;
    auto type =
        buffer ? dyn_cast<BufferType>(op->getResult(0).getType()) : nullptr;
    if (!type || type.getScope() != MemoryScope::Fragment) {
      if (attr)
        return malformed(op, "a layout on an op that defines no fragment");
      return WalkResult::advance();
    }
    Value v = op->getResult(0);
    if (!type.isStatic()) {
      op->emitError() << "fragments need static shapes on the GPU targets";
      return WalkResult::interrupt();
    }
    if (!attr)
      return malformed(op,
                       "fragment '" + bufferDisplayName(v) + "' has no layout");
    std::optional<layout::Fragment> f = decodeFragment(attr);
    if (!f)
      return malformed(op, "the layout is not a #tile.fragment");
    if (f->getInputShape() != type.getShape())
      return malformed(op, "the layout's shape does not match the buffer");
    Value home = v;
    while (Value src = viewedFragment(home))
      home = src;
    auto homeRange = homes.find(home);
    int64_t homeThreads =
        homeRange != homes.end() ? homeRange->second.count() : blockThreads;
    Operation *blame = op;
    if (AnnotateLayoutOp pin = pinned.lookup(v))
      blame = pin;
    if (failed(visit(v, *f, blame, homeThreads)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(w.wasInterrupted());
}
