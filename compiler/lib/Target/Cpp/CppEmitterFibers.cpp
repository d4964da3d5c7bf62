//===- CppEmitterFibers.cpp - Threads that wait for each other on the CPU -===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Hand-written warp-specialised kernels: thread ranges (T.ws, `if tx < c`)
// that order their work through mbarriers (T.alloc_barrier or the legacy
// T.create_list_of_mbarrier: arrive, expect_tx, wait on a phase parity)
// and named barriers. The per-thread executor of CppEmitterThreads.cpp runs
// one branch after the other, which cannot satisfy a producer's wait for
// its consumer; in a kernel that waits on mbarriers:
//
// * every branch on the thread index that holds a wait (or a named
//   barrier) runs as a fiber of the block's host thread (tlc::cpu::Fibers)
//   with the threads that take it. Consecutive such branches (the T.ws
//   blocks of a kernel, an if/else chain) run together and are joined
//   before the next statement that is not pure arithmetic;
// * a wait is one operation of the fiber's threads (its parity must agree
//   between them): the fiber gives way to the others until the phase has
//   completed; an arrival is per thread (the arrival count counts
//   threads, as on the GPU), and mbarrier state follows the PTX ISA
//   (pending arrivals and transaction bytes, phase parity). A wait is for
//   the phase its parity names when it begins, or for the next phase of
//   that parity after the one its threads waited for last where the
//   barrier has gone past that one (tlc::cpu::mbarrierWaitBegin): a GPU
//   thread polls all along and sees each phase complete, the CPU may run
//   a peer's arrivals of two phases before the wait;
// * named barriers (T.sync_threads(id, count)) count the arriving threads
//   of each fiber; T.named_barrier_arrive (bar.arrive) adds its threads
//   without waiting, so a kernel with one runs its branches as fibers too
//   (the producer / consumer handshake of TileLang issue 2188).
//
// Fibers switch only at waits, so a block runs the same way every run, and
// a wait that no thread can end any more is reported as a deadlock.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::target;
using namespace tlc::target::detail;


static bool isMbarrierWait(Operation *op) {
  auto in = dyn_cast<tile::IntrinsicOp>(op);
  return in && (in.getCallee() == "T.barrier_wait" ||
                in.getCallee() == "T.mbarrier_wait_parity");
}

/// T.named_barrier_arrive: threads arrive at a named barrier without
/// waiting, for others that wait on it (a producer / consumer handshake).
static bool isNamedBarrierArrive(Operation *op) {
  auto in = dyn_cast<tile::IntrinsicOp>(op);
  return in && in.getCallee() == "T.named_barrier_arrive";
}

bool Emitter::isNamedBarrierArriveOp(Operation *op) {
  return isNamedBarrierArrive(op);
}

bool Emitter::needsFibers(tile::KernelOp kernel) {
  bool found = false;
  kernel.walk([&](Operation *op) {
    found |= isMbarrierWait(op) || isNamedBarrierArrive(op);
  });
  return found;
}

bool Emitter::isBlockingOp(Operation *op) {
  if (isMbarrierWait(op))
    return true;
  auto s = dyn_cast<tile::SyncThreadsOp>(op);
  return s && s.getBarrierId() && *s.getBarrierId() != 0;
}

bool Emitter::isFiberBranch(Operation *op) {
  auto i = dyn_cast<tile::IfOp>(op);
  if (!fibered || !i || isBlockValue(i.getCondition()))
    return false;
  // A branch that only arrives runs with the branches waiting for it.
  bool blocking = false;
  op->walk([&](Operation *inner) {
    blocking |= isBlockingOp(inner) || isNamedBarrierArrive(inner);
  });
  return blocking;
}

void Emitter::joinFibers() {
  if (pendingFibers.empty())
    return;
  line("tlc::cpu::Fibers::current().join(st, " + locLiteral(currentLoc) + ", " +
       pendingFibers + ");");
  line("if (st.hasFailed())");
  line("  return;");
  pendingFibers.clear();
}

