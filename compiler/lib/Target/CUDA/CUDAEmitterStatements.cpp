//===- CUDAEmitterStatements.cpp - CUDA statements ------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CUDA emitter's statements: blocks, the dispatch of each op to its
// printer, control flow, and scalar loads and stores of buffers and
// fragment registers.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"
#include "SafeValue.h"

#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"
#include "tlc/Dialect/Tile/Transforms/Passes.h"
#include "tlc/Dialect/Tile/Transforms/SharedAccesses.h"
#include "tlc/Dialect/Tile/Transforms/SharedStoragePlan.h"
#include "tlc/Target/Artifact/ShapeExpr.h"
#include "tlc/Target/Artifact/SharedMemoryLimits.h"
#include "tlc/Target/Cpp/KernelInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

LogicalResult Emitter::emitBlock(Block &block, bool allowBarriers) {
  // The barriers between the statements are tile-insert-barriers'
  // `tile.barrier` ops, printed where they stand.
  llvm::SaveAndRestore<bool> scope(barriersAllowed, allowBarriers);
  for (Operation &op : block)
    if (failed(emitStatement(&op)))
      return failure();
  return success();
}

LogicalResult Emitter::emitStatement(Operation *op) {
  if (skipOps.contains(op))
    return success();
  if (auto before = linesBefore.find(op); before != linesBefore.end())
    for (const std::string &l : before->second)
      line(l);
  if (auto after = linesAfter.find(op);
      after != linesAfter.end() && lazySelects.deferred.contains(op)) {
    // It runs in the branch of a select later in its block: what follows
    // it (a ring's release) follows that select.
    Operation *sel = op;
    while (lazySelects.deferred.contains(sel))
      sel = llvm::find_if(lazySelects.sides, [&](const auto &entry) {
              return llvm::is_contained(entry.second.first, sel) ||
                     llvm::is_contained(entry.second.second, sel);
            })->first;
    SmallVector<std::string, 1> lines = std::move(after->second);
    linesAfter.erase(after);
    llvm::append_range(linesAfter[sel], lines);
  }
  if (failed(emitOp(op)))
    return failure();
  if (auto after = linesAfter.find(op); after != linesAfter.end())
    for (const std::string &l : after->second)
      line(l);
  return success();
}

LogicalResult Emitter::checkStretches(ParallelOp op,
                                      ArrayRef<Operation *> barriers) {
  if (Operation *user =
          findUseAcrossBarriers(op.getBody().front(), barriers))
    return user->emitError()
           << "the " << lang.name
           << " target runs the stretches of a T.Parallel body between "
              "grid barriers under the element's tests: a value "
              "computed before the barrier cannot be used after it "
              "(keep it in a fragment or local buffer)";
  return success();
}

