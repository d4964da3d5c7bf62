//===- CppEmitterThreads.cpp - Per-thread code on the CPU target ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Kernels that read their thread index (or add atomically to an element
// outside T.Parallel, which every thread does). Without it a block is one
// executor and its tile operations run for the whole block; with it each
// thread's statements must run for every thread, in phases that barriers
// separate:
//
// * The ops of a region that runs for the whole block are walked in order.
//   A maximal run of per-thread ops (loads, stores, scalar arithmetic,
//   control flow holding no barrier) becomes one loop over the threads,
//   `for (tlc_t = 0; tlc_t < threads; ++tlc_t)`. A value of the run used
//   after it is kept in a `tlc::cpu::Lanes` array, one element per thread.
// * Pure arithmetic on block values (constants, block indices, loops run
//   for the block) and allocations are emitted once, outside the loops.
//   T.alloc_local / T.alloc_var buffers have one copy per thread.
// * What ends a run and runs once for the block: T.sync_threads (nothing
//   left to do: the loop before it has finished every thread), tile
//   operations (once, for the threads that reach them; their scalar
//   operands must agree between those threads), warp shuffles, votes and
//   reductions (computed per thread from the other lanes' array elements,
//   by the PTX ISA's definitions), block votes, and loops and branches
//   holding any of these. A branch on a per-thread condition holding them
//   narrows the active mask (a Lanes<uint8_t>); a loop holding them needs
//   bounds that agree between the active threads.
// * A view taken in a run at a per-thread offset and used after it is kept
//   per thread too (a Lanes of Views): per-thread code reads each thread's
//   own, a tile operation the one its threads agree on (checked at run
//   time, like its scalar operands).
// * What is refused, with the reason: a barrier reached by some threads of
//   the block but not others, a warp operation whose mask names a lane that
//   does not reach it, a `break` under a per-thread condition out of a loop
//   with barriers (all at run time where they depend on values), tile
//   operations on per-thread buffers, mbarrier waits (a wait for another
//   thread's arrival needs threads that run at the same time).
//
// Threads are numbered as CUDA numbers them (x fastest) and warp w holds
// threads 32w .. 32w + 31, whatever the target the program is built for
// elsewhere.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"
#include "tlc/Dialect/Tile/Transforms/ParallelPlan.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::target;
using namespace tlc::target::detail;

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

/// Warp operations: every lane of the (implied or given) mask takes part.
static bool isWarpIntrinsic(StringRef c) {
  return llvm::is_contained(
             {"T.shfl_xor", "T.shfl_down", "T.shfl_up", "T.shfl_sync",
              "T.tvm_warp_shuffle", "T.any_sync", "T.all_sync", "T.ballot_sync",
              "T.ballot", "T.activemask", "T.match_any_sync",
              "T.match_all_sync", "T.sync_warp", "T.ptx_ldmatrix",
              "T.ds_read_tr16_b64", "T.ds_read_tr8_b64"},
             c) ||
         c.starts_with("T.warp_reduce_");
}

/// Barriers of the whole block that return a value.
static bool isBlockVoteIntrinsic(StringRef c) {
  return c == "T.syncthreads_count" || c == "T.syncthreads_and" ||
         c == "T.syncthreads_or";
}

/// Per-thread values of the launch frame.
static bool isFrameIntrinsic(StringRef c) {
  return llvm::is_contained({"T.get_lane_idx", "T.get_warp_idx",
                             "T.get_warp_idx_sync", "T.get_warp_group_idx",
                             "T.shuffle_elect"},
                            c);
}

/// The allocation a buffer value is a view of (null for arguments).
static tile::AllocOp rootAlloc(Value buffer) {
  while (Operation *def = buffer.getDefiningOp()) {
    if (auto a = dyn_cast<tile::AllocOp>(def))
      return a;
    if (auto r = dyn_cast<tile::RegionOp>(def))
      buffer = r.getSource();
    else if (auto v = dyn_cast<tile::ViewOp>(def))
      buffer = v.getSource();
    else
      return {};
  }
  return {};
}

/// Whether \p buffer is (a view of) a T.alloc_local / T.alloc_var buffer,
/// which every thread has its own copy of.
static bool isPerThreadBuffer(Value buffer) {
  if (!isa<tile::BufferType>(buffer.getType()))
    return false;
  tile::AllocOp a = rootAlloc(buffer);
  if (!a)
    return false;
  auto scope = cast<tile::BufferType>(a.getType()).getScope();
  return scope == tile::MemoryScope::Local ||
         scope == tile::MemoryScope::LocalVar;
}

/// Whether \p op is a barrier of the block's threads: T.sync_threads, or
/// raw TIR's `T.tvm_storage_sync("shared")` (the same __syncthreads), or a
/// barrier the GPU lowering placed (`tile.barrier`, among the threads that
/// run it; CppEmitterBarriers.cpp).
static bool isBlockBarrier(Operation *op) {
  return isa<tile::SyncThreadsOp, tile::BarrierOp>(op) ||
         tile::isSharedStorageSync(op);
}

