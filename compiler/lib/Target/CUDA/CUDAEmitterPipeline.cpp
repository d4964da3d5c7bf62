//===- CUDAEmitterPipeline.cpp - T.Pipelined with cp.async for CUDA -----===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Software pipelining of `T.Pipelined(..., num_stages = S)` with S >= 2:
// the loop's copies from global memory into whole shared buffers (the
// producers) get S shared-memory stages and run S - 1 iterations ahead as
// cp.async groups (one commit per iteration). Each iteration waits for its
// own stage with cp.async.wait_group S - 2 and one barrier; that barrier
// both publishes the stage and proves every thread is done with the stage
// the previous iteration read, so the prefetch issued after it may refill
// that stage. One barrier per iteration, none trailing. The wait's count
// and the async-proxy fence before the barrier (wgmma readers) are
// --tile-plan-pipeline-waits' (tile.async_wait, tile.async_proxy_fence).
// Which loops are multi-buffered, which copies are the producers and in
// which order they are issued is decided by --tile-plan-pipelines; this
// file prints that plan.
//
// A loop that --tile-warp-specialize gives a producer warpgroup is printed
// in two halves: the producer's elected thread walks the iterations,
// waiting on each stage's empty mbarrier before it expects the stage's
// bytes on its full mbarrier and issues the TMA boxes; the consumers wait
// on the full mbarrier, compute, and arrive on the empty one once the
// wgmma that read the stage has completed (its wait_group). The ring is
// num_stages deep and no block barrier is left in the loop. When the pass
// splits the producers into rings (attention's K and V), each ring has its
// own full and empty barriers: the producer fills the rings in turn, the
// consumers wait for a ring right before its first reader and release it
// right after its last.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/IR/PassConfigs.h"

#include "tlc/Dialect/Tile/Transforms/PipelineWaitPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

void Emitter::readPipelinePlan(KernelOp kernel) {
  pipelineStages.clear();
  stagedBuffers.clear();
  kernel.walk([&](Operation *op) {
    auto stages = op->getAttrOfType<IntegerAttr>("tile.stages");
    if (!stages)
      return;
    if (isa<PipelinedOp>(op))
      pipelineStages[op] = stages.getInt();
    else if (auto alloc = dyn_cast<AllocOp>(op))
      stagedBuffers[alloc.getResult()] = stages.getInt();
  });
}

