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
// that stage. One barrier per iteration, none trailing.
// Loops whose producers depend on anything but index arithmetic, or whose
// staged buffers something else writes, stay serial.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <functional>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

/// A copy from global memory into a whole shared buffer allocated outside
/// \p pipe: the producers a pipeline issues ahead with cp.async.
static bool isProducerCopy(Operation &op, PipelinedOp pipe) {
  auto copy = dyn_cast<CopyOp>(op);
  if (!copy)
    return false;
  Value dst = copy.getDst();
  auto alloc = dst.getDefiningOp<AllocOp>();
  if (!alloc || pipe->isAncestor(alloc) ||
      !isSharedScope(cast<BufferType>(dst.getType()).getScope()))
    return false;
  Value src = Emitter::rootOf(copy.getSrc());
  return Emitter::scopeOf(src) == MemoryScope::Global;
}

/// Index arithmetic and views: replayed where needed, not scheduled.
static bool isScalar(Operation &op) {
  return isa<RegionOp, AnnotateLayoutOp>(op) ||
         (op.getDialect() && isa<arith::ArithDialect>(op.getDialect()));
}

void Emitter::planPipeline(PipelinedOp pipe) {
  int64_t stages = pipe.getNumStages();
  Block &body = pipe.getBody().front();
  // Explicit `stage` / `order` (one entry per scheduled statement). The
  // CUDA target honours two-stage schedules: global -> shared copies in
  // stage 0 run max(stage) iterations ahead into max(stage) + 1 buffers,
  // everything else is in the last stage; `order` orders the copies'
  // issue and puts them before or after the compute, whose own order must
  // stay the program order.
  std::optional<ArrayRef<int64_t>> stageList = pipe.getStage(),
                                   orderList = pipe.getOrder();
  llvm::SmallPtrSet<Operation *, 4> stageZero;
  if (stageList || orderList) {
    PipelineSchedule sched;
    auto fail = [&](const Twine &msg) {
      sched.error = ("T.Pipelined: " + msg).str();
      pipelineSchedules[pipe.getOperation()] = sched;
      pipelineStages[pipe.getOperation()] = 0;
    };
    SmallVector<Operation *> stmts;
    for (Operation &op : body)
      if (!isScalar(op))
        stmts.push_back(&op);
    size_t n = stmts.size();
    if ((stageList && stageList->size() != n) ||
        (orderList && orderList->size() != n))
      return fail("'stage' and 'order' need one entry per statement of the "
                  "loop body (" +
                  Twine(n) + " here)");
    int64_t maxStage = stages > 0 ? stages - 1 : 0;
    SmallVector<bool> producer(n, false);
    if (stageList) {
      maxStage = *llvm::max_element(*stageList);
      for (auto [i, st] : llvm::enumerate(*stageList)) {
        if (st != 0 && st != maxStage)
          return fail("stage " + Twine(st) + " of statement " + Twine(i) +
                      ": the CUDA target pipelines global -> shared copies "
                      "in stage 0 and everything else in the last stage");
        if (st == 0 && maxStage > 0 && !isProducerCopy(*stmts[i], pipe))
          return fail("statement " + Twine(i) +
                      " is in stage 0 but is not a copy from global into a "
                      "whole shared buffer, which the CUDA target needs");
        producer[i] = st == 0 && maxStage > 0;
        if (producer[i])
          stageZero.insert(stmts[i]);
      }
      stages = maxStage + 1;
    } else {
      for (size_t i = 0; i < n; ++i)
        producer[i] = stages >= 2 && isProducerCopy(*stmts[i], pipe);
    }
    SmallVector<int64_t> rank;
    for (size_t i = 0; i < n; ++i)
      rank.push_back(orderList ? (*orderList)[i] : int64_t(i));
    SmallVector<int64_t> sorted(rank);
    llvm::sort(sorted);
    for (size_t i = 0; i < n; ++i)
      if (sorted[i] != int64_t(i))
        return fail("'order' must be a permutation of 0 .. " + Twine(n - 1));
    int64_t lastConsumer = -1, firstConsumer = int64_t(n), prev = -1;
    int64_t firstProducer = int64_t(n), lastProducer = -1;
    for (size_t i = 0; i < n; ++i) {
      if (producer[i]) {
        firstProducer = std::min(firstProducer, rank[i]);
        lastProducer = std::max(lastProducer, rank[i]);
        continue;
      }
      if (rank[i] < prev)
        return fail("'order' reorders compute statements " + Twine(i) +
                  " and earlier ones; the CUDA target keeps them in program "
                  "order");
      prev = rank[i];
      firstConsumer = std::min(firstConsumer, rank[i]);
      lastConsumer = std::max(lastConsumer, rank[i]);
    }
    if (lastProducer >= 0 && lastConsumer >= 0 &&
        !(lastProducer < firstConsumer || firstProducer > lastConsumer))
      return fail("'order' interleaves the stage-0 copies with the compute; "
                  "the CUDA target issues them all before or all after it");
    if (stages < 2) {
      // Not pipelined: a serial loop in program order.
      for (size_t i = 0; i < n; ++i)
        if (rank[i] != int64_t(i))
          return fail("'order' reorders a loop that is not pipelined");
      return;
    }
    SmallVector<std::pair<int64_t, Operation *>> byRank;
    for (size_t i = 0; i < n; ++i)
      if (producer[i])
        byRank.push_back({rank[i], stmts[i]});
    llvm::sort(byRank, [](auto &a, auto &b) { return a.first < b.first; });
    for (auto &[r, op] : byRank)
      sched.producerOrder.push_back(op);
    sched.producersLast = lastConsumer >= 0 && firstProducer > lastConsumer;
    pipelineSchedules[pipe.getOperation()] = sched;
  }
  if (stages < 2)
    return;
  // With an explicit stage list, not pipelining is an error.
  auto failExplicit = [&](StringRef msg) {
    if (!stageList)
      return;
    pipelineSchedules[pipe.getOperation()].error =
        ("T.Pipelined: " + msg).str();
    pipelineStages[pipe.getOperation()] = 0;
  };
  llvm::SmallPtrSet<Value, 4> produced;
  for (Operation &op : body) {
    if (!isProducerCopy(op, pipe) || (stageList && !stageZero.contains(&op)))
      continue;
    // Operands must come from outside or from pure index arithmetic.
    bool pure = true;
    std::function<bool(Value)> ok = [&](Value v) -> bool {
      Operation *def = v.getDefiningOp();
      if (!def || !pipe->isAncestor(def))
        return true;
      if (!isa<RegionOp>(def) &&
          !(def->getDialect() && isa<arith::ArithDialect>(def->getDialect())))
        return false;
      return llvm::all_of(def->getOperands(), ok);
    };
    for (Value v : op.getOperands())
      pure &= ok(v);
    Value dst = cast<CopyOp>(op).getDst();
    if (!pure || produced.contains(dst))
      return failExplicit("a stage-0 copy depends on more than index "
                          "arithmetic, or two write one buffer");
    produced.insert(dst);
  }
  if (produced.empty())
    return;
  // Nothing else in the loop may write a staged buffer.
  bool clean = true;
  pipe.getBody().walk([&](Operation *nested) {
    if (nested->getParentOp() == pipe.getOperation() &&
        isProducerCopy(*nested, pipe))
      return;
    SharedEffects e = sharedEffectsOf(nested);
    for (Value v : produced)
      clean &= !e.writes.contains(v.getAsOpaquePointer());
  });
  if (!clean)
    return failExplicit("a buffer a stage-0 copy fills is also written by "
                        "the compute");
  for (Value v : produced) {
    auto it = stagedBuffers.find(v);
    if (it != stagedBuffers.end() && it->second != stages)
      return failExplicit("a buffer is staged by two pipelines");
  }
  for (Value v : produced)
    stagedBuffers[v] = stages;
  pipelineStages[pipe.getOperation()] = stages;
}