/// Whether \p op runs once for the whole block in a threaded kernel.
static bool isCollective(Operation *op) {
  if (isBlockBarrier(op))
    return true;
  // A copy into or out of a per-thread buffer is each thread's own (as in
  // TileLang, which does not partition it).
  if (auto c = dyn_cast<tile::CopyOp>(op))
    return !isPerThreadBuffer(c.getSrc()) && !isPerThreadBuffer(c.getDst());
  // A T.Parallel every thread runs whole over its own copies (it stores
  // into a T.alloc_local buffer or touches only such buffers; TileLang
  // does not partition it): each thread's statement.
  if (auto p = dyn_cast<tile::ParallelOp>(op))
    return !tile::runsWholeInEachThread(p);
  if (isa<tile::SyncThreadsOp, tile::GemmOp, tile::ReduceOp, tile::CumSumOp,
          tile::PrintOp>(op))
    return true;
  if (auto f = dyn_cast<tile::FillOp>(op))
    return !isPerThreadBuffer(f.getDst());
  if (auto c = dyn_cast<tile::ClearOp>(op))
    return !isPerThreadBuffer(c.getDst());
  if (auto a = dyn_cast<tile::AtomicAddOp>(op))
    return isa<tile::BufferType>(a.getValue().getType());
  if (auto i = dyn_cast<tile::IntrinsicOp>(op))
    return isWarpIntrinsic(i.getCallee()) ||
           isBlockVoteIntrinsic(i.getCallee()) ||
           i.getCallee() == "T.barrier_wait" ||
           // A cluster barrier: one arrival of the block.
           (isClusterIntrinsic(i.getCallee()) &&
            i.getCallee() != "T.block_rank_in_cluster") ||
           i.getCallee() == "T.mbarrier_wait_parity" ||
           // bar.arrive: one arrival of the threads that reach it.
           i.getCallee() == "T.named_barrier_arrive" ||
           // A copy into another block's shared memory: a tile operation.
           i.getCallee() == "T.copy_cluster" ||
           // tcgen05.commit: one arrival when the gemms the statement's
           // threads issued are done (the CPU's are done already).
           i.getCallee() == "T.tcgen05_mma_arrive" ||
           // The scale-factor copy and the block-scaled MMA: tile
           // operations of the warp that issues them.
           i.getCallee() == "T.tcgen05_sf_warp_transpose" ||
           i.getCallee() == "T.tcgen05_cp_warpx4" ||
           i.getCallee() == "T.tcgen05_gemm_blockscaled";
  return false;
}

/// The legacy mbarrier list and its elements: declared once for the block.
static bool isMbarrierListIntrinsic(Operation *op) {
  auto i = dyn_cast<tile::IntrinsicOp>(op);
  return i && (i.getCallee() == "T.create_list_of_mbarrier" ||
               i.getCallee() == "T.get_mbarrier");
}

bool Emitter::hasPerThreadCode(tile::KernelOp kernel) {
  bool found = false;
  kernel.walk([&](Operation *op) {
    if (isa<tile::ThreadBindingOp>(op))
      found = true;
    // An element T.atomic_add outside T.Parallel is a statement of every
    // thread, as on the GPU (TileLang guards no scalar statement to one
    // thread): each thread's update counts, so the threads run one by one.
    if (auto a = dyn_cast<tile::AtomicAddOp>(op))
      found |= !isa<tile::BufferType>(a.getValue().getType()) &&
               !op->getParentOfType<tile::ParallelOp>();
    if (auto i = dyn_cast<tile::IntrinsicOp>(op)) {
      StringRef c = i.getCallee();
      found |= isWarpIntrinsic(c) || isBlockVoteIntrinsic(c) ||
               isFrameIntrinsic(c) || c.contains("barrier");
    }
  });
  return found;
}

bool Emitter::isBlockValue(Value v) {
  auto it = blockValueMemo.find(v);
  if (it != blockValueMemo.end())
    return it->second;
  bool result = false;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    // Block indices, function arguments, and the counters of loops that
    // run for the block.
    result = isa<tile::KernelOp, tile::FuncOp>(owner) ||
             (isa<tile::ForOp, tile::PipelinedOp>(owner) &&
              blockLevelOps.contains(owner));
  } else {
    Operation *def = v.getDefiningOp();
    if (isa<arith::ConstantOp, tile::SymbolOp>(def))
      result = true;
    else if (auto a = dyn_cast<tile::AllocOp>(def))
      result = !isPerThreadBuffer(a.getResult());
    else if (isa<tile::RegionOp, tile::ViewOp>(def) ||
             (isa<arith::ArithDialect, math::MathDialect>(def->getDialect()) &&
              isPure(def)))
      result = llvm::all_of(def->getOperands(),
                            [&](Value o) { return isBlockValue(o); });
  }
  blockValueMemo[v] = result;
  return result;
}

FailureOr<std::string> Emitter::laneType(Value v, Operation *at) {
  if (auto b = dyn_cast<tile::BufferType>(v.getType()))
    return viewType(b, at);
  return valueType(v.getType(), at);
}

std::string Emitter::laneValue(Value v, StringRef thread) {
  auto it = laneArrays.find(v);
  if (it != laneArrays.end())
    return it->second + "[" + thread.str() + "]";
  return expr(v);
}

FailureOr<std::string> Emitter::blockScalar(Value v, Operation *at,
                                            StringRef what) {
  auto it = laneArrays.find(v);
  if (it == laneArrays.end())
    return expr(v);
  auto t = laneType(v, at);
  if (failed(t))
    return failure();
  std::string u = fresh("uniform");
  line("const " + *t + " " + u + " = tlc::cpu::uniform(st, " +
       locLiteral(at->getLoc()) + ", \"" + what + "\", " + it->second + ", " +
       activePtr() + ", " + threadCount + ");");
  line("if (st.hasFailed())");
  line("  return;");
  return u;
}

