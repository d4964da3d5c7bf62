//===- CUDAEmitterTileOps.cpp - T.Parallel and T.fill for CUDA ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The SIMT lowering of the tile operations: each is partitioned over the
// block's threads so that consecutive threads touch consecutive chunks
// (coalesced), chunks are 16-byte vectors where the shapes allow, and every
// global access is guarded (see CUDAEmitter.h).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"
#include "tlc/Dialect/Tile/Transforms/ParallelPlan.h"

#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

SmallVector<std::string>
tlc::target::cuda_detail::unflatten(Emitter &e, StringRef flat,
                                    ArrayRef<std::string> shape,
                                    StringRef hint) {
  SmallVector<std::string> idx(shape.size());
  std::string rest = flat.str();
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    std::string name = e.fresh((hint + Twine(d)).str());
    if (d == 0)
      e.line("const " + e.indexType() + " " + name + " = " + rest + ";");
    else
      e.line("const " + e.indexType() + " " + name + " = " + rest + " % " +
             shape[d] + ";");
    idx[d] = name;
    if (d > 0)
      rest = "(" + rest + " / " + shape[d] + ")";
  }
  return idx;
}

//===----------------------------------------------------------------------===//
// T.Parallel
//===----------------------------------------------------------------------===//

static_assert(Emitter::kUnitDim == kUnitLoopDim,
              "the printer reads loopAccessDims' unit dimensions");

/// The loop dimension of each index of \p access (Emitter::kUnitDim for a
/// unit dimension read at 0), or nothing when one is another expression
/// (ParallelPlan.h).
static std::optional<SmallVector<unsigned>> accessDims(ParallelOp par,
                                                       Operation *access) {
  return loopAccessDims(par, access);
}

/// The row-major linear index of \p coords in \p shape ("0" for the one
/// element of a rank-0 tile).
static std::string rowMajor(ArrayRef<std::string> coords,
                            ArrayRef<int64_t> shape) {
  std::string lin;
  int64_t stride = 1;
  for (int d = int(coords.size()) - 1; d >= 0; --d) {
    std::string term = coords[d];
    if (stride != 1)
      term = "(" + term + ") * " + std::to_string(stride);
    lin = lin.empty() ? term : term + " + " + lin;
    stride *= shape[d];
  }
  return lin.empty() ? "0" : lin;
}

/// Bytes of the row-major tile of fragment \p root (layout \p frag).
static int64_t fragmentBytes(Value root, const FragmentInfo &frag) {
  int64_t bytes = getElementStorageBytes(cast<BufferType>(root.getType()).getElementType());
  for (int64_t e : frag.shape)
    bytes *= e;
  return bytes;
}

/// The fragment loads and stores inside \p op, with their buffers.
static SmallVector<std::pair<Operation *, Value>>
fragmentAccesses(ParallelOp op) {
  SmallVector<std::pair<Operation *, Value>> fragOps;
  op.getBody().walk([&](Operation *nested) {
    Value buf;
    if (auto l = dyn_cast<LoadOp>(nested))
      buf = l.getBuffer();
    else if (auto s = dyn_cast<StoreOp>(nested))
      buf = s.getBuffer();
    if (buf && Emitter::scopeOf(Emitter::rootOf(buf)) == MemoryScope::Fragment)
      fragOps.push_back({nested, buf});
  });
  return fragOps;
}

/// The static extents of \p op, or nothing.
static std::optional<SmallVector<int64_t>> staticShape(ParallelOp op) {
  SmallVector<int64_t> shape;
  for (OpFoldResult ext : op.getMixedExtents()) {
    auto attr = dyn_cast<Attribute>(ext);
    if (!attr)
      return std::nullopt;
    shape.push_back(cast<IntegerAttr>(attr).getInt());
  }
  return shape;
}

const FragmentInfo *Emitter::loopLayout(ParallelOp op,
                                        SmallVectorImpl<int64_t> &bound,
                                        SmallVectorImpl<unsigned> &varDim) {
  bound.clear();
  std::optional<SmallVector<int64_t>> loopShape = staticShape(op);
  if (!loopShape)
    return nullptr;
  varDim.clear();
  for (unsigned v = 0; v < loopShape->size(); ++v)
    varDim.push_back(v);
  // tile-plan-parallel-loops' plan (checked by checkParallelPlans), or the
  // same choice for IR that did not go through the pass.
  FailureOr<std::optional<ParallelPlan>> planned = getParallelPlan(op);
  ParallelPlan plan = succeeded(planned) && *planned ? std::move(**planned)
                                                     : chooseParallelPlan(op);
  if (plan.partition == ParallelPartition::Layout) {
    auto given = givenLoopLayouts.find(op);
    return given == givenLoopLayouts.end() ? nullptr : &given->second;
  }
  if (plan.partition != ParallelPartition::Fragment)
    return nullptr;
  auto it = fragments.find(
      isa<LoadOp>(plan.access) ? cast<LoadOp>(plan.access).getBuffer()
                               : cast<StoreOp>(plan.access).getBuffer());
  if (it == fragments.end())
    return nullptr;
  varDim.assign(plan.dims.begin(), plan.dims.end());
  bound.assign(plan.box.begin(), plan.box.end());
  return &it->second;
}