LogicalResult Emitter::emitPipelined(PipelinedOp pipe) {
  if (wsProducerThreads && pipe->hasAttr("tile.ws_empty_barriers"))
    return emitWsConsumerLoop(pipe);
  bool producersLast = pipe->hasAttr("tile.producers_last");
  int64_t stages = pipelineStages[pipe.getOperation()];
  // tile-plan-tma: the producers are TMA copies completing on a ring of
  // one mbarrier per stage at this byte offset.
  auto tmaBarriers = pipe->getAttrOfType<IntegerAttr>("tile.tma_barriers");
  bool tma = tmaBarriers != nullptr;
  // How an iteration waits for its stage before its barrier (cp.async
  // groups left in flight, the async-proxy fence): tile-plan-pipeline-
  // waits' plan (checked here), or the same choice for IR that did not go
  // through the pass. TMA stages are waited for on their mbarriers.
  PipelineWait wait;
  if (!tma && isModulePlanned(pipe, kPipelineWaitsPlanned)) {
    FailureOr<PipelineWait> recorded = getPipelineWait(pipe, lang.hasAsyncCopy);
    if (failed(recorded))
      return failure();
    wait = *recorded;
  } else if (!tma) {
    wait = choosePipelineWait(pipe, lang.hasAsyncCopy);
  }
  beginOp(pipe, "T.Pipelined (num_stages = " + std::to_string(stages) +
                    (tma                 ? ": TMA into "
                     : lang.hasAsyncCopy ? ": cp.async into "
                                         : ": vector loads into ") +
                    std::to_string(stages) +
                    (tma ? " shared-memory stages, an mbarrier each)"
                     : lang.hasAsyncCopy ? " shared-memory stages)"
                                         : " LDS stages, issued ahead)"));
  Block &body = pipe.getBody().front();
  // A loop of wgmma gemms over several warpgroups (not warp-specialised):
  // the warpgroup index they place their operands by is broadcast once
  // before the loop instead of by each gemm in every iteration (a SHFL per
  // k-iteration). Not where a gemm is under a branch, which may renumber
  // tid for a thread range.
  llvm::scope_exit restoreWarpGroup(
      [&, old = wsWarpGroup] { wsWarpGroup = old; });
  if (wsWarpGroup.empty() && numThreads >= 256 && numThreads % 128 == 0) {
    bool wgmma = false, underBranch = false;
    pipe.walk([&](GemmOp g) {
      auto instr = g->getAttrOfType<StringAttr>("tile.instr");
      if (!instr || instr.getValue() != "wgmma")
        return;
      wgmma = true;
      for (Operation *p = g->getParentOp(); p != pipe; p = p->getParentOp())
        underBranch |= isa<IfOp>(p);
    });
    if (wgmma && !underBranch) {
      wsWarpGroup = fresh("warpGroup");
      line("const int " + wsWarpGroup +
           " = __shfl_sync(0xffffffff, tid / 128, 0);  // warp-uniform, for "
           "every gemm of the loop");
    }
  }
  // The producers (tile-plan-pipelines marks them) in issue order.
  SmallVector<std::pair<int64_t, Operation *>> ranked;
  SmallVector<Operation *> producers, scalars;
  for (Operation &op : body) {
    if (auto rank = op.getAttrOfType<IntegerAttr>("tile.prefetch"))
      ranked.push_back({rank.getInt(), &op});
    else if (isa<RegionOp>(op) ||
             (op.getDialect() && isa<arith::ArithDialect>(op.getDialect())))
      scalars.push_back(&op);
  }
  llvm::stable_sort(ranked,
                    [](auto &a, auto &b) { return a.first < b.first; });
  for (auto &[rank, op] : ranked)
    producers.push_back(op);
  std::string lb = expr(pipe.getLowerBound()), ub = expr(pipe.getUpperBound());
  llvm::DenseMap<Value, std::string> saved;
  for (Operation *p : producers) {
    Value dst = cast<CopyOp>(p).getDst();
    saved[dst] = names[dst];
  }
  // Stage `stage` of a staged buffer (an int expression).
  auto stagePtr = [&](Value buf, const std::string &stage) {
    auto t = cast<BufferType>(buf.getType());
    int64_t n = 1;
    for (int64_t e : t.getShape())
      n *= e;
    if (stage == "0")
      return saved[buf];
    return "(" + saved[buf] + " + " + stage + " * " + std::to_string(n) + ")";
  };
  // The stages' mbarriers and the parity of the read stage's phase (TMA).
  std::string full = tma ? fresh("full") : "", phase = tma ? fresh("phase") : "";
  // Issues the copies of iteration `iter` into `stage` (guarded by the
  // trip count).
  auto issue = [&](const std::string &iter,
                   const std::string &stage) -> LogicalResult {
    open("if (" + iter + " < " + ub + ")");
    names[pipe.getInductionVar()] = iter;
    for (Operation *s : scalars)
      if (failed(emitOp(s)))
        return failure();
    if (tma) {
      // One elected thread expects the stage's bytes and issues the boxes.
      int64_t bytes = 0;
      for (Operation *p : producers)
        bytes += tmaCopyBytes(cast<CopyOp>(p));
      std::string bar = "&" + full + "[" + stage + "]";
      open("if (tid == 0)");
      line("tlc::cuda::mbarrierArriveExpectTx(" + bar + ", " + Twine(bytes) +
           ");");
      for (Operation *p : producers) {
        Value dst = cast<CopyOp>(p).getDst();
        if (failed(emitTmaCopy(cast<CopyOp>(p), stagePtr(dst, stage), bar)))
          return failure();
      }
      close();
      close();
      return success();
    }
    // (Their instructions are tile-plan-copies': cp.async on CUDA.)
    issuingProducers = true;
    for (Operation *p : producers) {
      Value dst = cast<CopyOp>(p).getDst();
      names[dst] = stagePtr(dst, stage);
      if (failed(emitOp(p)))
        return failure();
    }
    issuingProducers = false;
    close();
    if (lang.hasAsyncCopy)
      line("tlc::cuda::cpAsyncCommit();");
    return success();
  };
  open("");
  if (tma) {
    line("uint64_t *" + full + " = reinterpret_cast<uint64_t *>(smem + " +
         Twine(tmaBarriers.getInt()) + ");  // the stages' full barriers");
    // Earlier ordinary writes to the stages (a reused area) are ordered
    // before the copy engine's by each writer's proxy fence and the
    // barrier that also publishes the initialised mbarriers.
    open("if (tid == 0)");
    open("for (int s = 0; s < " + Twine(stages) + "; ++s)");
    line("tlc::cuda::mbarrierInit(&" + full + "[s], 1);");
    close();
    line("tlc::cuda::mbarrierInitFence();");
    close();
    line("tlc::cuda::fenceProxyAsyncShared();");
    line(blockBarrier());
  }
  // Iteration lb + s fills stage s; the loop then rotates a read and a
  // write stage index (no division by the stage count).
  std::string it = indexType();
  for (int64_t s = 0; s + 1 < stages; ++s) {
    std::string iter = fresh("prologue");
    line("const " + it + " " + iter + " = " + lb + " + " + Twine(s) + ";");
    if (failed(issue(iter, std::to_string(s))))
      return failure();
  }
  std::string readStage = fresh("readStage"), writeStage = fresh("writeStage");
  line("int " + readStage + " = 0, " + writeStage + " = " +
       Twine(stages - 1) + ";");
  if (tma)
    line("uint32_t " + phase + " = 0;  // parity of the read stage's phase");
  std::string iv = define(pipe.getInductionVar(), "k");
  open("for (" + it + " " + iv + " = " + lb + "; " + iv + " < " + ub +
       "; ++" + iv + ")");
  std::string ahead = fresh("ahead");
  // The copies of iteration iv + stages - 1 go into the stage iteration
  // iv - 1 read; the barrier below proves every thread is done with it.
  // They are issued right after that barrier, or after the compute when
  // `order` puts them last.
  auto issueAhead = [&]() -> LogicalResult {
    line("const " + it + " " + ahead + " = " + iv + " + " +
         Twine(stages - 1) + ";  // into the stage iteration " + iv +
         " - 1 read");
    return issue(ahead, writeStage);
  };
  // Groups committed so far: stages - 1 + iv; the oldest pending one is
  // this iteration's.
  if (tma)
    line("tlc::cuda::mbarrierWait(&" + full + "[" + readStage + "], " + phase +
         ");  // stage of " + iv + " landed");
  else if (wait.asyncPending)
    line("tlc::cuda::cpAsyncWait<" + Twine(*wait.asyncPending) +
         ">();  // stage of " + iv + " landed");
  if (wait.proxyFence) // cp.async's writes, read by wgmma (async proxy)
    line("tlc::cuda::fenceProxyAsyncShared();");
  // Without asynchronous copies the stage was written by plain stores.
  line(blockBarrier() + "  // " +
       Twine(lang.hasAsyncCopy ? "... for every thread"
                               : "stage of " + iv + " written") +
       "; iteration " + iv + " - 1 is done with its stage");
  if (!producersLast && failed(issueAhead()))
    return failure();
  names[pipe.getInductionVar()] = iv;
  for (Operation *p : producers) {
    Value dst = cast<CopyOp>(p).getDst();
    names[dst] = stagePtr(dst, readStage);
    skipOps.insert(p);
  }
  LogicalResult r = emitBlock(body, true);
  for (Operation *p : producers)
    skipOps.erase(p);
  for (auto &[v, n] : saved)
    names[v] = n;
  if (failed(r))
    return failure();
  if (producersLast) {
    if (failed(issueAhead()))
      return failure();
    for (auto &[v, n] : saved)
      names[v] = n;
  }
  line(readStage + " = " + readStage + " + 1 == " + Twine(stages) + " ? 0 : " +
       readStage + " + 1;");
  if (tma)
    line("if (" + readStage + " == 0) " + phase + " ^= 1;");
  line(writeStage + " = " + writeStage + " + 1 == " + Twine(stages) +
       " ? 0 : " + writeStage + " + 1;");
  close();
  if (lang.hasAsyncCopy && !tma)
    line("tlc::cuda::cpAsyncWaitAll();");
  close();
  return success();
}