/// `if c: break` / `if c: continue` in a loop that runs for the block,
/// directly or under branches the whole block takes together (\p plainIf:
/// a C++ `if` of the block, not a fiber; gemm_tcgen5mma_ws_clc's `if
/// work_iter > 0: wait; if not valid: break`): the exit is taken for the
/// block (its condition must agree).
static std::optional<bool>
blockLoopExit(Operation *op, const DenseSet<Operation *> &level,
              llvm::function_ref<bool(tile::IfOp)> plainIf) {
  auto i = dyn_cast<tile::IfOp>(op);
  if (!i || i.elseBlock())
    return std::nullopt;
  Operation *loop = op->getParentOp();
  while (auto outer = dyn_cast_or_null<tile::IfOp>(loop)) {
    if (!level.contains(loop) || !plainIf(outer))
      return std::nullopt;
    loop = loop->getParentOp();
  }
  if (!loop || !level.contains(loop) ||
      !isa<tile::ForOp, tile::PipelinedOp, tile::WhileOp>(loop))
    return std::nullopt;
  Block *then = i.thenBlock();
  if (then->empty() || std::next(then->begin()) != then->end())
    return std::nullopt;
  auto in = dyn_cast<tile::IntrinsicOp>(&then->front());
  if (!in ||
      (in.getCallee() != "T.loop_break" && in.getCallee() != "T.loop_continue"))
    return std::nullopt;
  return in.getCallee() == "T.loop_break";
}

//===----------------------------------------------------------------------===//
// Regions of the block
//===----------------------------------------------------------------------===//

LogicalResult Emitter::emitThreadedBody(tile::KernelOp op) {
  auto threads = op.getMixedThreads();
  const char *axes[3] = {"x", "y", "z"};
  usedNames.insert("tlc_t");
  std::string count;
  for (unsigned d = 0; d < 3; ++d) {
    std::string e = d < threads.size() ? foldResult(threads[d]) : "1";
    threadExtent[d] = fresh(std::string("threads_") + axes[d]);
    line("const int64_t " + threadExtent[d] + " = " + e + ";");
    count += (d ? " * " : "") + threadExtent[d];
  }
  threadCount = fresh("threads");
  line("// Per-thread code: the block's threads run one after the other, "
       "once per phase between barriers.");
  line("const int64_t " + threadCount + " = " + count + ";");
  declareRngStates(op, threadCount);
  threaded = true;
  fibered = needsFibers(op);
  pendingFibers.clear();
  mbarrierList.clear();
  if (fibered) {
    namedBarriers = fresh("named_barriers");
    line("// Branches on the thread index that wait on mbarriers run as "
         "fibers.");
    line("tlc::cpu::NamedBarriers " + namedBarriers + ";");
    mbarrierWaits = fresh("mbarrier_waits");
    line("tlc::cpu::MbarrierWaits " + mbarrierWaits + ";");
    line("tlc::cpu::Fibers::current().reset();");
  }
  blockLevelOps.clear();
  blockValueMemo.clear();
  laneArrays.clear();
  perThreadStorage.clear();
  activeMask.clear();
  op.walk([&](Operation *o) {
    if (!isCollective(o))
      return;
    for (Operation *p = o; p && p != op.getOperation(); p = p->getParentOp())
      blockLevelOps.insert(p);
  });
  LogicalResult r = emitThreadedBlock(op.getBody().front());
  threaded = false;
  fibered = false;
  return r;
}

bool Emitter::isOnlyFiberBranch(Block &body) {
  int branches = 0;
  for (Operation &o : body) {
    if (o.hasTrait<OpTrait::IsTerminator>())
      continue;
    if (isFiberBranch(&o) && !cast<tile::IfOp>(o).elseBlock()) {
      ++branches;
      continue;
    }
    if (o.getNumRegions() || !isPure(&o) || isCollective(&o))
      return false;
  }
  return branches == 1;
}

LogicalResult Emitter::emitThreadedBlock(Block &block) {
  SmallVector<Operation *> run;
  auto flush = [&]() {
    LogicalResult r = emitThreadRun(run);
    run.clear();
    return r;
  };
  // Fibers started in this block are joined before anything but pure
  // arithmetic (the next branch's condition) and at its end.
  std::string outerFibers = pendingFibers;
  pendingFibers.clear();
  auto finish = [&](LogicalResult r) {
    if (succeeded(r))
      r = flush();
    if (succeeded(r))
      joinFibers();
    pendingFibers = outerFibers;
    return r;
  };
  for (Operation &o : block) {
    Operation *op = &o;
    currentLoc = op->getLoc();
    if (isFiberBranch(op)) {
      if (failed(flush()) || failed(emitFiberBranch(cast<tile::IfOp>(op))))
        return finish(failure());
      continue;
    }
    if (!pendingFibers.empty() &&
        (op->getNumRegions() || !isPure(op) || isCollective(op))) {
      if (failed(flush()))
        return finish(failure());
      joinFibers();
    }
    if (isMbarrierListIntrinsic(op)) {
      if (failed(flush()) || failed(emitOp(op)))
        return finish(failure());
      continue;
    }
    if (blockLevelOps.contains(op) || isa<tile::ConditionOp>(op) ||
        blockLoopExit(op, blockLevelOps, [&](tile::IfOp i) {
          return isBlockValue(i.getCondition()) ||
                 i.getOperation() == exitingFiber;
        })) {
      if (failed(flush()) || failed(emitBlockLevel(op)))
        return finish(failure());
      continue;
    }
    // Allocations, layout annotations and arithmetic on block values run
    // once, before the thread loop they appear in.
    bool once = isa<tile::AllocOp, tile::AnnotateLayoutOp, tile::UseSwizzleOp,
                    tile::SymbolOp>(op) ||
                (op->getNumResults() > 0 && op->getNumRegions() == 0 &&
                 llvm::all_of(op->getResults(),
                              [&](Value v) { return isBlockValue(v); }));
    if (once) {
      if (failed(emitOp(op)))
        return finish(failure());
      continue;
    }
    run.push_back(op);
  }
  return finish(success());
}

