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
// cp.async groups (one commit per iteration); the rest of the body (the
// consumers) waits for its stage with cp.async.wait_group S - 1 and a
// barrier, and a trailing barrier frees the stage for the next prefetch.
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

void Emitter::planPipeline(PipelinedOp pipe) {
  int64_t stages = pipe.getNumStages();
  if (stages < 2)
    return;
  Block &body = pipe.getBody().front();
  llvm::SmallPtrSet<Value, 4> produced;
  for (Operation &op : body) {
    if (!isProducerCopy(op, pipe))
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
      return;
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
    return;
  for (Value v : produced) {
    auto it = stagedBuffers.find(v);
    if (it != stagedBuffers.end() && it->second != stages)
      return; // one staging per buffer
  }
  for (Value v : produced)
    stagedBuffers[v] = stages;
  pipelineStages[pipe.getOperation()] = stages;
}

LogicalResult Emitter::emitPipelined(PipelinedOp pipe) {
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
  std::string lb = expr(pipe.getLowerBound()), ub = expr(pipe.getUpperBound());
  llvm::DenseMap<Value, std::string> saved;
  for (Operation *p : producers) {
    Value dst = cast<CopyOp>(p).getDst();
    saved[dst] = names[dst];
  }
  auto stagePtr = [&](Value buf, const std::string &iter) {
    auto t = cast<BufferType>(buf.getType());
    int64_t n = 1;
    for (int64_t e : t.getShape())
      n *= e;
    return "(" + saved[buf] + " + ((" + iter + ") - " + lb + ") % " +
           std::to_string(stages) + " * " + std::to_string(n) + ")";
  };
  // Issues the copies of iteration `iter` (guarded by the trip count).
  auto issue = [&](const std::string &iter) -> LogicalResult {
    open("if (" + iter + " < " + ub + ")");
    names[pipe.getInductionVar()] = iter;
    for (Operation *s : scalars)
      if (failed(emitOp(s)))
        return failure();
    asyncCopy = true;
    for (Operation *p : producers) {
      Value dst = cast<CopyOp>(p).getDst();
      names[dst] = stagePtr(dst, iter);
      if (failed(emitOp(p)))
        return failure();
    }
    asyncCopy = false;
    close();
    line("tlc::cuda::cpAsyncCommit();");
    return success();
  };
  open("");
  for (int64_t s = 0; s + 1 < stages; ++s) {
    std::string iter = fresh("prologue");
    line("const long long " + iter + " = " + lb + " + " + Twine(s) + ";");
    if (failed(issue(iter)))
      return failure();
  }
  std::string iv = define(pipe.getInductionVar(), "k");
  open("for (long long " + iv + " = " + lb + "; " + iv + " < " + ub + "; ++" +
       iv + ")");
  std::string ahead = fresh("ahead");
  line("const long long " + ahead + " = " + iv + " + " + Twine(stages - 1) +
       ";  // its stage was consumed by iteration " + iv + " - 1");
  if (failed(issue(ahead)))
    return failure();
  line("tlc::cuda::cpAsyncWait<" + Twine(stages - 1) + ">();  // stage of " +
       iv + " landed");
  line("__syncthreads();");
  names[pipe.getInductionVar()] = iv;
  for (Operation *p : producers) {
    Value dst = cast<CopyOp>(p).getDst();
    names[dst] = stagePtr(dst, iv);
    skipOps.insert(p);
  }
  LogicalResult r = emitBlock(body, true);
  for (Operation *p : producers)
    skipOps.erase(p);
  for (auto &[v, n] : saved)
    names[v] = n;
  if (failed(r))
    return failure();
  line("__syncthreads();  // stage of " + iv + " is free for " + iv + " + " +
       Twine(stages));
  close();
  line("tlc::cuda::cpAsyncWaitAll();");
  close();
  return success();
}
