//===- CUDAEmitterWsOverlap.cpp - Softmax overlapped with P V -------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The consumers' loop of a warp-specialised attention kernel whose softmax
// overlaps the previous iteration's O += P V (tile-warp-specialize's
// tile.ws_overlap, FA3's intra-warpgroup overlap). The body's ops come in
// three parts, as the pass marked them: the iteration's own (up to and
// through S = Q K^T, then the softmax), the ops that touch P V's registers
// (`tile.ws_after_wait`: the cast to P) and the P V part
// (`tile.ws_stage = 1`: O's rescale and the P V gemm), which runs one
// iteration late:
//
//   prologue (k = lb):   S(lb); wait 0; release K; softmax; P
//   k = lb + 1 .. ub-1:  S(k) issued; rescale, P V(k-1) issued;
//                        wait 1 (S done): release K(k); softmax(k);
//                        wait 0 (P V done): release V(k-1); P(k)
//   epilogue:            rescale, P V(ub-1); wait 0; release V
//
// K and V keep a read stage and parity each (V's one iteration behind).
// With ping-pong a warpgroup takes the turn before each iteration's first
// gemm and hands it over after its last commit.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

namespace {
/// One ring of the loop as the overlapped loop reads it.
struct Ring {
  int64_t index = 0;
  /// The gemm that reads its stages (S = Q K^T or P V).
  Operation *reader = nullptr;
  /// Its read stage and parity variables.
  std::string stage, phase;
};
} // namespace