LogicalResult Emitter::emitThreadRun(ArrayRef<Operation *> run) {
  if (run.empty())
    return success();
  llvm::SmallPtrSet<Operation *, 16> inRun(run.begin(), run.end());
  Block *block = run.front()->getBlock();
  // Results used after the run live in one Lanes element per thread.
  SmallVector<std::pair<Value, std::string>> kept;
  for (Operation *op : run) {
    currentLoc = op->getLoc();
    for (Value v : op->getResults()) {
      bool escapes = llvm::any_of(v.getUsers(), [&](Operation *user) {
        Operation *anc = block->findAncestorOpInBlock(*user);
        return !anc || !inRun.contains(anc);
      });
      if (!escapes)
        continue;
      // A view (a tile at a per-thread offset: `K[b, k : k + n, :]` with k
      // read by each thread) is kept like a scalar, one View per thread; a
      // tile operation after the barrier takes the one view its threads
      // agree on (blockScalar), per-thread code each thread's own.
      auto t = laneType(v, op);
      if (failed(t))
        return failure();
      std::string hint = "v";
      if (auto n = dyn_cast<NameLoc>(v.getLoc()))
        hint = n.getName().getValue().str();
      std::string arr = fresh(hint + "_lanes");
      line("tlc::cpu::Lanes<" + *t + "> " + arr + "(" + threadCount + ");");
      kept.push_back({v, arr});
    }
  }
  currentLoc = run.front()->getLoc();
  open("for (int64_t tlc_t = 0; tlc_t < " + threadCount + "; ++tlc_t)");
  if (!activeMask.empty()) {
    line("if (!" + activeMask + "[tlc_t])");
    line("  continue;");
  }
  inThreadLoop = true;
  for (Operation *op : run) {
    if (failed(emitOp(op))) {
      inThreadLoop = false;
      return failure();
    }
    for (auto &[v, arr] : kept)
      if (v.getDefiningOp() == op)
        line(arr + "[tlc_t] = " + expr(v) + ";");
  }
  inThreadLoop = false;
  currentLoc = run.back()->getLoc();
  close();
  for (auto &[v, arr] : kept) {
    names[v] = arr + "[tlc_t]";
    laneArrays[v] = arr;
  }
  return success();
}