/// The producers of \p pipe (tile-plan-pipelines' copies) in issue order.
static SmallVector<CopyOp> producersOf(PipelinedOp pipe) {
  SmallVector<std::pair<int64_t, CopyOp>> ranked;
  for (Operation &op : pipe.getBody().front())
    if (auto rank = op.getAttrOfType<IntegerAttr>("tile.prefetch"))
      ranked.push_back({rank.getInt(), cast<CopyOp>(op)});
  llvm::stable_sort(ranked, [](auto &a, auto &b) { return a.first < b.first; });
  SmallVector<CopyOp> out;
  for (auto &[rank, copy] : ranked)
    out.push_back(copy);
  return out;
}

/// The rings of the warp-specialised loop \p pipe (tile-warp-specialize's
/// tile.ws_rings, 1 when absent) and the ring of its producer \p copy.
static int64_t ringsOf(PipelinedOp pipe) {
  auto rings = pipe->getAttrOfType<IntegerAttr>("tile.ws_rings");
  return rings ? rings.getInt() : 1;
}
static int64_t ringOf(CopyOp copy) {
  auto ring = copy->getAttrOfType<IntegerAttr>("tile.ws_ring");
  return ring ? ring.getInt() : 0;
}

/// The barrier of ring \p ring at stage \p stage in an array of
/// \p stages barriers per ring.
static std::string ringSlot(const std::string &stage, int64_t ring,
                            int64_t stages) {
  return ring ? stage + " + " + std::to_string(ring * stages) : stage;
}