LogicalResult Emitter::emitFiberBranch(tile::IfOp op) {
  currentLoc = op->getLoc();
  if (op->getNumResults())
    return op.emitError("the CPU target runs a branch with mbarrier waits as "
                        "a fiber and cannot take values out of it");
  // A fiber is a lambda: `break` / `continue` cannot leave it, except
  // from a loop whose body is only this branch (fiberLoopBreaks): there
  // the fiber returns, and a break sets the loop's flag.
  auto loopFlag = fiberLoopBreaks.find(op->getParentOp());
  bool exitsLoop = loopFlag != fiberLoopBreaks.end();
  WalkResult w = op->walk([&](tile::IntrinsicOp in) {
    if (in.getCallee() != "T.loop_break" && in.getCallee() != "T.loop_continue")
      return WalkResult::advance();
    for (Operation *p = in->getParentOp(); p != op.getOperation();
         p = p->getParentOp())
      if (isa<tile::ForOp, tile::WhileOp, tile::PipelinedOp>(p))
        return WalkResult::advance();
    if (exitsLoop)
      return WalkResult::advance();
    in.emitError() << in.getCallee()
                   << ": leaves a loop around a branch with mbarrier waits, "
                      "which the CPU target runs as a fiber";
    return WalkResult::interrupt();
  });
  if (w.wasInterrupted())
    return failure();

  std::string outer = activeMask;
  std::string thenMask = fresh("active"), elseMask;
  line("tlc::cpu::Lanes<uint8_t> " + thenMask + "(" + threadCount + ");");
  if (op.elseBlock()) {
    elseMask = fresh("active");
    line("tlc::cpu::Lanes<uint8_t> " + elseMask + "(" + threadCount + ");");
  }
  std::string c = "bool(" + laneValue(op.getCondition(), "tlc_t") + ")";
  std::string o = outer.empty() ? "" : outer + "[tlc_t] && ";
  open("for (int64_t tlc_t = 0; tlc_t < " + threadCount + "; ++tlc_t)");
  line(thenMask + "[tlc_t] = " + o + c + ";");
  if (!elseMask.empty())
    line(elseMask + "[tlc_t] = " + o + "!" + c + ";");
  close();
  if (pendingFibers.empty()) {
    pendingFibers = fresh("fibers");
    line("const int " + pendingFibers +
         " = tlc::cpu::Fibers::current().newGroup();");
  }
  std::string group = pendingFibers;
  auto spawn = [&](Block *body, const std::string &mask) -> LogicalResult {
    comment(op, "a branch with waits: a fiber of the threads that take it");
    open("if (tlc::cpu::anyThread(&" + mask + ", " + threadCount + "))");
    line("tlc::cpu::Fibers::current().spawn(" + group + ", [&]() {");
    ++indent;
    activeMask = mask;
    pendingFibers.clear();
    LogicalResult r = emitThreadedBlock(*body);
    currentLoc = op->getLoc();
    --indent;
    line("});");
    close();
    return r;
  };
  llvm::SaveAndRestore<Operation *> keepFiber(
      exitingFiber, exitsLoop ? op.getOperation() : nullptr);
  llvm::SaveAndRestore<std::string> keepFlag(
      exitingFiberFlag, exitsLoop ? loopFlag->second : std::string());
  LogicalResult r = spawn(op.thenBlock(), thenMask);
  if (succeeded(r) && op.elseBlock())
    r = spawn(op.elseBlock(), elseMask);
  activeMask = outer;
  pendingFibers = group;
  return r;
}

/// The operands of T.tma_gather4 / T.tma_scatter4: the four row indices
/// (the `rows` parameters), the source and destination and the first
/// column; a type is null where its operand is missing or not a buffer.
struct RowsOfFour {
  SmallVector<Value> rows;
  Value src, dst, col;
  tile::BufferType srcType, dstType;
};
static RowsOfFour rowsOfFourOperands(tile::IntrinsicOp op) {
  RowsOfFour r;
  ArrayAttr params = op.getParams();
  for (auto [i, v] : llvm::enumerate(op.getArgs()))
    if (i < params.size() && cast<StringAttr>(params[i]).getValue() == "rows")
      r.rows.push_back(v);
  r.src = intrinsicArg(op, "src");
  r.dst = intrinsicArg(op, "dst");
  r.col = intrinsicArg(op, "col");
  if (r.src)
    r.srcType = dyn_cast<tile::BufferType>(r.src.getType());
  if (r.dst)
    r.dstType = dyn_cast<tile::BufferType>(r.dst.getType());
  return r;
}