LogicalResult Emitter::emitBlockLevel(Operation *op) {
  currentLoc = op->getLoc();
  if (auto c = dyn_cast<tile::ConditionOp>(op)) {
    auto v = blockScalar(c.getCondition(), op,
                         "the condition of a loop with barriers or warp "
                         "operations");
    if (failed(v))
      return failure();
    line("if (!" + *v + ")");
    line("  break;");
    return success();
  }
  if (std::optional<bool> isBreak =
          blockLoopExit(op, blockLevelOps, [&](tile::IfOp i) {
            return isBlockValue(i.getCondition()) ||
                   i.getOperation() == exitingFiber;
          })) {
    auto i = cast<tile::IfOp>(op);
    auto v = blockScalar(i.getCondition(), op,
                         "the condition of a loop exit in a loop with "
                         "barriers or warp operations");
    if (failed(v))
      return failure();
    bool crossesFiber = false;
    for (Operation *p = op->getParentOp(); p && isa<tile::IfOp>(p);
         p = p->getParentOp())
      crossesFiber |= p == exitingFiber;
    if (crossesFiber) {
      // Out of the fiber (a lambda); the loop breaks after the join.
      line("if (" + *v + ") {");
      if (*isBreak)
        line("  " + exitingFiberFlag + " = true;");
      line("  return;");
      line("}");
      return success();
    }
    line("if (" + *v + ")");
    line(*isBreak ? "  break;" : "  continue;");
    return success();
  }
  if (auto i = dyn_cast<tile::IfOp>(op)) {
    Value cond = i.getCondition();
    if (isBlockValue(cond)) {
      open("if (" + expr(cond) + ")");
      if (failed(emitThreadedBlock(*i.thenBlock())))
        return failure();
      currentLoc = op->getLoc();
      if (Block *e = i.elseBlock()) {
        --indent;
        line("} else {");
        ++indent;
        if (failed(emitThreadedBlock(*e)))
          return failure();
        currentLoc = op->getLoc();
      }
      close();
      return success();
    }
    // A condition that may differ between threads: the branches run with
    // the threads that take them.
    std::string outer = activeMask;
    std::string thenMask = fresh("active"), elseMask;
    line("tlc::cpu::Lanes<uint8_t> " + thenMask + "(" + threadCount + ");");
    if (i.elseBlock()) {
      elseMask = fresh("active");
      line("tlc::cpu::Lanes<uint8_t> " + elseMask + "(" + threadCount + ");");
    }
    std::string c = "bool(" + laneValue(cond, "tlc_t") + ")";
    std::string o = outer.empty() ? "" : outer + "[tlc_t] && ";
    open("for (int64_t tlc_t = 0; tlc_t < " + threadCount + "; ++tlc_t)");
    line(thenMask + "[tlc_t] = " + o + c + ";");
    if (!elseMask.empty())
      line(elseMask + "[tlc_t] = " + o + "!" + c + ";");
    close();
    activeMask = thenMask;
    LogicalResult r = emitThreadedBlock(*i.thenBlock());
    if (succeeded(r) && i.elseBlock()) {
      activeMask = elseMask;
      r = emitThreadedBlock(*i.elseBlock());
    }
    activeMask = outer;
    return r;
  }
  if (isa<tile::ForOp, tile::PipelinedOp>(op)) {
    Value lbV, ubV, stepV, iv;
    Block *body;
    if (auto f = dyn_cast<tile::ForOp>(op)) {
      lbV = f.getLowerBound(), ubV = f.getUpperBound(), stepV = f.getStep();
      iv = f.getInductionVar();
      body = &f.getBody().front();
    } else {
      auto p = cast<tile::PipelinedOp>(op);
      lbV = p.getLowerBound(), ubV = p.getUpperBound();
      iv = p.getInductionVar();
      body = &p.getBody().front();
      comment(op, "T.Pipelined: a plain loop on the CPU");
    }
    const char *what = "a bound of a loop with barriers or warp operations";
    auto lb = blockScalar(lbV, op, what);
    auto ub = blockScalar(ubV, op, what);
    FailureOr<std::string> step = std::string("1");
    if (stepV)
      step = blockScalar(stepV, op, what);
    if (failed(lb) || failed(ub) || failed(step))
      return failure();
    std::string v = define(iv, isa<tile::ForOp>(op) ? "i" : "k");
    std::string cond;
    APInt stepValue;
    if (!stepV || matchPattern(stepV, m_ConstantInt(&stepValue)))
      cond = v + (stepV && stepValue.isNegative() ? " > " : " < ") + *ub;
    else
      cond = "(" + *step + " > 0 ? " + v + " < " + *ub + " : " + v + " > " +
             *ub + ")";
    // A body that is one fiber branch (and the arithmetic of its
    // condition): its threads' break leaves the loop, which no other
    // thread does anything in (CppEmitterFibers.cpp).
    std::string flag;
    if (fibered && isOnlyFiberBranch(*body)) {
      flag = fresh("fiber_break");
      line("bool " + flag + " = false;");
      fiberLoopBreaks[op] = flag;
    }
    open("for (int64_t " + v + " = " + *lb + "; " + cond + "; " + v +
         " += " + *step + ")");
    if (failed(emitThreadedBlock(*body)))
      return failure();
    currentLoc = op->getLoc();
    if (!flag.empty()) {
      line("if (" + flag + ")");
      line("  break;");
    }
    close();
    return success();
  }
  if (auto w = dyn_cast<tile::WhileOp>(op)) {
    open("while (true)");
    if (failed(emitThreadedBlock(w.getCond().front())) ||
        failed(emitThreadedBlock(w.getBody().front())))
      return failure();
    currentLoc = op->getLoc();
    close();
    return success();
  }
  if (fibered && (isBlockingOp(op) || isNamedBarrierArriveOp(op)))
    return emitBlockingOp(op);
  if (auto barrier = dyn_cast<tile::BarrierOp>(op)) {
    // Among the threads that run it (a branch on the thread index narrows
    // them): they have all finished the phase before it.
    comment(op, "barrier (" + barrier.getReason().str() +
                    "): the threads running it have finished the phase "
                    "before it");
    return success();
  }
  if (auto s = dyn_cast<tile::SyncThreadsOp>(op);
      s && s.getBarrierId() && *s.getBarrierId() != 0 && s.getArriveCount()) {
    // A named barrier of `count` threads (bar.sync id, count), typically
    // inside a branch on the thread index: among the threads that reach it,
    // which must be `count` of them, as for tile.barrier.
    std::string what = "T.sync_threads(" + std::to_string(*s.getBarrierId()) +
                       ", " + std::to_string(*s.getArriveCount()) + ")";
    comment(op, what + ": the threads that reach it have finished the phase "
                       "before it");
    line("tlc::cpu::namedBarrierThreads(st, " + locLiteral(op->getLoc()) +
         ", \"" + what + "\", " + activePtr() + ", " + threadCount + ", " +
         std::to_string(*s.getArriveCount()) + ");");
    line("if (st.hasFailed())");
    line("  return;");
    return success();
  }
  if (isBlockBarrier(op)) {
    comment(op, "T.sync_threads(): every thread has finished the phase "
                "before it");
    if (activeMask.empty())
      return success();
    line("tlc::cpu::allThreads(st, " + locLiteral(op->getLoc()) +
         ", \"T.sync_threads()\", " + activePtr() + ", " + threadCount + ");");
    line("if (st.hasFailed())");
    line("  return;");
    return success();
  }
  if (auto in = dyn_cast<tile::IntrinsicOp>(op)) {
    if (isWarpIntrinsic(in.getCallee()))
      return emitWarpIntrinsic(in);
    if (isBlockVoteIntrinsic(in.getCallee()))
      return emitBlockVote(in);
  }
  if (op->getNumRegions() && !isCollective(op))
    return op->emitError("the CPU target cannot run this operation for the "
                         "whole block (it holds barriers or warp operations)");
  return emitThreadedTileOp(op);
}