/// The ops of \p kernel's body and of \p pipe's body (in program order)
/// that the loop bounds and the producers' sources depend on: what the
/// producer warpgroup recomputes (tile-warp-specialize checked that they
/// are index arithmetic and views of the function's tensors).
static SmallVector<Operation *> producerSlice(KernelOp kernel,
                                              PipelinedOp pipe) {
  llvm::SmallPtrSet<Operation *, 16> needed;
  SmallVector<Value> work{pipe.getLowerBound(), pipe.getUpperBound()};
  for (CopyOp copy : producersOf(pipe))
    work.push_back(copy.getSrc());
  // The one-shot TMA loads the producer issues before its loop.
  if (!kernel->hasAttr("tile.persistent_ctas"))
    for (Operation &op : kernel.getBody().front())
      if (auto copy = dyn_cast<CopyOp>(op);
          copy && copy->hasAttr("tile.tma_once"))
        work.push_back(copy.getSrc());
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || !kernel->isProperAncestor(def) || !needed.insert(def).second)
      continue;
    for (Value o : def->getOperands())
      work.push_back(o);
  }
  SmallVector<Operation *> slice;
  kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (needed.contains(op))
      slice.push_back(op);
  });
  return slice;
}

LogicalResult Emitter::emitWarpSpecializedBody(KernelOp kernel) {
  auto forgetWarpGroup = llvm::make_scope_exit([&] { wsWarpGroup.clear(); });
  PipelinedOp pipe;
  kernel.walk([&](PipelinedOp p) {
    if (p->hasAttr("tile.ws_empty_barriers"))
      pipe = p;
  });
  if (!pipe || !pipe->hasAttr("tile.tma_barriers")) {
    kernel.emitError("a warp-specialised kernel needs one TMA pipeline "
                     "planned by tile-warp-specialize");
    return failure();
  }
  int64_t stages = pipelineStages[pipe.getOperation()];
  int64_t rings = ringsOf(pipe);
  int64_t fullOffset =
      pipe->getAttrOfType<IntegerAttr>("tile.tma_barriers").getInt();
  int64_t emptyOffset =
      pipe->getAttrOfType<IntegerAttr>("tile.ws_empty_barriers").getInt();
  auto nreg = kernel->getAttrOfType<DenseI64ArrayAttr>("tile.ws_max_nreg");
  if (gemmPingPong && (!persistentCtas || rings != 1)) {
    kernel.emitError("consumer ping-pong over tiles (tile-gemm-pingpong) "
                     "needs a persistent kernel of one ring (internal error)");
    return failure();
  }
  // tile-gemm-pingpong: two consumer warpgroups, each the program's threads.
  int64_t consumers = blockThreads * (gemmPingPong ? 2 : 1);
  beginOp(pipe, "warp specialisation (tile-warp-specialize): threads [0, " +
                    std::to_string(consumers) + ") consume" +
                    (gemmPingPong ? " (two warpgroups, alternate tiles)" : "") +
                    ", the warpgroup [" + std::to_string(consumers) + ", " +
                    std::to_string(consumers + wsProducerThreads) + ") loads");
  wsFull = fresh("full");
  wsEmpty = fresh("empty");
  std::string ringText =
      rings == 1 ? ""
                 : " of ring r (index s + " + std::to_string(stages) + " * r)";
  line("uint64_t *" + wsFull + " = reinterpret_cast<uint64_t *>(smem + " +
       Twine(fullOffset) + ");  // stage s" + ringText + " landed");
  line("uint64_t *" + wsEmpty + " = reinterpret_cast<uint64_t *>(smem + " +
       Twine(emptyOffset) + ");  // stage s" + ringText + " is free again");
  open("if (tid == 0)");
  open("for (int s = 0; s < " + Twine(rings * stages) + "; ++s)");
  line("tlc::cuda::mbarrierInit(&" + wsFull + "[s], 1);");
  // tile-gemm-cluster: each warp of both blocks' consumers releases the
  // stage (both producers fill it); else each consumer thread.
  int64_t releases =
      gemmClusterAxis >= 0 ? 2 * (blockThreads / 32) : blockThreads;
  line("tlc::cuda::mbarrierInit(&" + wsEmpty + "[s], " + Twine(releases) +
       ");");
  close();
  // The one-shot TMA loads (attention's Q), which the producer issues
  // before its loop (a persistent kernel's threads load them).
  SmallVector<CopyOp> once;
  if (!persistentCtas)
    once = oneShotTmaLoads(kernel);
  for (CopyOp q : once)
    line("tlc::cuda::mbarrierInit(" + oneShotBarrier(q) +
         ", 1);  // the one-shot TMA load landed");
  line("tlc::cuda::mbarrierInitFence();");
  close();
  if (gemmClusterAxis >= 0) {
    anyCluster = true;
    line("// both blocks' rings are initialised before either block's "
         "multicast or remote arrival reaches them");
    line("tlc::cuda::clusterArrive();");
    line("tlc::cuda::clusterWait();");
  } else {
    line("__syncthreads();  // the rings are initialised (the last barrier of "
         "the whole launch)");
  }
  anyWgmma = true; // wgmma.h holds the setmaxnreg helpers

  // The producer warpgroup: one elected thread walks the iterations. The
  // role branch is on the warp-broadcast warpgroup index, so that nvcc
  // sees both roles as warp-uniform code.
  if (consumers % 128 == 0) {
    wsWarpGroup = fresh("warpGroup");
    line("const int " + wsWarpGroup +
         " = __shfl_sync(0xffffffff, (int)threadIdx.x / 128, 0);  // "
         "warp-uniform");
    open("if (" + wsWarpGroup + " >= " + Twine(consumers / 128) + ")");
  } else {
    wsWarpGroup.clear();
    open("if (tid >= " + Twine(consumers) + ")");
  }
  if (nreg)
    line("tlc::cuda::setMaxNRegDec<" + Twine(nreg[0]) + ">();");
  // The stages it fills, and the index arithmetic before the loop.
  SmallVector<CopyOp> producers = producersOf(pipe);
  for (CopyOp p : producers)
    if (failed(emitOp(p.getDst().getDefiningOp())))
      return failure();
  for (CopyOp q : once)
    if (failed(emitOp(q.getDst().getDefiningOp())))
      return failure();
  SmallVector<Operation *> slice = producerSlice(kernel, pipe);
  auto emitOutsideSlice = [&]() -> LogicalResult {
    for (Operation *op : slice)
      if (!pipe->isProperAncestor(op) && failed(emitOp(op)))
        return failure();
    return success();
  };
  if (!persistentCtas && failed(emitOutsideSlice()))
    return failure();
  open("if (tid == " + Twine(consumers) + ")");
  std::string stage = fresh("stage"), phase = fresh("phase");
  line("int " + stage + " = 0;");
  line("uint32_t " + phase + " = 0;  // parity of the stage's current use");
  for (CopyOp q : once)
    if (failed(issueOneShotTmaLoad(q, oneShotBarrier(q))))
      return failure();
  // A persistent kernel: the ring position carries over from tile to
  // tile, so the producer runs ahead into the next tile's stages.
  if (persistentCtas) {
    openPersistentTileLoop(kernel);
    if (failed(emitOutsideSlice()))
      return failure();
  }
  std::string it = indexType();
  std::string iv = define(pipe.getInductionVar(), "k");
  open("for (" + it + " " + iv + " = " + expr(pipe.getLowerBound()) + "; " +
       iv + " < " + expr(pipe.getUpperBound()) + "; ++" + iv + ")");
  if (rings == 1)
    line(std::string(gemmClusterAxis >= 0 ? "tlc::cuda::mbarrierWaitCluster(&"
                                          : "tlc::cuda::mbarrierWait(&") +
         wsEmpty + "[" + stage + "], " + phase + " ^ 1);  // the consumers" +
         (gemmClusterAxis >= 0 ? " of both blocks" : "") +
         " released the stage's previous use");
  for (Operation *op : slice)
    if (pipe->isProperAncestor(op) && failed(emitOp(op)))
      return failure();
  // Ring by ring: wait for the release of the ring's stage, expect its
  // bytes, issue its boxes.
  for (int64_t r = 0; r < rings; ++r) {
    std::string slot = ringSlot(stage, r, stages);
    if (rings > 1)
      line("tlc::cuda::mbarrierWait(&" + wsEmpty + "[" + slot + "], " + phase +
           " ^ 1);  // ring " + std::to_string(r) +
           ": the consumers released the stage's previous use");
    int64_t bytes = 0;
    for (CopyOp p : producers)
      if (ringOf(p) == r)
        bytes += tmaCopyBytes(p);
    std::string bar = "&" + wsFull + "[" + slot + "]";
    line("tlc::cuda::mbarrierArriveExpectTx(" + bar + ", " + Twine(bytes) +
         ");");
    for (CopyOp p : producers) {
      if (ringOf(p) != r)
        continue;
      Value dst = p.getDst();
      auto t = cast<BufferType>(dst.getType());
      int64_t n = 1;
      for (int64_t e : t.getShape())
        n *= e;
      std::string ptr =
          "(" + names[dst] + " + " + stage + " * " + std::to_string(n) + ")";
      if (failed(emitTmaCopy(p, ptr, bar)))
        return failure();
    }
  }
  line(stage + " = " + stage + " + 1 == " + Twine(stages) + " ? 0 : " + stage +
       " + 1;");
  line("if (" + stage + " == 0) " + phase + " ^= 1;");
  close();
  if (persistentCtas)
    close();
  close();
  close();

  // The consumers: the program's body, its barriers named among them.
  open("else");
  if (nreg)
    line("tlc::cuda::setMaxNRegInc<" + Twine(nreg[1]) + ">();");
  // tile-gemm-cluster: neither block exits while the other may still
  // multicast into it or arrive on its barriers.
  auto clusterExit = [&] {
    if (gemmClusterAxis < 0)
      return;
    line("// the peer block's last multicasts and releases reached this one");
    line("tlc::cuda::clusterArrive();");
    line("tlc::cuda::clusterWait();");
  };
  if (!persistentCtas) {
    if (failed(emitBlock(kernel.getBody().front(), /*allowBarriers=*/true)))
      return failure();
    close();
    clusterExit();
    return success();
  }
  // Ping-pong: warpgroup w runs the block's tiles w, w + 2, ... as the
  // program's threads 0..127.
  std::string group;
  if (gemmPingPong) {
    group = fresh("consumerGroup");
    std::string index = "(int)threadIdx.x / " + std::to_string(blockThreads);
    if (blockThreads == 128 && !wsWarpGroup.empty())
      index = wsWarpGroup;
    else if (blockThreads % 32 == 0)
      index = "__shfl_sync(0xffffffff, " + index + ", 0)";
    line("const int " + group + " = " + index +
         ";  // ping-pong (tile-gemm-pingpong): " +
         "this warpgroup runs every other tile");
    line("const int tid = (int)threadIdx.x % " + Twine(blockThreads) +
         ";  // the program's thread index within the warpgroup");
  }
  // Persistent: the body once per tile, the ring position carried over.
  wsReadStage = fresh("readStage");
  wsPhase = fresh("phase");
  wsLastStage = fresh("lastStage");
  line("int " + wsReadStage + " = 0;");
  line("int " + wsLastStage + " = -1;  // the stage of the group in flight");
  line("uint32_t " + wsPhase + " = 0;  // parity of the read stage's phase");
  if (gemmPingPong) {
    wsConsumerGroup = group;
    line("if (" + group + " != 0) tlc::cuda::namedBarrierArrive(" +
         Twine(gemmPingPong) + ", " + Twine(consumers) +
         ");  // warpgroup 0 takes the first turn at the tensor cores");
  }
  wsTile = openPersistentTileLoop(kernel, gemmPingPong ? group : "0",
                                  gemmPingPong ? 2 : 1);
  LogicalResult r = emitBlock(kernel.getBody().front(), /*allowBarriers=*/true);
  // Persistent attention: the consumers copy the next tile's Q into the
  // buffer this tile's gemms read, both warpgroups' halves of it.
  auto order = kernel->getAttrOfType<StringAttr>("tile.persistent_order");
  if (succeeded(r) && order && order.getValue() == "longest_first")
    line(blockBarrier() +
         "  // both warpgroups are done with this tile's Q (the next tile "
         "overwrites it)");
  wsReadStage.clear();
  wsPhase.clear();
  wsLastStage.clear();
  wsTile.clear();
  if (failed(r))
    return failure();
  close();
  // tile.tma_store_async (tile-persistent-gemm): the last tile's panels are
  // read before the block's shared memory goes (each epilogue waits for the
  // previous one's).
  bool tmaStores = false;
  kernel.walk([&](CopyOp c) { tmaStores |= c->hasAttr("tile.tma_store"); });
  if (tmaStores && kernel->hasAttr("tile.tma_store_async"))
    line("if (tid == 0) tlc::cuda::tmaStoreWaitRead();  // the last tile's "
         "panels are read");
  if (gemmPingPong) {
    // Warpgroup 0 took as many turns as were handed to it when the block
    // has an even number of tiles, warpgroup 1 when it has an odd one: the
    // other takes the last hand-over, so that every arrival is matched.
    int64_t tiles = 1;
    for (OpFoldResult g : kernel.getMixedGrid())
      tiles *= getConstantIntValue(g).value_or(1);
    std::string blockTiles = fresh("blockTiles");
    if (gemmClusterAxis >= 0)
      tiles /= 2; // the pairs of tile-gemm-cluster
    std::string block = "(int)" + persistentBlock();
    line("const int " + blockTiles + " = " + block + " < " + Twine(tiles) +
         " ? (" + Twine(tiles - 1) + " - " + block + ") / (int)" +
         persistentBlocks() + " + 1 : 0;");
    line("if (" + group + " == (" + blockTiles + " & 1)) { " +
         perGroupBarrier(gemmPingPong, consumers, /*arrive=*/false) +
         " }  // the last hand-over");
    wsConsumerGroup.clear();
  }
  close();
  clusterExit();
  return success();
}