LogicalResult Emitter::emitBlockingOp(Operation *op) {
  std::string loc = locLiteral(op->getLoc());
  bool masked = !activeMask.empty();
  if (isNamedBarrierArrive(op)) {
    // bar.arrive id, count: the threads that reach it arrive together and
    // go on; the barrier's waiters go on once `count` threads arrived.
    auto in = cast<tile::IntrinsicOp>(op);
    Value idV = intrinsicArg(in, "barrier_id");
    Value countV = intrinsicArg(in, "thread_count");
    if (!idV || !countV)
      return in.emitError()
             << in.getCallee() << ": needs a barrier id and a thread count";
    comment(op, "T.named_barrier_arrive: the threads that reach it arrive "
                "at the named barrier and go on");
    if (masked)
      open("if (tlc::cpu::anyThread(" + activePtr() + ", " + threadCount +
           "))");
    FailureOr<std::string> id =
        blockScalar(idV, op, "the id of a named barrier");
    FailureOr<std::string> count =
        blockScalar(countV, op, "the thread count of a named barrier");
    if (failed(id) || failed(count))
      return failure();
    line("if (!tlc::cpu::namedBarrierArrive(st, " + loc + ", " + namedBarriers +
         ", int(" + *id + "), int64_t(" + *count +
         "), tlc::cpu::countThreads(" + activePtr() + ", " + threadCount +
         ")))");
    line("  return;");
    if (masked)
      close();
    return success();
  }
  if (auto s = dyn_cast<tile::SyncThreadsOp>(op)) {
    int64_t id = *s.getBarrierId();
    std::optional<int64_t> count = s.getArriveCount();
    comment(op, "T.sync_threads(" + std::to_string(id) +
                    "): a named barrier of the threads that reach it");
    if (masked)
      open("if (tlc::cpu::anyThread(" + activePtr() + ", " + threadCount +
           "))");
    line("if (!tlc::cpu::namedBarrierSync(st, " + loc + ", " + namedBarriers +
         ", " + std::to_string(id) + ", " +
         (count ? std::to_string(*count) : threadCount) +
         ", tlc::cpu::countThreads(" + activePtr() + ", " + threadCount +
         ")))");
    line("  return;");
    if (masked)
      close();
    return success();
  }
  auto in = cast<tile::IntrinsicOp>(op);
  Value parityV = intrinsicArg(in, "parity");
  if (!parityV)
    return in.emitError() << in.getCallee() << ": needs a phase parity";
  FailureOr<std::string> bar = mbarrierAddress(in, "mbarrier");
  if (failed(bar))
    return failure();
  comment(op, in.getCallee().str() +
                  ": the threads wait until the phase of this parity has "
                  "completed");
  if (masked)
    open("if (tlc::cpu::anyThread(" + activePtr() + ", " + threadCount + "))");
  FailureOr<std::string> parity =
      blockScalar(parityV, op, "the parity of an mbarrier wait");
  if (failed(parity))
    return failure();
  // The phase waited for is fixed when the wait begins (mbarrierWaitBegin:
  // the PTX ISA's, or the next of this parity after the one these threads
  // waited for last, should the barrier have gone past it).
  open("");
  std::string phase = fresh("waited_phase");
  line("const int64_t " + phase + " = tlc::cpu::mbarrierWaitBegin(" +
       mbarrierWaits + ", " + *bar + ", uint64_t(" + *parity +
       "), tlc::cpu::firstThread(" + activePtr() + ", " + threadCount + "));");
  line("if (!tlc::cpu::Fibers::current().waitUntil(st, " + loc + ", \"" +
       in.getCallee().str() + "\", [&] { return tlc::cpu::mbarrierWaitDone(" +
       *bar + ", " + phase + "); }))");
  line("  return;");
  close();
  if (masked)
    close();
  return success();
}

FailureOr<std::string> Emitter::mbarrierAddress(tile::IntrinsicOp op,
                                                StringRef param) {
  Value v = intrinsicArg(op, param);
  auto fail = [&](const Twine &why) -> FailureOr<std::string> {
    op.emitError() << op.getCallee() << ": " << why;
    return failure();
  };
  if (!v)
    return fail("needs an mbarrier");
  if (auto t = dyn_cast<tile::BufferType>(v.getType())) {
    if (!tile::isBarrierScope(t.getScope()))
      return fail("needs a barrier of T.alloc_barrier");
    std::vector<std::string> idx(std::max<int64_t>(t.getRank(), 1), "0");
    return "&" + expr(v) + ".at({" + llvm::join(idx, ", ") + "})";
  }
  if (auto get = v.getDefiningOp<tile::IntrinsicOp>();
      get && get.getCallee() == "T.get_mbarrier")
    return expr(v);
  if (!v.getType().isIntOrIndex() || mbarrierList.empty())
    return fail("needs an mbarrier: a T.alloc_barrier element, or the number "
                "of one of T.create_list_of_mbarrier's");
  return "(" + mbarrierList + " + int64_t(" + expr(v) + "))";
}