LogicalResult Emitter::emitThreadedTileOp(Operation *op) {
  // Scalars from the threads (a tile's offset computed from a per-thread
  // value) must agree: the operation runs once.
  // A per-thread buffer the operation only reads element by element (a
  // T.alloc_var bound in a T.Parallel) must hold the same values in its
  // threads, like a scalar operand: the operation reads one thread's copy.
  SmallVector<Value> lanesUsed, perThreadRead;
  bool perThreadWrite = false;
  // A T.Parallel dealt out by a fragment over per-thread buffers runs each
  // iteration on its owning thread's copies (CppEmitterPrivateLocals.cpp),
  // when every thread reaches it.
  bool owned = activeMask.empty() && privateLoops.count(op);
  op->walk([&](Operation *inner) {
    for (Value v : inner->getOperands()) {
      if (laneArrays.count(v) && !llvm::is_contained(lanesUsed, v))
        lanesUsed.push_back(v);
      if (!isPerThreadBuffer(v) || owned)
        continue;
      auto load = dyn_cast<tile::LoadOp>(inner);
      if (load && inner != op && perThreadStorage.count(v)) {
        if (!llvm::is_contained(perThreadRead, v))
          perThreadRead.push_back(v);
      } else {
        perThreadWrite = true;
      }
    }
  });
  if (perThreadWrite)
    return op->emitError(
        "the CPU target cannot run this tile operation on a T.alloc_local / "
        "T.alloc_var buffer in a kernel with per-thread code (each thread "
        "has its own copy); use a fragment or shared buffer, or per-thread "
        "loads and stores");
  bool masked = !activeMask.empty();
  if (masked)
    open("if (tlc::cpu::anyThread(" + activePtr() + ", " + threadCount + "))");
  std::string opName = op->getName().getStringRef().str();
  if (opName.rfind("tile.", 0) == 0)
    opName = "T." + opName.substr(5);
  if (opName == "T.parallel")
    opName = "T.Parallel";
  if (!perThreadRead.empty()) {
    // The first active thread's copies, once every active thread's agree.
    open("");
    for (Value v : perThreadRead) {
      std::string what = "T.alloc_local/T.alloc_var";
      if (auto n = dyn_cast<NameLoc>(v.getLoc()))
        what = "'" + n.getName().getValue().str() + "'";
      line("if (!tlc::cpu::lanesAgree(st, " + locLiteral(op->getLoc()) +
           ", \"" + what + " read by " + opName + "\", " + perThreadStorage[v] +
           ", " + activePtr() + ", " + threadCount + "))");
      line("  return;");
    }
    line("const int64_t tlc_t = tlc::cpu::firstActive(" + activePtr() + ", " +
         threadCount + ");");
  }
  SmallVector<std::pair<Value, std::string>> saved;
  for (Value v : lanesUsed) {
    auto u = blockScalar(v, op, "an operand of " + opName);
    if (failed(u))
      return failure();
    saved.push_back({v, names[v]});
    names[v] = *u;
  }
  LogicalResult r = emitOp(op);
  for (auto &[v, n] : saved)
    names[v] = n;
  currentLoc = op->getLoc();
  if (!perThreadRead.empty())
    close();
  if (masked)
    close();
  return r;
}

//===----------------------------------------------------------------------===//
// Warp and block operations
//===----------------------------------------------------------------------===//

/// The operand of \p op passed for \p param, or null.
static Value intrinsicArg(tile::IntrinsicOp op, StringRef param) {
  ArrayAttr params = op.getParams();
  for (auto [i, v] : llvm::enumerate(op.getArgs()))
    if (i < params.size() && cast<StringAttr>(params[i]).getValue() == param)
      return v;
  return {};
}