LogicalResult Emitter::emitPipelined(PipelinedOp pipe) {
  auto sched = pipelineSchedules.find(pipe.getOperation());
  if (sched != pipelineSchedules.end() && !sched->second.error.empty()) {
    pipe.emitError(sched->second.error);
    return failure();
  }
  bool explicitOrder = sched != pipelineSchedules.end();
  bool producersLast = explicitOrder && sched->second.producersLast;
  int64_t stages = pipelineStages[pipe.getOperation()];
  beginOp(pipe, "T.Pipelined (num_stages = " + std::to_string(stages) +
                    ": cp.async into " + std::to_string(stages) +
                    " shared-memory stages)");
  Block &body = pipe.getBody().front();
  SmallVector<Operation *> producers, scalars;
  for (Operation &op : body) {
    if (isProducerCopy(op, pipe) &&
        stagedBuffers.count(cast<CopyOp>(op).getDst()))
      producers.push_back(&op);
    else if (isa<RegionOp>(op) ||
             (op.getDialect() && isa<arith::ArithDialect>(op.getDialect())))
      scalars.push_back(&op);
  }
  if (explicitOrder) { // issue in `order`
    SmallVector<Operation *> ordered;
    for (Operation *p : sched->second.producerOrder)
      if (llvm::is_contained(producers, p))
        ordered.push_back(p);
    producers = ordered;
  }
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
  // Issues the copies of iteration `iter` into `stage` (guarded by the
  // trip count).
  auto issue = [&](const std::string &iter,
                   const std::string &stage) -> LogicalResult {
    open("if (" + iter + " < " + ub + ")");
    names[pipe.getInductionVar()] = iter;
    for (Operation *s : scalars)
      if (failed(emitOp(s)))
        return failure();
    asyncCopy = true;
    for (Operation *p : producers) {
      Value dst = cast<CopyOp>(p).getDst();
      names[dst] = stagePtr(dst, stage);
      if (failed(emitOp(p)))
        return failure();
    }
    asyncCopy = false;
    close();
    line("tlc::cuda::cpAsyncCommit();");
    return success();
  };
  open("");
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
  line("tlc::cuda::cpAsyncWait<" + Twine(stages - 2) + ">();  // stage of " +
       iv + " landed");
  line("__syncthreads();  // ... for every thread; iteration " + iv +
       " - 1 is done with its stage");
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
  line(writeStage + " = " + writeStage + " + 1 == " + Twine(stages) +
       " ? 0 : " + writeStage + " + 1;");
  close();
  line("tlc::cuda::cpAsyncWaitAll();");
  close();
  return success();
}