LogicalResult Emitter::emitOp(Operation *op) {
  // Run by the lazy select they feed (CUDAEmitterLazySelect.cpp).
  if (lazySelects.deferred.contains(op))
    return success();
  if (lazySelects.sides.contains(op))
    return emitLazySelect(op);
  // Tile operations are partitioned over the threads of their range: the
  // block, or the warps `T.ws(g)` / `if tx < c` select (TileLang lays such
  // an op out for the threads of the branch). A condition that is not a
  // warp-aligned range is refused, not miscompiled.
  auto perThread = [](Value buffer) {
    auto type = dyn_cast<BufferType>(buffer.getType());
    return type && (type.getScope() == MemoryScope::Local ||
                    type.getScope() == MemoryScope::LocalVar ||
                    type.getScope() == MemoryScope::Reducer);
  };
  // A fill of a T.alloc_local buffer, or a copy into or out of one, is
  // every thread's own (as in TileLang): not partitioned, no range.
  bool perThreadOp =
      (isa<FillOp>(op) && perThread(cast<FillOp>(op).getDst())) ||
      (isa<ClearOp>(op) && perThread(cast<ClearOp>(op).getDst())) ||
      (isa<CopyOp>(op) && isPerThreadCopy(cast<CopyOp>(op)));
  if ((isa<ParallelOp, CopyOp, GemmOp, ReduceOp, CumSumOp, FillOp, ClearOp>(
           op) &&
       !perThreadOp) ||
      (isa<AtomicAddOp>(op) && op->getNumResults() == 0 &&
       isa<BufferType>(op->getOperand(op->getNumOperands() - 1).getType()))) {
    if (!parallelReg.empty() && !isa<ParallelOp>(op)) {
      // Nested in a T.Parallel: per-thread already (the loop's checks).
    } else {
      FailureOr<ThreadRange> r = rangeOfOp(op);
      if (failed(r))
        return failure();
      if (*r != range) {
        InFlightDiagnostic d =
            op->emitError()
            << "a tile operation under a condition on the thread index "
               "(threads ["
            << r->lo << ", " << r->hi
            << ")) must sit directly in that condition's branch on the "
            << lang.name
            << " target (a loop or a block-uniform branch in between is "
               "fine)";
        if (r->condition)
          d.attachNote(r->condition->getLoc()) << "the condition";
        return failure();
      }
      if (failed(checkFragmentRanges(op)))
        return failure();
    }
  }
  if (auto alloc = dyn_cast<AllocOp>(op))
    return emitAlloc(alloc);
  if (isa<RegionOp, AnnotateLayoutOp>(op))
    return success(); // views are resolved at their uses
  if (auto view = dyn_cast<ViewOp>(op))
    return emitView(view);
  if (auto mk = dyn_cast<MakeTensorOp>(op)) {
    // T.make_tensor / T.Tensor.from_ptr: a global tensor at the address a
    // `T.ptr` parameter (or a pointer table) holds.
    auto type = cast<BufferType>(mk.getType());
    FailureOr<std::string> t = storageType(type.getElementType(), op);
    if (failed(t))
      return failure();
    std::string name = define(mk.getResult(), "tensor");
    beginOp(op, "T.make_tensor " + type.getShapeString());
    line(*t + " *__restrict__ " + name + " = reinterpret_cast<" + *t + " *>(" +
         expr(mk.getPtr()) + ");");
    return success();
  }
  // A scalar load or store prints no comment, but its lines map to its own
  // statement (the sim's and the LSP's places), not to the last tile op;
  // the lines after it (a loop's closing braces) keep the enclosing op's.
  if (isa<LoadOp, StoreOp>(op) && getFileLoc(op->getLoc())) {
    Location enclosing = currentLoc;
    currentLoc = op->getLoc();
    LogicalResult r = isa<LoadOp>(op) ? emitLoad(cast<LoadOp>(op))
                                      : emitStore(cast<StoreOp>(op));
    currentLoc = enclosing;
    return r;
  }
  if (auto load = dyn_cast<LoadOp>(op))
    return emitLoad(load);
  if (auto store = dyn_cast<StoreOp>(op))
    return emitStore(store);
  if (auto par = dyn_cast<ParallelOp>(op))
    return emitParallel(par);
  if (auto copy = dyn_cast<CopyOp>(op)) {
    // T.async_copy / a copy in T.attr(..., "async_scope", 1): cp.async,
    // committed as a group of its own for T.async_copy; the program waits
    // (T.ptx_wait_group). Chunks too small for cp.async stay plain stores.
    // (tile-plan-copies chooses cp.async for such a copy; a producer of a
    // multi-buffered loop is committed with its iteration's group.)
    auto async = copy->getAttrOfType<StringAttr>("tile.async_copy");
    LogicalResult r = emitCopy(copy);
    if (succeeded(r) && async && async.getValue() == "commit" &&
        lang.hasAsyncCopy && !issuingProducers)
      line("tlc::cuda::cpAsyncCommit();");
    return r;
  }
  if (auto gemm = dyn_cast<GemmOp>(op))
    return emitGemm(gemm);
  if (auto red = dyn_cast<ReduceOp>(op))
    return emitReduce(red);
  if (auto cs = dyn_cast<CumSumOp>(op))
    return emitCumSum(cs);
  if (auto at = dyn_cast<AtomicAddOp>(op))
    return emitAtomicAdd(at);
  if (auto pr = dyn_cast<PrintOp>(op))
    return emitPrint(pr);
  if (auto as = dyn_cast<DeviceAssertOp>(op))
    return emitDeviceAssert(as);
  if (auto as = dyn_cast<AssumeOp>(op)) {
    // nvcc and HIP's clang take it as a fact; the sim checks it.
    beginOp(op, "T.assume");
    line("__builtin_assume(" + expr(as.getCondition()) + ");");
    return success();
  }
  if (isa<UseSwizzleOp>(op))
    return success(); // applied at the kernel's block indices
  if (auto fill = dyn_cast<FillOp>(op)) {
    beginOp(op, "T.fill");
    return emitFill(op, fill.getDst(), expr(fill.getValue()));
  }
  if (auto clear = dyn_cast<ClearOp>(op);
      clear && clear->hasAttr("tile.tcgen05_clear")) {
    beginOp(op, "T.clear");
    line("// cleared by the first tcgen05.mma of the gemm after this branch");
    return success();
  }
  if (auto clear = dyn_cast<ClearOp>(op)) {
    beginOp(op, "T.clear");
    return emitFill(op, clear.getDst(), "0");
  }
  if (auto sync = dyn_cast<SyncThreadsOp>(op)) {
    beginOp(op, "T.sync_threads");
    if (sync.getBarrierId() && !lang.hasNamedBarriers) {
      op->emitError() << "T.sync_threads(barrier_id=...): " << lang.name
                      << " has no named barriers over part of the block";
      return failure();
    }
    if (sync.getBarrierId())
      line("tlc::cuda::namedBarrierSync(" + Twine(*sync.getBarrierId()) + ", " +
           Twine(sync.getArriveCount().value_or(blockThreads)) + ");");
    else // under a thread range: the range's threads
      line(blockBarrier());
    return success();
  }
  if (auto barrier = dyn_cast<BarrierOp>(op)) {
    // Placed by tile-insert-barriers, among the threads of the range
    // being emitted.
    currentLoc = op->getLoc();
    if (!barriersAllowed || !parallelReg.empty()) {
      op->emitError("a barrier where the threads of its range do not run "
                    "together (inside a T.Parallel, or under a condition that "
                    "may differ between them)");
      return failure();
    }
    if (barrier.getFenceProxyAsync())
      line("tlc::cuda::fenceProxyAsyncShared();");
    line(blockBarrier() + "  // " + barrier.getReason().str());
    return success();
  }
  if (auto sym = dyn_cast<SymbolOp>(op)) {
    auto it = symbolNames.find(sym.getName());
    names[sym.getResult()] =
        it != symbolNames.end() ? it->second : sym.getName().str();
    return success();
  }
  if (auto tb = dyn_cast<ThreadBindingOp>(op)) {
    // Blocks are launched one-dimensional (`tid` is threadIdx.x); the
    // thread index along dimension d of threads = [X, Y, Z] is its digit of
    // the linear index, x fastest, as CUDA numbers the threads of a block.
    ArrayRef<int64_t> dims;
    if (auto kernel = tb->getParentOfType<KernelOp>())
      dims = kernel.getStaticThreads();
    unsigned d = tb.getDim();
    std::string index = "(" + indexType() + ")threadIdx.x";
    if (d >= dims.size()) {
      names[tb.getResult()] = d == 0 ? index : "0";
      return success();
    }
    int64_t below = 1;
    for (unsigned i = 0; i < d; ++i)
      below *= dims[i];
    if (below > 1)
      index = "(" + index + " / " + std::to_string(below) + ")";
    if (d + 1 < dims.size())
      index = "(" + index + " % " + std::to_string(dims[d]) + ")";
    names[tb.getResult()] = index;
    return success();
  }
  if (auto forOp = dyn_cast<ForOp>(op)) {
    beginOp(op, "for");
    std::string iv = define(forOp.getInductionVar(), "i");
    // unroll_factor=n (T.unroll / T.serial): TileLang's
    // pragma_unroll_factor, `#pragma unroll n` (nvcc and HIP's clang take
    // a positive integer constant; 1 keeps the loop rolled).
    if (std::optional<uint64_t> factor = forOp.getUnrollFactor()) {
      if (int64_t(*factor) <= 0)
        return forOp.emitError()
               << "unroll_factor must be a positive integer, got "
               << int64_t(*factor);
      line("#pragma unroll " + Twine(*factor));
    } else if (forOp.getKind() != LoopKind::Serial) {
      line("#pragma unroll");
    }
    open("for (" + indexType() + " " + iv + " = " +
         expr(forOp.getLowerBound()) + "; " +
         iv + " < " + expr(forOp.getUpperBound()) + "; " + iv + " += " +
         expr(forOp.getStep()) + ")");
    if (failed(emitBlock(forOp.getBody().front(),
                         barriersAllowed && parallelReg.empty())))
      return failure();
    close();
    return success();
  }
  if (auto pipe = dyn_cast<PipelinedOp>(op)) {
    if (pipelineStages.count(pipe.getOperation()))
      return emitPipelined(pipe);
    beginOp(op, "T.Pipelined (num_stages = " +
                    std::to_string(pipe.getNumStages()) +
                    "; emitted as a serial loop)");
    std::string iv = define(pipe.getInductionVar(), "k");
    open("for (" + indexType() + " " + iv + " = " +
         expr(pipe.getLowerBound()) + "; " +
         iv + " < " + expr(pipe.getUpperBound()) + "; ++" + iv + ")");
    if (failed(emitBlock(pipe.getBody().front(), barriersAllowed)))
      return failure();
    close();
    return success();
  }
  if (auto ifOp = dyn_cast<IfOp>(op)) {
    if (std::optional<std::string> exit = uniformLoopExit(ifOp)) {
      beginOp(op, "if ...: " + *exit + " (decided for the whole block)");
      line("if (__syncthreads_or(" + expr(ifOp.getCondition()) + ")) " + *exit +
           ";");
      return success();
    }
    beginOp(op, "if");
    // Every thread takes the same branch of a block-uniform condition, so
    // the branch may hold barriers of its own (a copy into shared memory
    // and the gemm that reads it under `if mask[...]`).
    bool uniform = barriersAllowed && parallelReg.empty() &&
                   !mayVaryAcrossThreads(ifOp.getCondition());
    // A branch that a warp-aligned range of threads takes (T.ws, `if tx <
    // c`) partitions its tile operations over those threads and
    // synchronises them with a named barrier.
    // Inside the else branch of `tx < c and u` (u the same for every
    // thread: `elif` after `if tx < 64 and cta_id == 0`), whose threads are
    // no range, a nested branch is one where threadRangeOf finds the same
    // range whatever u is (`elif 128 <= tx < 256`).
    bool ranged = (barriersAllowed || rangesInUniformConjunctElse) &&
                  parallelReg.empty() && !uniform;
    auto emitBranch = [&](Block &b) {
      if (ranged)
        if (std::optional<ThreadRange> r = branchRange(ifOp, *b.getParent()))
          return emitRangeBlock(b, *r);
      bool conjunctElse = false;
      if (ranged && &b == ifOp.elseBlock())
        if (auto both = ifOp.getCondition().getDefiningOp<arith::AndIOp>())
          conjunctElse = !mayVaryAcrossThreads(both.getLhs()) ||
                         !mayVaryAcrossThreads(both.getRhs());
      llvm::SaveAndRestore<bool> keep(
          rangesInUniformConjunctElse,
          rangesInUniformConjunctElse || conjunctElse);
      return emitBlock(b, uniform);
    };
    // tile-split-masks' all-true side of a split loop: the then side only
    // (nothing when the next wgmma's scale-d clears C).
    if (maskAllTrue.contains(op)) {
      line("if (!(" + expr(ifOp.getCondition()) +
           ")) break;  // not all true from here on: the masked loop");
      if (ifOp->hasAttr("tile.split_mask_scale_d")) {
        line("// all true here: the next gemm's scale-d = 0 clears C");
        return success();
      }
      open("");
      if (failed(emitBranch(*ifOp.thenBlock())))
        return failure();
      close();
      return success();
    }
    // tile-split-masks: the then side's fill is the next wgmma's scale-d.
    if (ifOp->hasAttr("tile.split_mask_scale_d") && ifOp.elseBlock()) {
      line("// else the next gemm's scale-d = 0 clears C");
      open("if (!(" + expr(ifOp.getCondition()) + "))");
      if (failed(emitBranch(*ifOp.elseBlock())))
        return failure();
      close();
      return success();
    }
    open("if (" + expr(ifOp.getCondition()) + ")");
    if (failed(emitBranch(*ifOp.thenBlock())))
      return failure();
    if (Block *elseBlock = ifOp.elseBlock()) {
      --indent;
      open("} else");
      if (failed(emitBranch(*elseBlock)))
        return failure();
    }
    close();
    return success();
  }
  if (auto whileOp = dyn_cast<WhileOp>(op)) {
    beginOp(op, "while");
    Block &cond = whileOp.getCond().front();
    auto condition = dyn_cast<ConditionOp>(cond.getTerminator());
    bool uniform = barriersAllowed && parallelReg.empty() && condition &&
                   !mayVaryAcrossThreads(condition.getCondition());
    open("while (true)");
    for (Operation &c : cond) {
      if (auto condition = dyn_cast<ConditionOp>(c)) {
        line("if (!(" + expr(condition.getCondition()) + ")) break;");
        continue;
      }
      if (failed(emitOp(&c)))
        return failure();
    }
    if (failed(emitBlock(whileOp.getBody().front(), uniform)))
      return failure();
    close();
    return success();
  }
  if (auto intrinsic = dyn_cast<IntrinsicOp>(op))
    return emitIntrinsic(intrinsic);
  if (auto cancel = dyn_cast<ClcTryCancelOp>(op))
    return emitClcTryCancel(cancel);
  if (auto query = dyn_cast<ClcQueryOp>(op))
    return emitClcQuery(query);
  if (op->getDialect() &&
      isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return emitScalar(op);
  op->emitError() << "'" << op->getName()
                  << "' is not supported by the " << lang.name
                  << " target yet";
  return failure();
}

FailureOr<std::string> Emitter::fragmentRegister(Operation *op, Value buffer,
                                                 ValueRange indices) {
  Value root = rootOf(buffer);
  auto it = fragmentAccess.find(op);
  if (it != fragmentAccess.end())
    return it->second;
  auto ex = exchangeReads.find(op);
  if (ex != exchangeReads.end())
    return ex->second.first + "[" +
           rowMajorIndex(indices, fragments[ex->second.second].shape) + "]";
  // Scalar code (outside T.Parallel, or inside one at indices that are not
  // loop variables): any indices into a fragment every thread holds whole
  // (a fully replicated layout, its registers row-major: checked).
  auto info = fragments.find(root);
  if (info != fragments.end() && root == buffer &&
      isWholeInEveryThread(info->second)) {
    SmallVector<int64_t> coord;
    for (Value i : indices) {
      IntegerAttr c;
      if (!matchPattern(i, m_Constant(&c)))
        break;
      coord.push_back(c.getInt());
    }
    if (coord.size() == indices.size()) {
      std::optional<layout::FragmentSlot> slot =
          info->second.layout.apply(coord, 0);
      if (slot)
        return expr(root) + "[" + std::to_string(slot->index) + "]";
    } else {
      return expr(root) + "[" + rowMajorIndex(indices, info->second.shape) +
             "]";
    }
  }
  if (info != fragments.end() && root == buffer)
    if (FailureOr<std::string> e = guardedHolderElement(op, root, indices);
        succeeded(e))
      return *e;
  if (info != fragments.end() && root == buffer)
    if (FailureOr<std::string> e = publishedElement(op, root, indices);
        succeeded(e))
      return *e;
  op->emitError() << "the " << lang.name
                  << " target accesses fragments only inside a T.Parallel at "
                     "the loop variables, or in scalar code when every thread "
                     "holds the whole fragment or reads it where the block "
                     "may meet at a barrier";
  return failure();
}

LogicalResult Emitter::emitLoad(LoadOp op) {
  auto type = cast<BufferType>(op.getBuffer().getType());
  Value root = rootOf(op.getBuffer());
  FailureOr<std::string> vt = valueType(op.getType(), op);
  if (failed(vt))
    return failure();
  std::string name = define(op.getResult(), "x");
  if (scopeOf(root) == MemoryScope::Fragment) {
    FailureOr<std::string> reg = fragmentRegister(op, op.getBuffer(),
                                                  op.getIndices());
    if (failed(reg))
      return failure();
    auto forwarded = exchangeForward.find(*reg);
    line("const " + *vt + " " + name + " = " +
         fromStorage(type.getElementType(),
                     forwarded != exchangeForward.end() ? forwarded->second
                                                        : *reg) +
         ";");
    return success();
  }
  FailureOr<std::pair<std::string, std::string>> access =
      elementAccess(op.getBuffer(), op.getIndices(), op);
  if (failed(access))
    return failure();
  const auto &[lv, cond] = *access;
  std::string value = fromStorage(type.getElementType(), lv);
  if (!cond.empty())
    value = "(" + cond + ") ? " + *vt + "(" + value + ") : " + *vt + "(" +
            safeValueOf(op, root, type.getElementType()) + ")";
  line("const " + *vt + " " + name + " = " + value + ";");
  return success();
}

LogicalResult Emitter::emitStore(StoreOp op) {
  auto type = cast<BufferType>(op.getBuffer().getType());
  Value root = rootOf(op.getBuffer());
  std::string value = toStorage(type.getElementType(), expr(op.getValue()));
  // A register slot of a vector stored after the run (HIP T.Parallel).
  if (auto slot = vectorSlot.find(op); slot != vectorSlot.end()) {
    line(slot->second + " = " + value + ";");
    return success();
  }
  if (scopeOf(root) == MemoryScope::Fragment) {
    FailureOr<std::string> reg = fragmentRegister(op, op.getBuffer(),
                                                  op.getIndices());
    if (failed(reg))
      return failure();
    // A register: every replica keeps its copy. The exchange tile in
    // shared memory: one replica stores each element.
    bool shared = exchangeStores.count(op) || exchangeReads.count(op);
    if (!shared || replicaGuard.empty()) {
      line(*reg + " = " + value + ";");
      return success();
    }
    exchangeForward.erase(*reg);
    auto copy = replicaCopy.find(op);
    if (copy != replicaCopy.end()) {
      // Every replica keeps the element in its copy, which loads read.
      line(copy->second + " = " + value + ";");
      value = copy->second;
    } else if (exchangeStores.count(op) && op->getBlock() == replicaBody) {
      // Later loads of this element in the iteration read the value, not
      // the tile the other replicas did not store to.
      FailureOr<std::string> st = storageType(type.getElementType(), op);
      if (failed(st))
        return failure();
      std::string stored = fresh("stored");
      line("const " + *st + " " + stored + " = " + value + ";");
      value = stored;
      exchangeForward[*reg] = stored;
    }
    line(guardedStatement("", *reg + " = " + value + ";"));
    return success();
  }
  FailureOr<std::pair<std::string, std::string>> access =
      elementAccess(op.getBuffer(), op.getIndices(), op);
  if (failed(access))
    return failure();
  const auto &[lv, cond] = *access;
  // Per-thread buffers are registers too. (A reducer's contributions come
  // from one replica of a replicated loop: guardedStatement.)
  if (scopeOf(root) == MemoryScope::Local ||
      scopeOf(root) == MemoryScope::LocalVar)
    line((cond.empty() ? "" : "if (" + cond + ") ") + lv + " = " + value +
         ";");
  else
    line(guardedStatement(cond, lv + " = " + value + ";"));
  return success();
}

std::string Emitter::guardedStatement(StringRef cond,
                                      StringRef statement) const {
  std::string all = replicaGuard;
  if (!cond.empty())
    all = all.empty() ? cond.str() : all + " && (" + cond.str() + ")";
  if (all.empty())
    return statement.str();
  return "if (" + all + ") " + statement.str();
}