LogicalResult Emitter::emitWarpIntrinsic(tile::IntrinsicOp op) {
  StringRef callee = op.getCallee();
  std::string loc = locLiteral(op->getLoc());
  std::string what = "\"" + callee.str() + "\"";
  auto fail = [&](const Twine &why) {
    op.emitError() << callee << ": " << why;
    return failure();
  };
  auto need = [&](StringRef param) -> Value {
    Value v = intrinsicArg(op, param);
    if (!v)
      (void)fail("needs its '" + param + "' operand");
    return v;
  };
  if (callee == "T.ptx_ldmatrix")
    return emitLdmatrix(op);
  if (callee == "T.ds_read_tr16_b64" || callee == "T.ds_read_tr8_b64")
    return emitReadTransposed(op);
  Value maskV = intrinsicArg(op, "mask");
  std::string mask =
      maskV ? "uint32_t(" + laneValue(maskV, "tlc_t") + ")" : "0xffffffffu";
  bool implicitMask = callee == "T.ballot" || callee == "T.activemask";
  auto openThreads = [&]() {
    open("for (int64_t tlc_t = 0; tlc_t < " + threadCount + "; ++tlc_t)");
    if (!activeMask.empty()) {
      line("if (!" + activeMask + "[tlc_t])");
      line("  continue;");
    }
    if (implicitMask) {
      line("const uint32_t tlc_m = tlc::cpu::activeLanes(tlc_t, " +
           threadCount + ", " + activePtr() + ");");
    } else {
      line("uint32_t tlc_m = 0;");
      line("if (!tlc::cpu::warpMembers(st, " + loc + ", " + what + ", tlc_t, " +
           threadCount + ", " + mask + ", " + activePtr() + ", tlc_m))");
      line("  return;");
    }
    line("const int64_t tlc_base = tlc_t / 32 * 32;");
  };

  if (callee == "T.sync_warp") {
    comment(op, "T.sync_warp(): every lane has finished the phase before it");
    openThreads();
    line("(void)tlc_m;");
    line("(void)tlc_base;");
    close();
    return success();
  }
  if (op->getNumResults() != 1)
    return fail("has no result the CPU target knows");
  Value res = op.getResult(0);
  Type rt = res.getType();
  auto rty = valueType(rt, op);
  if (failed(rty))
    return failure();
  std::string arr = fresh("lanes");
  line("tlc::cpu::Lanes<" + *rty + "> " + arr + "(" + threadCount + ");");
  openThreads();
  auto store = [&](const std::string &e) {
    line(arr + "[tlc_t] = tlc::cpu::cast<" + *rty + ">(" + e + ");");
  };

  if (callee == "T.shfl_xor" || callee == "T.shfl_down" ||
      callee == "T.shfl_up" || callee == "T.shfl_sync" ||
      callee == "T.tvm_warp_shuffle") {
    std::string mode = llvm::StringSwitch<std::string>(callee)
                           .Case("T.shfl_xor", "Bfly")
                           .Case("T.shfl_down", "Down")
                           .Case("T.shfl_up", "Up")
                           .Default("Idx");
    StringRef laneParam = callee == "T.shfl_sync"          ? "srcLane"
                          : callee == "T.tvm_warp_shuffle" ? "warp_id"
                                                           : "delta";
    Value value = need("value"), lane = need(laneParam);
    if (!value || !lane)
      return failure();
    Value widthV = intrinsicArg(op, "width");
    std::string width =
        widthV ? "int64_t(" + laneValue(widthV, "tlc_t") + ")" : "32";
    // Width 64 spans a HIP wavefront (two of the CPU target's warps).
    std::string operand = "int64_t(" + laneValue(lane, "tlc_t") + ")";
    line("const int64_t tlc_w = " + width + ";");
    line("const int64_t tlc_src = tlc_w == 64 ? "
         "tlc::cpu::waveShuffleSource(st, " +
         loc + ", " + what + ", tlc::cpu::Shuffle::" + mode + ", tlc_t, " +
         threadCount + ", " + activePtr() + ", " + operand +
         ") : tlc::cpu::shuffleSource(st, " + loc + ", " + what +
         ", tlc::cpu::Shuffle::" + mode + ", tlc_t, tlc_m, " + operand +
         ", tlc_w);");
    line("if (tlc_src < 0)");
    line("  return;");
    line("(void)tlc_base;");
    store(laneValue(value, "tlc_src"));
  } else if (callee == "T.ballot_sync" || callee == "T.ballot" ||
             callee == "T.any_sync" || callee == "T.all_sync") {
    Value pred = need("pred");
    if (!pred)
      return failure();
    line("uint32_t tlc_bits = 0;");
    open("for (int tlc_l = 0; tlc_l < 32; ++tlc_l)");
    line("if ((tlc_m >> tlc_l & 1u) && bool(" +
         laneValue(pred, "tlc_base + tlc_l") + "))");
    line("  tlc_bits |= 1u << tlc_l;");
    close();
    if (callee == "T.any_sync")
      store("int32_t(tlc_bits != 0)");
    else if (callee == "T.all_sync")
      store("int32_t(tlc_bits == tlc_m)");
    else
      store("int32_t(tlc_bits)");
  } else if (callee == "T.activemask") {
    line("(void)tlc_base;");
    store("int32_t(tlc_m)");
  } else if (callee == "T.match_any_sync" || callee == "T.match_all_sync") {
    Value value = need("value");
    if (!value)
      return failure();
    if (!isa<IntegerType, IndexType>(value.getType()))
      return fail("compares integer values on the CPU target");
    line("uint32_t tlc_bits = 0;");
    open("for (int tlc_l = 0; tlc_l < 32; ++tlc_l)");
    line("if ((tlc_m >> tlc_l & 1u) && " +
         laneValue(value, "tlc_base + tlc_l") +
         " == " + laneValue(value, "tlc_t") + ")");
    line("  tlc_bits |= 1u << tlc_l;");
    close();
    store(callee == "T.match_any_sync"
              ? "int32_t(tlc_bits)"
              : "int32_t(tlc_bits == tlc_m ? tlc_m : 0u)");
  } else if (callee.starts_with("T.warp_reduce_")) {
    Value value = need("value");
    if (!value)
      return failure();
    auto vty = valueType(value.getType(), op);
    if (failed(vty))
      return failure();
    bool isFloat = isa<FloatType>(value.getType());
    bool small = isSmallFloat(value.getType());
    std::string a = small ? "float(a)" : "a", b = small ? "float(b)" : "b";
    std::string e;
    if (callee == "T.warp_reduce_sum")
      e = a + " + " + b;
    else if (callee == "T.warp_reduce_max")
      e = isFloat ? "std::fmax(" + a + ", " + b + ")"
                  : a + " > " + b + " ? " + a + " : " + b;
    else if (callee == "T.warp_reduce_min")
      e = isFloat ? "std::fmin(" + a + ", " + b + ")"
                  : a + " < " + b + " ? " + a + " : " + b;
    else if (!isFloat && callee == "T.warp_reduce_bitand")
      e = a + " & " + b;
    else if (!isFloat && callee == "T.warp_reduce_bitor")
      e = a + " | " + b;
    else
      return fail("is not a warp reduction the CPU target knows for this "
                  "type");
    // The GPU's butterfly over 32 lanes (CUDA target: warpAllReduce).
    line("if (tlc_m != 0xffffffffu) {");
    line("  st.fail(" + loc + ", \"" + callee.str() +
         " needs the 32 lanes of a full warp (the block's last warp is "
         "short)\");");
    line("  return;");
    line("}");
    store("tlc::cpu::warpAllReduce<" + *vty + ">(int(tlc_t % 32), [](" + *vty +
          " a, " + *vty + " b) { return " + *vty + "(" + e +
          "); }, [&](int tlc_l) { return " +
          laneValue(value, "tlc_base + tlc_l") + "; })");
  } else {
    return fail("is not a warp operation the CPU target knows");
  }
  close();
  names[res] = arr + "[tlc_t]";
  laneArrays[res] = arr;
  return success();
}