LogicalResult Emitter::checkParallelPlans(KernelOp kernel) {
  WalkResult walk = kernel.walk([&](ParallelOp op) {
    return failed(getParallelPlan(op)) ? WalkResult::interrupt()
                                       : WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// \p dims (loop variables, or kUnitDim) as dimensions of the fragment
/// that partitions the loop.
static SmallVector<unsigned> onLoopLayout(ArrayRef<unsigned> dims,
                                          ArrayRef<unsigned> varDim) {
  SmallVector<unsigned> out;
  for (unsigned d : dims)
    out.push_back(d == Emitter::kUnitDim ? d : varDim[d]);
  return out;
}

FailureOr<int64_t> Emitter::planExchanges(KernelOp kernel) {
  exchanges.clear();
  exchangePublishes = false;
  exchangeUses.clear();
  // tile-plan-fragment-exchanges' plan, checked against what this
  // printer's layouts need; the same choice for a kernel it did not plan.
  FragmentExchanges needed = chooseExchanges(kernel);
  if (kernel->hasAttr(kExchangesPlanned)) {
    if (failed(readExchangePlan(kernel, needed)))
      return failure();
  } else {
    for (auto &[op, roots] : needed)
      exchanges[op] = std::move(roots);
  }
  int64_t most = 0;
  kernel.walk([&](ParallelOp op) {
    auto ex = exchanges.find(op);
    if (ex == exchanges.end())
      return;
    int64_t bytes = 0;
    for (Value root : ex->second)
      bytes += (fragmentBytes(root, fragments[root]) + 15) / 16 * 16;
    exchangeUses.push_back({op, bytes, false});
    most = std::max(most, bytes);
  });
  // Scalar code reading a fragment its threads do not all hold whole
  // (`acc[i, 0]` in a T.serial loop): published there before the read.
  kernel.walk([&](LoadOp load) {
    Value root = rootOf(load.getBuffer());
    auto it = fragments.find(root);
    if (it == fragments.end() || load->getParentOfType<ParallelOp>() ||
        isWholeInEveryThread(it->second))
      return;
    exchangePublishes = true;
    exchangeUses.push_back({load, fragmentBytes(root, it->second), true});
    most = std::max(most, exchangeUses.back().bytes);
  });
  // Whole-fragment copies between layouts that disagree.
  kernel.walk([&](CopyOp copy) {
    if (!exchanges.count(copy))
      return;
    Value src = copy.getSrc();
    exchangeUses.push_back({copy, fragmentBytes(src, fragments[src]), false});
    most = std::max(most, exchangeUses.back().bytes);
  });
  // T.cumsum over a fragment: scanned in the exchange area.
  kernel.walk([&](CumSumOp op) {
    Value root = rootOf(op.getSrc());
    auto it = fragments.find(root);
    if (it != fragments.end()) {
      exchangePublishes = true;
      exchangeUses.push_back({op, fragmentBytes(root, it->second), true});
      most = std::max(most, exchangeUses.back().bytes);
    }
  });
  return most;
}

void Emitter::warnLocalStoreInPartitionedLoop(ParallelOp op) {
  StoreOp local;
  op.getBody().walk([&](StoreOp s) {
    if (!local && scopeOf(rootOf(s.getBuffer())) == MemoryScope::Local)
      local = s;
  });
  if (!local)
    return;
  // TileLang's layout inference partitions no T.Parallel that stores into
  // a "local" buffer: every thread runs every iteration, and its fragment
  // accesses read the thread's own register at each element's register
  // index, an element of another thread where the layout spreads the
  // fragment. This target deals the iterations out by the fragment's
  // layout instead: each thread writes the local buffer at its own
  // iterations only.
  InFlightDiagnostic w = local.emitWarning()
                         << "this T.Parallel stores into the T.alloc_local "
                            "buffer '"
                         << bufferDisplayName(rootOf(local.getBuffer()))
                         << "' and touches a fragment spread over the "
                            "threads: the "
                         << lang.name
                         << " target deals its iterations out by the "
                            "fragment's layout (each thread writes the local "
                            "buffer at its own iterations only), where "
                            "TileLang runs such a loop whole in every thread "
                            "and reads the fragment from each thread's own "
                            "registers; copy the fragment's elements with "
                            "T.copy, or store into a fragment";
  w.attachNote(op.getLoc()) << "the loop";
}

LogicalResult Emitter::emitParallel(ParallelOp op) {
  beginOp(op, "T.Parallel");
  SmallVector<OpFoldResult> extents = op.getMixedExtents();
  SmallVector<std::string> shape;
  std::string numel;
  bool isStatic = true;
  int64_t staticNumel = 1;
  for (OpFoldResult ext : extents) {
    std::string s = foldResult(ext);
    shape.push_back(s);
    numel += (numel.empty() ? "" : " * ") + s;
    if (auto attr = dyn_cast<Attribute>(ext))
      staticNumel *= cast<IntegerAttr>(attr).getInt();
    else
      isStatic = false;
  }
  SmallVector<std::pair<Operation *, Value>> fragOps = fragmentAccesses(op);
  // A fragment every thread holds whole, read at indices that are not the
  // loop variables (`s[0]`), is read as scalar code reads it: its register
  // is found where the load is printed (fragmentRegister).
  llvm::erase_if(fragOps, [&](const std::pair<Operation *, Value> &p) {
    Value root = rootOf(p.second);
    auto it = fragments.find(root);
    return isa<LoadOp>(p.first) && root == p.second && it != fragments.end() &&
           !accessDims(op, p.first) && isWholeInEveryThread(it->second);
  });
  SmallVector<int64_t> bound;
  SmallVector<unsigned> varDim;
  const FragmentInfo *loop = loopLayout(op, bound, varDim);
  if (loop && !isWholeInEveryThread(*loop))
    warnLocalStoreInPartitionedLoop(op);
  if (!loop && !exchanges.count(op))
    if (std::optional<ShiftedLoop> shifted = shiftedLoop(op))
      return emitShiftedLoop(op, *shifted);
  // The rounds of a loop no fragment partitions (tile-plan-parallel-loops'
  // tile.loop_regs / tile.loop_guard), which must run every iteration on
  // this printer's threads, and never one past the last unguarded.
  int64_t rounds = 0;
  bool roundGuard = false;
  // A loop every thread runs whole (ParallelPartition::Whole): each
  // thread's iterations are all of them, over its own registers.
  bool whole = false;
  ParallelPlan plan;
  if (!loop) {
    FailureOr<std::optional<ParallelPlan>> planned = getParallelPlan(op);
    plan = succeeded(planned) && *planned ? std::move(**planned)
                                          : chooseParallelPlan(op);
    whole = plan.partition == ParallelPartition::Whole;
  }
  if (!loop && isStatic && !whole) {
    if (!plan.regs) {
      op.emitError() << "T.Parallel partition plan: no rounds over the "
                        "threads for this loop's iterations (too many)";
      return failure();
    }
    rounds = *plan.regs;
    roundGuard = plan.guard;
    int64_t covered = 0;
    if (llvm::MulOverflow(rounds, numThreads, covered) ||
        covered < staticNumel || (!roundGuard && covered != staticNumel)) {
      op.emitError() << "T.Parallel partition plan: " << rounds
                     << " rounds of " << numThreads << " threads "
                     << (covered < staticNumel
                             ? "do not cover "
                             : "need tile.loop_guard to stop at ")
                     << staticNumel << " iterations";
      return failure();
    }
  }
  // Accesses at indices that are not the loop variables, and every access
  // of a loop no fragment partitions, go through the exchange tile and need
  // no loop layout.
  auto exchangedRead = [&](Operation *o, Value buf) {
    auto ex = exchanges.find(op);
    return (!loop || !accessDims(op, o)) && ex != exchanges.end() &&
           llvm::is_contained(ex->second, rootOf(buf)) && rootOf(buf) == buf;
  };
  if (!loop && llvm::any_of(fragOps, [&](const auto &p) {
        return !exchangedRead(p.first, p.second);
      })) {
    op.emitError() << "this T.Parallel touches fragments but none at exactly "
                      "the loop variables over its whole shape; the "
                   << lang.name << " target needs one to partition the loop";
    return failure();
  }

  // Fragments whose elements other threads hold go through the exchange
  // area: stored there before the loop, accessed there by it, and loaded
  // back after it when the loop writes them.
  llvm::DenseMap<Value, std::string> exchanged;
  SmallVector<Value> loadBack;
  auto ex = exchanges.find(op);
  if (ex != exchanges.end()) {
    line(blockBarrier() + "  // the exchange area is free");
    int64_t offset = exchangeOffset;
    for (Value root : ex->second) {
      FailureOr<std::string> tile = declareExchangeTile(root, offset, op);
      if (failed(tile))
        return failure();
      const FragmentInfo &f = fragments[root];
      offset += (fragmentBytes(root, f) + 15) / 16 * 16;
      exchanged[root] = *tile;
      emitExchange(f, expr(root), *tile, /*toShared=*/true);
      if (llvm::any_of(fragOps, [&](auto &p) {
            return isa<StoreOp>(p.first) && rootOf(p.second) == root;
          }))
        loadBack.push_back(root);
    }
    line(blockBarrier());
  }

  for (auto [o, buf] : fragOps) {
    if (!exchangedRead(o, buf))
      continue;
    // A store into the exchange tile must stay inside it.
    if (auto store = dyn_cast<StoreOp>(o)) {
      ArrayRef<int64_t> shape = fragments[rootOf(buf)].shape;
      for (auto [d, i] : llvm::enumerate(store.getIndices())) {
        std::optional<IndexRange> r = rangeOf(i);
        if (r && r->lo >= 0 && r->hi < shape[d])
          continue;
        InFlightDiagnostic diag = o->emitError()
                                  << "the " << lang.name
                                  << " target writes a fragment at "
                                     "indices that are not the loop variables "
                                     "only where they stay inside it: index "
                                  << d;
        if (r)
          diag << " runs over [" << r->lo << ", " << r->hi << "]";
        else
          diag << " has no known range";
        diag << ", extent " << shape[d];
        return failure();
      }
    }
    exchangeReads[o] = {exchanged[rootOf(buf)], rootOf(buf)};
    recordLoopExchange(op, loop, bound, varDim, o, exchanged[rootOf(buf)],
                       fragments[rootOf(buf)].shape);
  }

  // The loop layout's slots of this thread: `if (tid < extent)`, the
  // register loop, the coordinates and the box test (3 or 4 scopes).
  // With \p active, every thread opens every slot and the thread and box
  // tests are returned there instead (the body's barriers stand outside
  // them).
  auto openSlots = [&](StringRef reg, std::string *active = nullptr) {
    bool someThreads = loop->threadExtent < numThreads;
    if (someThreads && !active)
      open("if (tid < " + Twine(loop->threadExtent) + ")");
    else
      open("");
    if (someThreads && active)
      *active = "tid < " + std::to_string(loop->threadExtent);
    // A body that draws random numbers stays a loop (drawsRandomNumbers).
    line(drawsRandomNumbers(op) ? "#pragma unroll 1  // draws random numbers"
                                : "#pragma unroll");
    open("for (int " + reg + " = 0; " + reg + " < " + Twine(loop->regs) +
         "; ++" + reg + ")");
    SmallVector<std::string> idx = emitCoords(*loop, reg, "i");
    if (!bound.empty()) {
      std::string inBox;
      for (auto [d, e] : llvm::enumerate(bound))
        if (e < loop->shape[d])
          inBox += (inBox.empty() ? "" : " && ") + idx[d] + " < " +
                   std::to_string(e);
      if (active && !inBox.empty())
        *active += (active->empty() ? "" : " && ") + inBox;
      open(inBox.empty() || active ? "" : "if (" + inBox + ")");
    }
    return idx;
  };
  // The exchange tile element at the loop's coordinates \p idx that \p o
  // (an access at the loop variables) reads or writes.
  auto tileElement = [&](Operation *o, Value root, ArrayRef<std::string> idx) {
    SmallVector<std::string> at;
    std::optional<SmallVector<unsigned>> dims = accessDims(op, o);
    for (unsigned d : *dims)
      at.push_back(d == kUnitDim ? std::string("0") : idx[varDim[d]]);
    return exchanged[root] + "[" + rowMajor(at, fragments[root].shape) + "]";
  };
  // A replicated loop whose iteration reads an exchanged element it also
  // stores: every replica reads the tile, replica 0 alone stores, and
  // nothing orders replica 0's store after the other replicas' reads. Each
  // replica reads those elements into registers first, then a barrier.
  SmallVector<ReplicaCopy> copies;
  if (loop && loop->repMask)
    copies = replicaCopies(op, fragOps, exchanged);
  if (!copies.empty()) {
    for (ReplicaCopy &c : copies) {
      FailureOr<std::string> st =
          storageType(cast<BufferType>(c.root.getType()).getElementType(), op);
      if (failed(st))
        return failure();
      c.name = fresh("own");
      line(*st + " " + c.name + "[" + Twine(loop->regs) + "];");
    }
    std::string reg = fresh("r");
    open("");
    SmallVector<std::string> idx = openSlots(reg);
    for (const ReplicaCopy &c : copies)
      line(c.name + "[" + reg + "] = " + tileElement(c.first, c.root, idx) +
           ";");
    if (!bound.empty())
      close();
    close();
    close();
    close();
    line(blockBarrier() +
         "  // every replica read what replica 0 is about to store");
  }

  // Grid barriers straight in the body of a partitioned loop: every
  // thread runs every slot, each stretch of the body between barriers
  // under the slot's thread and box tests, the barriers outside them.
  SmallVector<Operation *> bodyBarriers;
  std::string active;
  if ((loop || isStatic) && copies.empty() && barriersAllowed &&
      parallelReg.empty()) {
    for (Operation &o : op.getBody().front())
      if (auto i = dyn_cast<IntrinsicOp>(&o);
          i && i.getCallee() == "T.sync_grid")
        bodyBarriers.push_back(&o);
    if (failed(checkStretches(op, bodyBarriers)))
      return failure();
  }

  // HIP: LDS stores of runs of consecutive registers as one vector each
  // (tile-plan-parallel-vectors' plan, HIPEmitterParallelStore.cpp). A
  // loop whose fragments go through the exchange area (this printer's
  // decision) stores element by element.
  int64_t width = 1;
  FailureOr<SmallVector<StoreOp>> planned =
      parallelVectorStores(op, loop, varDim, bound, width);
  if (failed(planned))
    return failure();
  SmallVector<StoreOp> vectorStores;
  if (ex == exchanges.end() && copies.empty()) {
    if (!bodyBarriers.empty() && !planned->empty())
      return (*planned)[0]->emitError()
             << "T.Parallel vector plan: a grid barrier in the loop's body "
                "splits the runs (tile-plan-parallel-vectors)";
    vectorStores = std::move(*planned);
  }
  std::string group; // the run's first register

  std::string reg = fresh("r");
  open("");
  SmallVector<std::string> idx;
  if (loop && !vectorStores.empty()) {
    group = fresh("rv");
    std::string vec = std::to_string(width);
    open(loop->threadExtent < numThreads
             ? "if (tid < " + std::to_string(loop->threadExtent) + ")"
             : "");
    line("#pragma unroll");
    open("for (int " + group + " = 0; " + group + " < " + Twine(loop->regs) +
         "; " + group + " += " + vec + ")");
    for (StoreOp s : vectorStores) {
      Type elem = cast<BufferType>(s.getBuffer().getType()).getElementType();
      FailureOr<std::string> st = storageType(elem, op);
      if (failed(st))
        return failure();
      std::string slot = fresh("v");
      line("alignas(" + std::to_string(width * getElementStorageBytes(elem)) +
           ") " + *st + " " + slot + "[" + vec + "];");
      vectorSlot[s] = slot + "[" + reg + " - " + group + "]";
    }
    line("#pragma unroll");
    open("for (int " + reg + " = " + group + "; " + reg + " < " + group +
         " + " + vec + "; ++" + reg + ")");
    idx = emitCoords(*loop, reg, "i");
  }
  if (loop) {
    if (vectorStores.empty())
      idx = openSlots(reg, bodyBarriers.empty() ? nullptr : &active);
    for (auto [o, buf] : fragOps) {
      std::optional<SmallVector<unsigned>> dims = accessDims(op, o);
      Value root = rootOf(buf);
      auto it = fragments.find(root);
      if (exchangedRead(o, buf))
        continue;
      if (!dims || root != buf || it == fragments.end()) {
        o->emitError() << "fragment accesses inside T.Parallel must index "
                          "with the loop variables on the "
                       << lang.name << " target";
        return failure();
      }
      auto tile = exchanged.find(root);
      if (tile != exchanged.end()) {
        // Row-major in the exchange tile, at the loop's coordinates.
        fragmentAccess[o] = tileElement(o, root, idx);
        // An element read into a replica's registers before the loop: the
        // loads read that copy, the stores update it too.
        for (const ReplicaCopy &c : copies)
          if (c.root == root && c.dims == *dims) {
            if (isa<StoreOp>(o))
              replicaCopy[o] = c.name + "[" + reg + "]";
            else
              fragmentAccess[o] = c.name + "[" + reg + "]";
          }
        // The indices are the loop variables (and unit dimensions' 0):
        // evaluated as they are, they give the coordinates used here.
        recordLoopExchange(op, loop, bound, varDim, o, tile->second,
                           it->second.shape);
        if (isa<StoreOp>(o))
          exchangeStores.insert(o);
        continue;
      }
      FailureOr<std::string> r = fragmentIndex(
          *loop, it->second, onLoopLayout(*dims, varDim), reg, o, bound);
      if (failed(r))
        return failure();
      fragmentAccess[o] = expr(root) + "[" + *r + "]";
    }
  } else if (whole) {
    std::string flat = fresh("f");
    line("// every thread runs every iteration (the loop stores into a "
         "T.alloc_local buffer or touches only such buffers)");
    if (isStatic)
      line(drawsRandomNumbers(op) ? "#pragma unroll 1  // draws random numbers"
                                  : "#pragma unroll");
    open("for (" + indexType() + " " + flat + " = 0; " + flat + " < " + numel +
         "; ++" + flat + ")");
    open("");
    idx = unflatten(*this, flat, shape, "i");
  } else if (isStatic) {
    line(drawsRandomNumbers(op) ? "#pragma unroll 1  // draws random numbers"
                                : "#pragma unroll");
    open("for (int " + reg + " = 0; " + reg + " < " + Twine(rounds) +
         "; ++" + reg + ")");
    std::string flat = fresh("f");
    line("const int " + flat + " = " + reg + " * " + Twine(numThreads) +
         " + tid;");
    if (roundGuard && !bodyBarriers.empty())
      active = flat + " < " + std::to_string(staticNumel);
    if (roundGuard && bodyBarriers.empty())
      open("if (" + flat + " < " + Twine(staticNumel) + ")");
    else
      open("");
    idx = unflatten(*this, flat, shape, "i");
  } else {
    std::string flat = fresh("f");
    open("for (" + indexType() + " " + flat + " = tid; " + flat + " < " +
         numel + "; " + flat + " += " + Twine(numThreads) + ")");
    open("");
    idx = unflatten(*this, flat, shape, "i");
  }
  for (auto [v, arg] : llvm::enumerate(op.getInductionVars()))
    names[arg] = loop ? idx[varDim[v]] : idx[v];

  // Every thread runs every slot of the loop when no `tid <` or box test
  // is printed around the body (and the loop itself is reached by all).
  bool uniform = barriersAllowed && parallelReg.empty();
  if (!bodyBarriers.empty()) {
    // Every thread runs every slot (the tests are inside).
  } else if (loop) {
    uniform &= loop->threadExtent >= numThreads;
    for (auto [d, e] : llvm::enumerate(bound))
      uniform &= e >= loop->shape[d];
  } else {
    uniform &= whole || (isStatic && numThreads > 0 && !roundGuard);
  }
  llvm::SaveAndRestore<Block *> uniformBody(
      uniformParallelBody, uniform ? &op.getBody().front() : nullptr);
  std::string savedReg = parallelReg, savedGuard = replicaGuard;
  parallelReg = reg;
  // A replicated loop layout runs each iteration in every replica of its
  // element: replica 0 alone writes memory (two threads storing even the
  // same value to one address without a barrier between are a data race).
  if (loop && loop->repMask)
    replicaGuard = loop->oneReplica();
  else if (!loop)
    replicaGuard.clear();
  Block *savedBody = replicaBody;
  replicaBody = &op.getBody().front();
  exchangeForward.clear();
  LogicalResult r = success();
  if (bodyBarriers.empty()) {
    r = emitBlock(op.getBody().front(), /*allowBarriers=*/false);
  } else {
    llvm::SaveAndRestore<bool> noBarriers(barriersAllowed, false);
    Block &body = op.getBody().front();
    auto next = body.begin();
    for (unsigned k = 0; k <= bodyBarriers.size() && succeeded(r); ++k) {
      Operation *end = k < bodyBarriers.size() ? bodyBarriers[k] : nullptr;
      open(active.empty() ? "" : "if (" + active + ")");
      for (; next != body.end() && &*next != end && succeeded(r); ++next)
        r = emitStatement(&*next);
      close();
      if (end && succeeded(r)) {
        r = emitStatement(end);
        ++next;
      }
    }
  }
  exchangeForward.clear();
  parallelReg = savedReg;
  replicaGuard = savedGuard;
  replicaBody = savedBody;
  if (failed(r))
    return failure();
  if (!vectorStores.empty()) {
    close();
    // The run's vectors, at its first register's coordinates.
    SmallVector<std::string> at = emitCoords(*loop, group, "i");
    for (StoreOp s : vectorStores) {
      FailureOr<VectorAccess> a =
          ldsVectorStoreAccess(s, *loop, varDim, at, width);
      if (failed(a))
        return failure();
      Type elem = cast<BufferType>(s.getBuffer().getType()).getElementType();
      std::string slot = vectorSlot[s];
      slot = slot.substr(0, slot.find('['));
      std::string stmt = ns + "copyVector<" +
                         std::to_string(width * getElementStorageBytes(elem)) +
                         ">(" + a->address + ", " + slot + ");";
      line(loop->repMask ? "if (" + loop->oneReplica() + ") " + stmt : stmt);
      vectorSlot.erase(s);
    }
  }
  if (!bound.empty())
    close();
  close();
  close();
  close();
  if (!loadBack.empty()) {
    line(blockBarrier());
    for (Value root : loadBack)
      emitExchange(fragments[root], expr(root), exchanged[root],
                   /*toShared=*/false);
  }
  if (ex != exchanges.end())
    endAreaUse(op);
  return success();
}

FailureOr<std::string> Emitter::publishedElement(Operation *op, Value root,
                                                 ValueRange indices) {
  auto it = fragments.find(root);
  if (it == fragments.end() || !isa<LoadOp>(op) || !barriersAllowed ||
      !parallelReg.empty() || exchangeOffset < 0)
    return failure();
  // Every thread stores the registers it holds into the exchange area
  // (between two barriers: it is free, then complete), then reads the
  // element it asks for, whoever held it.
  line(blockBarrier() + "  // the exchange area is free");
  FailureOr<std::string> tile = declareExchangeTile(root, exchangeOffset, op);
  if (failed(tile))
    return failure();
  emitExchange(it->second, expr(root), *tile, /*toShared=*/true);
  line(blockBarrier());
  recordScalarExchangeRead(*tile, indices, it->second.shape);
  return *tile + "[" + rowMajorIndex(indices, it->second.shape) + "]";
}

/// The one thread the guards around \p op leave, when one of them (or a
/// conjunct of one) compares the block's linear thread index with a
/// constant: `T.get_thread_binding() == c` in a one-dimensional block.
static std::optional<int64_t> guardedThread(Operation *op, KernelOp kernel) {
  if (kernel.getStaticThreads().size() > 1)
    return std::nullopt;
  std::function<std::optional<int64_t>(Value)> fromCondition =
      [&](Value cond) -> std::optional<int64_t> {
    Operation *def = cond.getDefiningOp();
    if (auto conj = dyn_cast_or_null<arith::AndIOp>(def)) {
      if (std::optional<int64_t> t = fromCondition(conj.getLhs()))
        return t;
      return fromCondition(conj.getRhs());
    }
    auto cmp = dyn_cast_or_null<arith::CmpIOp>(def);
    if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq)
      return std::nullopt;
    for (auto [a, b] : {std::pair(cmp.getLhs(), cmp.getRhs()),
                        std::pair(cmp.getRhs(), cmp.getLhs())}) {
      auto tb = a.getDefiningOp<ThreadBindingOp>();
      IntegerAttr c;
      if (tb && tb.getDim() == 0 && matchPattern(b, m_Constant(&c)))
        return c.getInt();
    }
    return std::nullopt;
  };
  for (Operation *at = op; at && at != kernel.getOperation();
       at = at->getParentOp()) {
    auto ifOp = dyn_cast_or_null<IfOp>(at->getParentOp());
    if (!ifOp || at->getParentRegion() != &ifOp.getThenRegion())
      continue;
    if (std::optional<int64_t> t = fromCondition(ifOp.getCondition()))
      return t;
  }
  return std::nullopt;
}

FailureOr<std::string> Emitter::guardedHolderElement(Operation *op, Value root,
                                                     ValueRange indices) {
  auto it = fragments.find(root);
  auto kernel = op->getParentOfType<KernelOp>();
  if (it == fragments.end() || !isa<LoadOp>(op) || !parallelReg.empty() ||
      !kernel)
    return failure();
  SmallVector<int64_t> coord;
  for (Value i : indices) {
    IntegerAttr c;
    if (!matchPattern(i, m_Constant(&c)))
      return failure();
    coord.push_back(c.getInt());
  }
  std::optional<int64_t> thread = guardedThread(op, kernel);
  if (!thread)
    return failure();
  const layout::Fragment &layout = it->second.layout;
  for (int64_t r = 0; r < layout.getReplicate(); ++r)
    if (std::optional<layout::FragmentSlot> slot = layout.apply(coord, r);
        slot && slot->thread == *thread)
      return expr(root) + "[" + std::to_string(slot->index) + "]";
  return failure();
}

FailureOr<std::string> Emitter::declareExchangeTile(Value root,
                                                    int64_t offset,
                                                    Operation *at) {
  FailureOr<std::string> storage =
      storageType(cast<BufferType>(root.getType()).getElementType(), at);
  if (failed(storage))
    return failure();
  std::string tile = fresh("exchanged");
  line(*storage + " *" + tile + " = reinterpret_cast<" + *storage +
       " *>(smem + " + Twine(offset) + ");  // " + expr(root) +
       ", row-major");
  beginExchangeRecord(tile, root, offset, at);
  return tile;
}

void Emitter::emitExchange(const FragmentInfo &frag, StringRef name,
                           StringRef tile, bool toShared, Type from, Type to) {
  recordExchange(frag, tile, toShared);
  open(frag.threadExtent < numThreads
           ? "if (tid < " + Twine(frag.threadExtent) + ")"
           : Twine(""));
  // One replica stores; every replica loads.
  open(toShared ? frag.ifOneReplica() : std::string());
  std::string reg = fresh("r");
  line("#pragma unroll");
  open("for (int " + reg + " = 0; " + reg + " < " + Twine(frag.regs) +
       "; ++" + reg + ")");
  SmallVector<std::string> coords = emitCoords(frag, reg, "x");
  std::string shared =
      tile.str() + "[" + rowMajor(coords, frag.shape) + "]";
  std::string reg0 = name.str() + "[" + reg + "]";
  if (!toShared && from && to && from != to)
    shared = toStorage(to, fromStorage(from, shared));
  line(toShared ? shared + " = " + reg0 + ";" : reg0 + " = " + shared + ";");
  close();
  close();
  close();
}


//===----------------------------------------------------------------------===//
// T.fill / T.clear
//===----------------------------------------------------------------------===//

LogicalResult Emitter::emitFill(Operation *op, Value dst,
                                const std::string &value) {
  auto type = cast<BufferType>(dst.getType());
  Value root = rootOf(dst);
  std::string stored = toStorage(type.getElementType(), value);
  if (scopeOf(root) == MemoryScope::Fragment) {
    auto it = fragments.find(root);
    if (it == fragments.end()) {
      op->emitError() << "the " << lang.name
                      << " target has no layout for this fragment";
      return failure();
    }
    std::string r = fresh("r");
    line("#pragma unroll");
    if (root == dst) {
      line("for (int " + r + " = 0; " + r + " < " + Twine(it->second.regs) +
           "; ++" + r + ") " + expr(root) + "[" + r + "] = " + stored + ";");
      return success();
    }
    // Part of a fragment (`T.clear(C_local[0:64, 0:32])`): each thread
    // writes those of its registers whose element lies in the region.
    SmallVector<std::string> zeros(type.getRank(), "0");
    FailureOr<RootAccess> origin = resolve(dst, zeros, op);
    if (failed(origin))
      return failure();
    SmallVector<std::string> shape;
    std::string numel;
    if (failed(extents(type, op, shape, numel)))
      return failure();
    auto rootType = cast<BufferType>(root.getType());
    open("for (int " + r + " = 0; " + r + " < " + Twine(it->second.regs) +
         "; ++" + r + ")");
    SmallVector<std::string> coords = emitCoords(it->second, r, "x");
    std::string cond;
    auto conjoin = [&](const std::string &c) {
      cond += (cond.empty() ? "" : " && ") + c;
    };
    for (unsigned d = 0; d < type.getRank(); ++d) {
      const std::string &off = origin->indices[d];
      bool whole = off == "0" && type.getDim(d).isStatic() &&
                   rootType.getDim(d).isStatic() &&
                   type.getDim(d).getValue() >= rootType.getDim(d).getValue();
      if (whole)
        continue;
      if (off != "0")
        conjoin(coords[d] + " >= " + off);
      int64_t o = 0, e = 0;
      std::string end =
          off == "0" ? shape[d]
          : !StringRef(off).getAsInteger(10, o) &&
                  !StringRef(shape[d]).getAsInteger(10, e)
              ? std::to_string(o + e)
              : "(" + off + ") + " + shape[d];
      conjoin(coords[d] + " < " + end);
    }
    line((cond.empty() ? "" : "if (" + cond + ") ") + expr(root) + "[" + r +
         "] = " + stored + ";");
    close();
    return success();
  }
  // Memory: every element once, partitioned over the threads.
  SmallVector<std::string> shape;
  std::string numel;
  if (failed(extents(type, op, shape, numel)))
    return failure();
  bool perThread = scopeOf(root) == MemoryScope::Local ||
                   scopeOf(root) == MemoryScope::LocalVar ||
                   scopeOf(root) == MemoryScope::Reducer;
  std::string f = fresh("f");
  open("for (" + indexType() + " " + f + " = " + (perThread ? "0" : "tid") +
       "; " + f +
       " < " + numel + "; " + f + " += " +
       (perThread ? std::string("1") : std::to_string(numThreads)) + ")");
  SmallVector<std::string> idx = unflatten(*this, f, shape, "i");
  SmallVector<std::optional<IndexRange>> ranges;
  for (unsigned d = 0; d < type.getRank(); ++d)
    ranges.push_back(type.getDim(d).isStatic()
                         ? std::optional<IndexRange>(IndexRange{
                               0, type.getDim(d).getValue() - 1, 1})
                         : std::nullopt);
  auto element = guardedElement(dst, idx, op, ranges);
  if (failed(element))
    return failure();
  auto &[lv, cond] = *element;
  line((cond.empty() ? "" : "if (" + cond + ") ") + lv + " = " + stored +
       ";");
  close();
  return success();
}