LogicalResult Emitter::emitWsOverlapLoop(PipelinedOp pipe) {
  int64_t stages = pipelineStages[pipe.getOperation()];
  beginOp(pipe, "T.Pipelined (num_stages = " + std::to_string(stages) +
                    ": warp-specialised, the producer warpgroup loads " +
                    std::to_string(stages) +
                    " stages by TMA; the softmax overlaps the previous "
                    "iteration's P V gemm)");
  Block &body = pipe.getBody().front();
  // The parts of the body.
  SmallVector<Operation *> scalars, own, afterWait, late, producers;
  SmallVector<GemmOp> gemms;
  for (Operation &op : body) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    if (op.hasAttr("tile.prefetch"))
      producers.push_back(&op);
    else if (op.hasAttr("tile.ws_stage"))
      late.push_back(&op);
    else if (op.hasAttr("tile.ws_after_wait"))
      afterWait.push_back(&op);
    else if (isa<ParallelOp, CopyOp, GemmOp, ReduceOp, FillOp, ClearOp>(op) ||
             op.hasAttr("tile.split_mask")) // tile-split-masks' branch
      own.push_back(&op);
    else
      scalars.push_back(&op);
    if (auto g = dyn_cast<GemmOp>(op))
      gemms.push_back(g);
  }
  if (gemms.size() != 2 || late.empty() || late.back() != gemms[1])
    return pipe.emitError("the softmax overlap needs S = Q K^T and a P V "
                          "gemm last (internal error)");
  GemmOp qk = gemms[0], pv = gemms[1];
  // The rings, each read by one of the gemms.
  SmallVector<Ring> rings;
  llvm::DenseMap<Value, std::string> saved;
  for (Operation *op : producers) {
    auto copy = cast<CopyOp>(op);
    auto r = copy->getAttrOfType<IntegerAttr>("tile.ws_ring");
    int64_t index = r ? r.getInt() : 0;
    Operation *reader = nullptr;
    for (Operation *user : copy.getDst().getUsers())
      if (user != op)
        reader = user;
    if (!reader)
      return pipe.emitError("a ring of the warp-specialised loop has no "
                            "reader (internal error)");
    if (llvm::none_of(rings, [&](const Ring &x) { return x.index == index; }))
      rings.push_back({index, reader, fresh(reader == qk ? "kStage" : "vStage"),
                       fresh(reader == qk ? "kPhase" : "vPhase")});
    saved[copy.getDst()] = names[copy.getDst()];
  }
  auto slot = [&](const Ring &r) {
    return r.index ? r.stage + " + " + std::to_string(r.index * stages)
                   : r.stage;
  };
  // Each stage buffer is read at its ring's stage.
  for (Operation *op : producers) {
    auto copy = cast<CopyOp>(op);
    Value dst = copy.getDst();
    auto t = cast<BufferType>(dst.getType());
    int64_t n = 1;
    for (int64_t e : t.getShape())
      n *= e;
    for (const Ring &r : rings)
      for (Operation *user : dst.getUsers())
        if (user == r.reader)
          names[dst] = "(" + saved[dst] + " + " + r.stage + " * " +
                       std::to_string(n) + ")";
  }
  auto waitFull = [&](Operation *reader, const std::string &iter) {
    for (const Ring &r : rings)
      if (r.reader == reader)
        line("tlc::cuda::mbarrierWait(&" + wsFull + "[" + slot(r) + "], " +
             r.phase + ");  // ring " + std::to_string(r.index) +
             ": stage of " + iter + " landed");
  };
  auto release = [&](Operation *reader, bool advance) {
    for (const Ring &r : rings) {
      if (r.reader != reader)
        continue;
      line("tlc::cuda::mbarrierArrive(&" + wsEmpty + "[" + slot(r) +
           "]);  // ring " + std::to_string(r.index) +
           ": its gemm completed, the stage is free");
      if (!advance)
        continue;
      line(r.stage + " = " + r.stage + " + 1 == " + Twine(stages) +
           " ? 0 : " + r.stage + " + 1;");
      line("if (" + r.stage + " == 0) " + r.phase + " ^= 1;");
    }
  };
  auto emitAll = [&](ArrayRef<Operation *> ops) -> LogicalResult {
    for (Operation *op : ops) {
      if (op == qk.getOperation())
        waitFull(qk, "this iteration");
      if (op == pv.getOperation())
        waitFull(pv, "the previous iteration");
      if (failed(emitOp(op)))
        return failure();
    }
    return success();
  };
  auto pingPong = pipe->getAttrOfType<IntegerAttr>("tile.ws_pingpong");
  std::string it = indexType();
  std::string lb = expr(pipe.getLowerBound()), ub = expr(pipe.getUpperBound());
  // The iteration's own ops up to S = Q K^T are issued first; the rest
  // (the softmax) runs after the wait for S.
  SmallVector<Operation *> ownIssue, softmax;
  bool issued = false;
  for (Operation *op : own) {
    (issued ? softmax : ownIssue).push_back(op);
    issued |= op == qk.getOperation();
  }
  wgmmaNoWait.insert(qk);
  wgmmaNoWait.insert(pv);
  auto turns = [&](Operation *take, Operation *handOver) {
    wsTurnTake.clear();
    wsTurnHandOver.clear();
    if (!pingPong)
      return;
    wsTurnTake.insert(take);
    wsTurnHandOver.insert(handOver);
  };
  auto failedAll = [&]() {
    wgmmaNoWait.clear();
    maskAllTrue.clear();
    turns(nullptr, nullptr);
    for (auto &[v, n] : saved)
      names[v] = n;
    return failure();
  };

  open("");
  // A persistent kernel's consumers carry one ring position from tile to
  // tile (declared before their tile loop): both rings start there, and
  // both end one past the last iteration (V's last release advances too).
  bool carried = !wsReadStage.empty();
  for (const Ring &r : rings) {
    line("int " + r.stage + " = " + (carried ? wsReadStage : "0") + ";");
    line("uint32_t " + r.phase + " = " + (carried ? wsPhase : "0") +
         ";  // parity of the read stage's phase");
  }
  if (pingPong)
    line("if (" + consumerWarpGroupIs(false) +
         ") tlc::cuda::namedBarrierArrive(" + Twine(pingPong.getInt()) + ", " +
         Twine(blockThreads) +
         ");  // ping-pong: warpgroup 0 takes the first turn");
  // Prologue: the first iteration's S and softmax.
  open("if (" + lb + " < " + ub + ")");
  line("const " + it + " " + define(pipe.getInductionVar(), "k") + " = " + lb +
       ";  // the first iteration");
  turns(qk, qk);
  if (failed(emitAll(scalars)) || failed(emitAll(ownIssue)))
    return failedAll();
  line("tlc::cuda::wgmmaWait<0>();  // S is complete");
  release(qk, /*advance=*/true);
  if (failed(emitAll(softmax)) || failed(emitAll(afterWait)))
    return failedAll();
  close();
  // The steady state; with a split mask (tile-split-masks) first the
  // iterations where it is all true, which leave at the first that it is
  // not (before anything of it is issued), then the rest with the mask.
  std::string iv = define(pipe.getInductionVar(), "k");
  IfOp split = splitMaskOf(pipe);
  if (split) {
    line(it + " " + iv + " = " + lb + " + 1;");
    open("for (; " + iv + " < " + ub + "; ++" + iv + ")");
  } else {
    open("for (" + it + " " + iv + " = " + lb + " + 1; " + iv + " < " + ub +
         "; ++" + iv + ")");
  }
  for (int half = split ? 0 : 1; half < 2; ++half) {
    if (half == 0)
      maskAllTrue.insert(split);
    else if (split)
      open("for (; " + iv + " < " + ub + "; ++" + iv + ")");
    turns(qk, pv);
    if (failed(emitAll(scalars)) || failed(emitAll(ownIssue)) ||
        failed(emitAll(late)))
      return failedAll();
    maskAllTrue.clear();
    line("tlc::cuda::wgmmaWait<1>();  // S is complete; P V may be in flight");
    release(qk, /*advance=*/true);
    if (failed(emitAll(softmax)))
      return failedAll();
    line("tlc::cuda::wgmmaWait<0>();  // P V is complete: P may change");
    release(pv, /*advance=*/true);
    if (failed(emitAll(afterWait)))
      return failedAll();
    close();
  }
  // Epilogue: the last iteration's P V.
  open("if (" + lb + " < " + ub + ")");
  line("const " + it + " " + define(pipe.getInductionVar(), "k") + " = " + ub +
       " - 1;  // the last iteration");
  turns(pv, pv);
  if (failed(emitAll(scalars)) || failed(emitAll(late)))
    return failedAll();
  line("tlc::cuda::wgmmaWait<0>();  // O is complete");
  release(pv, /*advance=*/carried);
  close();
  if (carried)
    for (const Ring &r : rings)
      if (r.reader == qk.getOperation()) {
        line(wsReadStage + " = " + r.stage + ";  // the next tile's position");
        line(wsPhase + " = " + r.phase + ";");
      }
  if (pingPong)
    line("if (" + consumerWarpGroupIs(true) + ") tlc::cuda::namedBarrierSync(" +
         Twine(pingPong.getInt()) + ", " + Twine(blockThreads) +
         ");  // ping-pong: the turn warpgroup 1 handed over last");
  close();
  wgmmaNoWait.clear();
  turns(nullptr, nullptr);
  for (auto &[v, n] : saved)
    names[v] = n;
  return success();
}

IfOp Emitter::splitMaskOf(PipelinedOp pipe) {
  // Only index arithmetic, views and the producer's copies before the
  // branch: the first loop leaves there, and the second runs that
  // iteration again from its start.
  for (Operation &op : pipe.getBody().front()) {
    if (op.hasAttr("tile.split_mask_loop")) {
      auto branch = dyn_cast<IfOp>(op);
      if (!branch || mayVaryAcrossThreads(branch.getCondition()))
        return nullptr;
      return branch;
    }
    bool scalar =
        isa<RegionOp>(op) ||
        (op.getDialect() && isa<arith::ArithDialect>(op.getDialect()) &&
         op.getNumRegions() == 0 && isPure(&op));
    if (!scalar && !op.hasAttr("tile.prefetch"))
      return nullptr;
  }
  return nullptr;
}