LogicalResult Emitter::emitBlockVote(tile::IntrinsicOp op) {
  StringRef callee = op.getCallee();
  Value pred = intrinsicArg(op, "pred");
  if (!pred || op->getNumResults() != 1)
    return op.emitError() << callee << ": needs a predicate and a result";
  auto rty = valueType(op.getResult(0).getType(), op);
  if (failed(rty))
    return failure();
  std::string loc = locLiteral(op->getLoc());
  std::string n = fresh("votes");
  line("int64_t " + n + " = 0;");
  line("tlc::cpu::allThreads(st, " + loc + ", \"" + callee.str() + "\", " +
       activePtr() + ", " + threadCount + ");");
  line("if (st.hasFailed())");
  line("  return;");
  open("for (int64_t tlc_t = 0; tlc_t < " + threadCount + "; ++tlc_t)");
  line(n + " += bool(" + laneValue(pred, "tlc_t") + ") ? 1 : 0;");
  close();
  std::string e = callee == "T.syncthreads_count" ? n
                  : callee == "T.syncthreads_and"
                      ? "int64_t(" + n + " == " + threadCount + ")"
                      : "int64_t(" + n + " != 0)";
  // The same value in every thread: a block value from here on.
  std::string name = define(op.getResult(0), "vote");
  line("const " + *rty + " " + name + " = tlc::cpu::cast<" + *rty + ">(" + e +
       ");");
  return success();
}

std::optional<LogicalResult>
Emitter::emitThreadIntrinsic(tile::IntrinsicOp op) {
  StringRef callee = op.getCallee();
  if (!inThreadLoop)
    return std::nullopt;
  auto result = [&](const std::string &e) -> LogicalResult {
    auto t = valueType(op.getResult(0).getType(), op);
    if (failed(t))
      return failure();
    line("const " + *t + " " + define(op.getResult(0), "r") +
         " = tlc::cpu::cast<" + *t + ">(" + e + ");");
    return success();
  };
  auto constant = [&](StringRef param, int64_t dflt) -> std::optional<int64_t> {
    Value v = intrinsicArg(op, param);
    if (!v)
      return dflt;
    IntegerAttr c;
    if (!matchPattern(v, m_Constant(&c)))
      return std::nullopt;
    return c.getValue().getSExtValue();
  };
  if (callee == "T.get_lane_idx" || callee == "T.get_warp_idx" ||
      callee == "T.get_warp_idx_sync" || callee == "T.get_warp_group_idx") {
    std::optional<int64_t> ws = constant("warp_size", 32);
    std::optional<int64_t> wpg = constant("warps_per_group", 4);
    if (!ws || !wpg || *ws <= 0 || *wpg <= 0)
      return op.emitError() << callee
                            << ": needs a constant, positive warp size and "
                               "warps per group";
    std::string w = std::to_string(*ws);
    if (callee == "T.get_lane_idx")
      return result("tlc_t % " + w);
    if (callee == "T.get_warp_group_idx")
      return result("tlc_t / (" + w + " * " + std::to_string(*wpg) + ")");
    return result("tlc_t / " + w);
  }
  if (callee == "T.shuffle_elect") {
    // Thread 0 of each group of thread_extent threads rounded up to whole
    // warps (0 or the block: thread 0), as the CUDA target elects.
    std::optional<int64_t> n = constant("thread_extent", 0);
    if (!n || *n < 0)
      return op.emitError() << callee
                            << ": needs a constant, non-negative thread "
                               "extent (0: the whole block)";
    int64_t group = (*n + 31) / 32 * 32;
    if (*n == 0)
      return result("tlc_t == 0");
    return result("(" + std::to_string(group) + " >= " + threadCount +
                  " ? tlc_t == 0 : tlc_t % " + std::to_string(group) +
                  " == 0)");
  }
  return std::nullopt;
}

std::optional<LogicalResult> Emitter::emitLoopExit(tile::IntrinsicOp op) {
  StringRef callee = op.getCallee();
  if (callee != "T.loop_break" && callee != "T.loop_continue")
    return std::nullopt;
  // A serial loop is a C++ loop (a while loop tests its condition at the
  // top), run by each thread of a thread loop or once for a block run by
  // one executor, so break/continue are C++'s.
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    if (isa<tile::ParallelOp, tile::KernelOp>(p))
      break;
    if (!isa<tile::ForOp, tile::WhileOp, tile::PipelinedOp>(p))
      continue;
    if (threaded && blockLevelOps.contains(p))
      return op.emitError()
             << callee
             << ": leaves a loop with barriers or warp operations under a "
                "condition that may differ between threads; the CPU target "
                "runs that loop for the whole block (write it as `if cond: "
                "break` directly in the loop body, with a condition every "
                "thread agrees on)";
    line(callee == "T.loop_break" ? "break;" : "continue;");
    return success();
  }
  return op.emitError() << callee << ": is not inside a serial loop";
}