std::optional<LogicalResult>
Emitter::emitMbarrierIntrinsic(tile::IntrinsicOp op) {
  StringRef callee = op.getCallee();
  std::string loc = locLiteral(op->getLoc());
  if (callee == "T.create_list_of_mbarrier") {
    SmallVector<std::string> counts;
    ArrayAttr params = op.getParams();
    for (auto [i, v] : llvm::enumerate(op.getArgs()))
      if (i < params.size() &&
          cast<StringAttr>(params[i]).getValue() == "arrive_counts")
        counts.push_back(expr(v));
    if (counts.empty() || !mbarrierList.empty() || inThreadLoop)
      return op.emitError()
             << callee
             << ": declares the kernel's mbarriers once, in its body, with "
                "their arrival counts";
    mbarrierList = fresh("mbarriers");
    std::string mem = fresh("mbarriers_mem");
    comment(op, callee.str());
    line("std::vector<uint64_t> " + mem + "(" + std::to_string(counts.size()) +
         ");");
    line("uint64_t *const " + mbarrierList + " = " + mem + ".data();");
    for (auto [i, c] : llvm::enumerate(counts))
      line("tlc::cpu::mbarrierInit(" + mbarrierList + " + " +
           std::to_string(i) + ", int64_t(" + c + "));");
    return success();
  }
  if (callee == "T.tma_gather4") {
    // cp.async.bulk.tensor.2d.tile::gather4: rows r0..r3 of the 2-D source,
    // columns col .. col + W, into the 4 x W destination (zero outside the
    // tensor, as TMA fills), then complete_tx of the box's bytes on the
    // barrier. Done here at once: the phase then only waits for arrivals.
    auto [rows, src, dst, col, st, dt] = rowsOfFourOperands(op);
    if (rows.size() != 4 || !col || !st || !dt || st.getRank() != 2 ||
        dt.getRank() != 2 || !dt.isStatic() || dt.getShape()[0] != 4 ||
        st.getElementType() != dt.getElementType())
      return op.emitError()
             << callee
             << ": gathers four rows of a 2-D tensor into a [4, W] buffer "
                "of its dtype";
    FailureOr<std::string> bar = mbarrierAddress(op, "barrier");
    FailureOr<std::string> storage = storageType(dt.getElementType(), op);
    if (failed(bar) || failed(storage))
      return failure();
    int64_t w = dt.getShape()[1];
    comment(op, callee.str());
    line("{");
    std::string r = fresh("gatherRows");
    line("  const int64_t " + r + "[4] = {int64_t(" + expr(rows[0]) +
         "), int64_t(" + expr(rows[1]) + "), int64_t(" + expr(rows[2]) +
         "), int64_t(" + expr(rows[3]) + ")};");
    line("  for (int64_t i = 0; i < 4; ++i)");
    line("    for (int64_t j = 0; j < " + std::to_string(w) + "; ++j) {");
    line("      const int64_t s[2] = {" + r + "[i], int64_t(" + expr(col) +
         ") + j};");
    line("      " + expr(dst) + ".at({i, j}) = " + expr(src) +
         ".inBounds(s) ? " + expr(src) + ".at(s) : tlc::cpu::cast<" + *storage +
         ">(0.0f);");
    line("    }");
    line("  tlc::cpu::mbarrierCompleteTx(st, " + loc + ", " + *bar + ", " +
         std::to_string(4 * w *
                        tile::getElementStorageBytes(dt.getElementType())) +
         ");");
    line("}");
    return success();
  }
  if (callee == "T.tma_scatter4") {
    // cp.async.bulk.tensor.2d.tile::scatter4 (the store of the gather
    // above): row i of the [4, W] source into row r_i of the 2-D tensor,
    // columns col .. col + W; elements outside the tensor are not written,
    // as a TMA store clips its box. Complete when the statement ends.
    auto [rows, src, dst, col, st, dt] = rowsOfFourOperands(op);
    if (rows.size() != 4 || !col || !st || !dt || st.getRank() != 2 ||
        dt.getRank() != 2 || !st.isStatic() || st.getShape()[0] != 4 ||
        st.getElementType() != dt.getElementType())
      return op.emitError()
             << callee
             << ": scatters a [4, W] buffer into four rows of a 2-D tensor "
                "of its dtype";
    int64_t w = st.getShape()[1];
    comment(op, callee.str());
    line("{");
    std::string r = fresh("scatterRows");
    line("  const int64_t " + r + "[4] = {int64_t(" + expr(rows[0]) +
         "), int64_t(" + expr(rows[1]) + "), int64_t(" + expr(rows[2]) +
         "), int64_t(" + expr(rows[3]) + ")};");
    line("  for (int64_t i = 0; i < 4; ++i)");
    line("    for (int64_t j = 0; j < " + std::to_string(w) + "; ++j) {");
    line("      const int64_t d[2] = {" + r + "[i], int64_t(" + expr(col) +
         ") + j};");
    line("      if (" + expr(dst) + ".inBounds(d)) " + expr(dst) +
         ".at(d) = " + expr(src) + ".at({i, j});");
    line("    }");
    line("}");
    return success();
  }
  if (callee == "T.get_mbarrier") {
    Value id = intrinsicArg(op, "id");
    if (!id || mbarrierList.empty())
      return op.emitError()
             << callee << ": needs T.create_list_of_mbarrier before it";
    names[op.getResult(0)] =
        "(" + mbarrierList + " + int64_t(" + expr(id) + "))";
    return success();
  }
  if (callee == "T.barrier_wait" || callee == "T.mbarrier_wait_parity") {
    if (!fibered || inThreadLoop)
      return op.emitError() << callee
                            << ": the CPU target waits on mbarriers for the "
                               "threads of a block, not inside a thread loop";
    return emitBlockingOp(op);
  }
  // T.ptx_arrive_barrier(bar): the raw form of T.mbarrier_arrive (more
  // operands name a block of the cluster).
  bool ptxArrive = callee == "T.ptx_arrive_barrier";
  // T.tcgen05_mma_arrive (and T.gemm / T.tcgen05_gemm's mbar): one
  // arrival once the statement's gemms are done, which on the CPU they
  // are; the statement runs once for its threads (isCollective).
  bool tcgen05Arrive = callee == "T.tcgen05_mma_arrive";
  bool arrive = callee == "T.barrier_arrive" || callee == "T.mbarrier_arrive" ||
                callee == "T.cp_async_barrier_noinc" || ptxArrive ||
                tcgen05Arrive;
  bool expect = callee == "T.mbarrier_expect_tx" ||
                callee == "T.mbarrier_arrive_expect_tx";
  if (callee == "T.ptx_arrive_cluster_barrier")
    return emitRemoteArrive(op, intrinsicArg(op, "mbarrier"), intrinsicArg(op, "cta_id"),
                            Value());
  if (!arrive && !expect)
    return std::nullopt;
  // An arrival on the barrier of a block of the cluster
  // (CppEmitterCluster.cpp).
  if (Value cta = intrinsicArg(op, "cta_id"); cta && !expect)
    return emitRemoteArrive(op, intrinsicArg(op, "mbarrier"), cta, Value());
  if (ptxArrive && op.getArgs().size() > 1)
    return emitRemoteArrive(op, op.getArgs()[0], op.getArgs()[1],
                            op.getArgs().size() > 2 ? op.getArgs()[2]
                                                    : Value());
  if (intrinsicArg(op, "cta_id"))
    return op.emitError() << callee
                          << ": the CPU target arrives on another block's "
                             "barrier with T.mbarrier_arrive(bar, cta_id) "
                             "only";
  if (tcgen05Arrive) {
    // tcgen05.commit of a 2-CTA gemm: the barrier at this offset arrives
    // in both blocks of the pair.
    Value two = intrinsicArg(op, "arrive_2cta");
    IntegerAttr c;
    if (two && !(matchPattern(two, m_Constant(&c)) && c.getInt() == 0)) {
      Value bar = intrinsicArg(op, "mbar");
      comment(op, "T.tcgen05_mma_arrive(arrive_2cta=True): an arrival in "
                  "both blocks of the pair");
      std::string pair = fresh("pair");
      line("const int64_t " + pair +
           " = tlc::cpu::currentCluster().rank & ~int64_t(1);");
      for (int r = 0; r < 2; ++r)
        line("tlc::cpu::mbarrierArrive(st, " + loc + ", " +
             firstElementAddress(bar, pair + " + " + std::to_string(r)) + ");");
      return success();
    }
  }
  FailureOr<std::string> bar = mbarrierAddress(
      op, callee == "T.cp_async_barrier_noinc" ? "barrier"
          : ptxArrive                          ? "args"
          : tcgen05Arrive                      ? "mbar"
                                               : "mbarrier");
  if (failed(bar))
    return failure();
  comment(op, callee.str());
  if (expect) {
    Value tx = intrinsicArg(op, "tx");
    if (!tx)
      return op.emitError() << callee << ": needs a byte count";
    line("tlc::cpu::mbarrierExpectTx(" + *bar + ", uint64_t(" + expr(tx) +
         "));");
  }
  // cp.async's noinc arrival: the CPU's copies are complete already.
  if (arrive || callee == "T.mbarrier_arrive_expect_tx")
    line("tlc::cpu::mbarrierArrive(st, " + loc + ", " + *bar + ");");
  return success();
}