LogicalResult Emitter::emitWsConsumerLoop(PipelinedOp pipe) {
  if (pipe->hasAttr("tile.ws_overlap"))
    return emitWsOverlapLoop(pipe);
  int64_t stages = pipelineStages[pipe.getOperation()];
  beginOp(pipe, "T.Pipelined (num_stages = " + std::to_string(stages) +
                    ": warp-specialised, the producer warpgroup loads " +
                    std::to_string(stages) +
                    " stages by TMA; full and empty mbarriers)");
  SmallVector<CopyOp> producers = producersOf(pipe);
  llvm::DenseMap<Value, std::string> saved;
  for (CopyOp p : producers)
    saved[p.getDst()] = names[p.getDst()];
  // tile-warp-specialize's wait depth: one wgmma group left in flight, so
  // iteration k releases the stage of k - 1.
  bool inFlight = false;
  pipe.walk([&](GemmOp g) { inFlight |= g->hasAttr("tile.wgmma_wait"); });
  open("");
  // A persistent kernel's consumers declared their ring position before
  // the tile loop (a GEMM's one ring with a group in flight, or the K and
  // V rings of attention, whose gemms each wait for their group).
  int64_t ringCount = ringsOf(pipe);
  bool carried = !wsReadStage.empty() && (inFlight || ringCount > 1);
  std::string readStage = carried ? wsReadStage : fresh("readStage");
  std::string phase = carried ? wsPhase : fresh("phase");
  std::string lastStage = !inFlight ? ""
                          : carried ? wsLastStage
                                    : fresh("lastStage");
  if (!carried) {
    line("int " + readStage + " = 0;");
    if (inFlight)
      line("int " + lastStage + " = -1;  // the stage of the group in flight");
    line("uint32_t " + phase + " = 0;  // parity of the read stage's phase");
  }
  // tile-warp-specialize's ping-pong: named barrier B + w is warpgroup w's
  // turn at the tensor cores (each gemm syncs on its own, then hands the
  // turn over once its group is committed); warpgroup 0 starts, and after
  // the loop it takes the turn warpgroup 1 handed over last.
  auto pingPong = pipe->getAttrOfType<IntegerAttr>("tile.ws_pingpong");
  pipe.walk([&](GemmOp g) {
    if (g->hasAttr("tile.ws_pingpong")) {
      wsTurnTake.insert(g);
      wsTurnHandOver.insert(g);
    }
  });
  if (pingPong)
    line("if (" + consumerWarpGroupIs(false) +
         ") tlc::cuda::namedBarrierArrive(" + Twine(pingPong.getInt()) + ", " +
         Twine(blockThreads) +
         ");  // ping-pong: warpgroup 0 takes the first turn");
  // tile-gemm-pingpong: the other warpgroup read the stages of the tile
  // before this one (its trip count is this tile's); then this
  // warpgroup's turn at the tensor cores.
  bool tileTurns = carried && gemmPingPong && !wsTile.empty();
  if (tileTurns) {
    std::string skip = fresh("skip");
    line("const long long " + skip + " = (long long)(" +
         expr(pipe.getUpperBound()) + ") - (long long)(" +
         expr(pipe.getLowerBound()) + ");");
    line("// the other warpgroup read the stages of the tile before this one");
    open("if (" + wsTile + " != (int)" + persistentBlock() + " && " + skip +
         " > 0)");
    line(readStage + " += (int)(" + skip + " % " + Twine(stages) + ");");
    line(phase + " ^= (uint32_t)((" + skip + " / " + Twine(stages) + ") & 1);");
    open("if (" + readStage + " >= " + Twine(stages) + ")");
    line(readStage + " -= " + Twine(stages) + ";");
    line(phase + " ^= 1;");
    close();
    close();
    line(perGroupBarrier(gemmPingPong, 2 * blockThreads, /*arrive=*/false) +
         "  // this warpgroup's turn at the tensor cores");
  }
  std::string it = indexType();
  std::string iv = define(pipe.getInductionVar(), "k");
  // tile-split-masks: first the iterations where the mask is all true
  // (left at the first that it is not), then the rest with the mask.
  IfOp split = pingPong || tileTurns || (carried && inFlight)
                   ? nullptr
                   : splitMaskOf(pipe);
  if (split)
    line(it + " " + iv + " = " + expr(pipe.getLowerBound()) + ";");
  for (int half = split ? 0 : 1; half < 2; ++half) {
    if (split)
      open("for (; " + iv + " < " + expr(pipe.getUpperBound()) + "; ++" + iv +
           ")");
    else
      open("for (" + it + " " + iv + " = " + expr(pipe.getLowerBound()) + "; " +
           iv + " < " + expr(pipe.getUpperBound()) + "; ++" + iv + ")");
    if (half == 0)
      maskAllTrue.insert(split);
    int64_t rings = ringsOf(pipe);
    if (rings == 1)
      line("tlc::cuda::mbarrierWait(&" + wsFull + "[" + readStage + "], " +
           phase + ");  // stage of " + iv + " landed");
    // Several rings: each ring's stage is waited for right before the first
    // op of the body that reads it and released right after the last one
    // (every gemm of such a loop waits for its wgmma group).
    Block &body = pipe.getBody().front();
    for (int64_t r = 0; rings > 1 && r < rings; ++r) {
      Operation *first = nullptr, *last = nullptr;
      for (CopyOp p : producers) {
        if (ringOf(p) != r)
          continue;
        for (Operation *user : p.getDst().getUsers()) {
          Operation *top = body.findAncestorOpInBlock(*user);
          if (!top || top == p.getOperation())
            continue;
          if (!first || top->isBeforeInBlock(first))
            first = top;
          if (!last || last->isBeforeInBlock(top))
            last = top;
        }
      }
      if (!first)
        return pipe.emitError("a ring of the warp-specialised loop has no "
                              "reader (internal error)");
      std::string slot = ringSlot(readStage, r, stages);
      linesBefore[first].push_back(
          "tlc::cuda::mbarrierWait(&" + wsFull + "[" + slot + "], " + phase +
          ");  // ring " + std::to_string(r) + ": stage of " + iv + " landed");
      linesAfter[last].push_back("tlc::cuda::mbarrierArrive(&" + wsEmpty + "[" +
                                 slot + "]);  // ring " + std::to_string(r) +
                                 ": its last reader is done with the stage");
    }
    for (CopyOp p : producers) {
      Value dst = p.getDst();
      auto t = cast<BufferType>(dst.getType());
      int64_t n = 1;
      for (int64_t e : t.getShape())
        n *= e;
      names[dst] = "(" + saved[dst] + " + " + readStage + " * " +
                   std::to_string(n) + ")";
      skipOps.insert(p);
    }
    LogicalResult r = emitBlock(body, true);
    maskAllTrue.clear();
    linesBefore.clear();
    linesAfter.clear();
    if (half == 1) {
      wsTurnTake.clear();
      wsTurnHandOver.clear();
    }
    for (CopyOp p : producers)
      skipOps.erase(p);
    for (auto &[v, n] : saved)
      names[v] = n;
    if (failed(r))
      return failure();
    // Several rings were released ring by ring above.
    if (rings == 1 && inFlight) {
      // The gemm waited for the previous iteration's group: its stage is read.
      line("if (" + lastStage + " >= 0) " +
           wsReleaseStage("&" + wsEmpty + "[" + lastStage + "]") +
           "  // the wgmma reading it completed");
      line(lastStage + " = " + readStage + ";");
    } else if (rings == 1) {
      // Every gemm of the loop waited for its wgmma group: the stage is read.
      line(wsReleaseStage("&" + wsEmpty + "[" + readStage + "]") +
           "  // the wgmma reading the stage completed");
    }
    line(readStage + " = " + readStage + " + 1 == " + Twine(stages) +
         " ? 0 : " + readStage + " + 1;");
    line("if (" + readStage + " == 0) " + phase + " ^= 1;");
    close();
  }
  // The last group is committed: the other warpgroup's turn, while this
  // one waits for its group and stores its tile.
  if (tileTurns)
    line(perGroupBarrier(gemmPingPong, 2 * blockThreads, /*arrive=*/true,
                         /*otherGroup=*/true) +
         "  // the other warpgroup's turn");
  if (inFlight)
    line("tlc::cuda::wgmmaWait<0>();  // the last group: C is complete");
  if (carried && inFlight) {
    // The next tile's loads may refill the last group's stage.
    line("if (" + lastStage + " >= 0) " +
         wsReleaseStage("&" + wsEmpty + "[" + lastStage + "]") +
         "  // the last group's stage, for the next tile");
    line(lastStage + " = -1;");
  }
  if (pingPong)
    line("if (" + consumerWarpGroupIs(true) + ") tlc::cuda::namedBarrierSync(" +
         Twine(pingPong.getInt()) + ", " + Twine(blockThreads) +
         ");  // ping-pong: the turn warpgroup 1 handed over last");
  close();
  return success();
}
