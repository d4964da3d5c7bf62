//===- WarpSpecialize.cpp - The --tile-warp-specialize pass ---------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Warp specialisation of the TMA pipelines of sm_90a kernels (Passes.td has
// the contract): a kernel whose one pipelined loop is loaded by TMA and
// computes with wgmma gets a producer warpgroup after its own threads,
// which issues the loads through a ring of full and empty mbarriers (a
// ring per operand group when several gemms read them, as in attention),
// while the program's threads only wait, compute and release stages.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "Sm90Limits.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/IR/PassConfigs.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/SetVector.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEWARPSPECIALIZE
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// The consumers' count when two blocks of one consumer warpgroup share a
/// multiprocessor.
static constexpr int64_t kConsumerRegsTwoBlocks = 216;
/// Two blocks of one consumer warpgroup share a multiprocessor only when
/// the fragments take at most this many 32-bit registers per consumer
/// thread, which leaves the rest of kConsumerRegsTwoBlocks for addresses,
/// descriptors and temporaries (ptxas spilled a flash attention whose
/// fragments take 244 registers at 216; the 128-register GEMM
/// accumulator does not spill).
static constexpr int64_t kTwoBlockFragmentRegs = 160;
/// Shared memory of an sm_90 multiprocessor, and what the system reserves
/// per block.
static constexpr int64_t kSm90SharedPerSm = 228 * 1024;
static constexpr int64_t kSm90ReservedShared = 1024;

/// Whether \p op is code the producer may recompute: index arithmetic and
/// views of the function's global tensors.
static bool isProducerScalar(Operation *op) {
  if (auto region = dyn_cast<RegionOp>(op)) {
    auto arg = dyn_cast<BlockArgument>(region.getSource());
    return arg && isa<FuncOp>(arg.getOwner()->getParentOp());
  }
  return op->getDialect() && isa<arith::ArithDialect>(op->getDialect()) &&
         op->getNumRegions() == 0 && isPure(op);
}

/// Collects into \p slice the ops of \p kernel that \p roots depend on;
/// false when one of them is not a producer scalar.
static bool collectSlice(KernelOp kernel, ArrayRef<Value> roots,
                         llvm::SetVector<Operation *> &slice) {
  SmallVector<Value> work(roots.begin(), roots.end());
  while (!work.empty()) {
    Value v = work.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def) {
      // Block indices of the kernel, arguments of the function; the
      // pipelined loop's own index.
      continue;
    }
    if (!kernel->isProperAncestor(def))
      continue; // computed before the kernel: both branches see it
    if (!isProducerScalar(def))
      return false;
    if (!slice.insert(def))
      continue;
    for (Value o : def->getOperands())
      work.push_back(o);
  }
  return true;
}

/// The integer argument of the intrinsic \p callee in \p kernel, 0 when it
/// is absent or not a constant, -1 when \p callee is absent.
static int64_t intrinsicArg(KernelOp kernel, StringRef callee) {
  int64_t value = -1;
  kernel.walk([&](IntrinsicOp in) {
    if (in.getCallee() != callee)
      return;
    value = 0;
    IntegerAttr c;
    if (in.getArgs().size() == 1 &&
        matchPattern(in.getArgs()[0], m_Constant(&c)))
      value = c.getValue().getSExtValue();
  });
  return value;
}

/// The 32-bit registers per thread that \p kernel's fragments take when
/// spread evenly over its \p threads threads (the layouts spread them so).
static int64_t fragmentRegisters(KernelOp kernel, int64_t threads) {
  int64_t bytes = 0;
  kernel.walk([&](AllocOp alloc) {
    auto t = cast<BufferType>(alloc.getType());
    if (t.getScope() != MemoryScope::Fragment || !t.isStatic())
      return;
    int64_t n = getElementStorageBytes(t.getElementType());
    for (int64_t e : t.getShape())
      n *= e;
    bytes += n;
  });
  return (bytes / threads + 3) / 4;
}

/// Whether \p kernel already arranges its threads itself: thread indices,
/// branches on them (T.ws, `if tx < c`), mbarriers, setmaxnreg, named
/// barriers or warpgroup intrinsics. Such kernels are left alone.
/// Reductions and scans are not: the printer synchronises their cross-warp
/// steps with the barrier of the program's threads, which in a
/// warp-specialised kernel is a named barrier of the consumers.
static bool hasExplicitThreadCode(KernelOp kernel) {
  bool found = false;
  kernel.walk([&](Operation *op) {
    if (isa<ThreadBindingOp>(op))
      found = true;
    else if (auto alloc = dyn_cast<AllocOp>(op))
      found |=
          cast<BufferType>(alloc.getType()).getScope() == MemoryScope::Barrier;
    else if (auto ifOp = dyn_cast<IfOp>(op))
      found |= mayVaryAcrossThreads(ifOp.getCondition());
    else if (auto sync = dyn_cast<SyncThreadsOp>(op))
      found |= sync.getBarrierId().has_value();
    else if (auto in = dyn_cast<IntrinsicOp>(op)) {
      StringRef c = in.getCallee();
      if (c.contains("barrier") || c.contains("nreg") || c == "T.ws" ||
          c.contains("warpgroup") || c.contains("wgmma") || c.contains("tma") ||
          c.contains("thread") || c.contains("lane") ||
          c.contains("warp_idx") || c.contains("shfl") || c.contains("elect"))
        found |= !c.starts_with("T.annotate") &&
                 c != "T.disable_warp_group_reg_alloc" &&
                 c != "T.no_set_max_nreg";
    }
  });
  return found;
}

/// One wgmma group in flight across iterations: when the loop's one gemm
/// reads both operands from shared memory and nothing else in the loop
/// touches its accumulator, iteration k waits only for the group of k - 1
/// (wait_group 1) and releases that stage; the consumers wait for the last
/// group after the loop.
static void planWaitDepth(PipelinedOp pipe, Builder &b) {
  SmallVector<GemmOp> gemms;
  pipe.walk([&](GemmOp g) { gemms.push_back(g); });
  if (gemms.size() != 1)
    return;
  GemmOp gemm = gemms.front();
  auto a = gemm.getA().getDefiningOp<AllocOp>();
  if (!a || !isSharedScope(cast<BufferType>(a.getType()).getScope()))
    return;
  auto c = gemm.getC().getDefiningOp<AllocOp>();
  if (!c)
    return;
  for (Operation *user : c.getResult().getUsers())
    if (user != gemm.getOperation() && pipe->isAncestor(user))
      return;
  gemm->setAttr("tile.wgmma_wait", b.getI64IntegerAttr(1));
}

/// The top-level ops of \p body that read \p dst (other than \p copy).
static SmallVector<Operation *> readersIn(Block &body, Value dst,
                                          Operation *copy) {
  SmallVector<Operation *> readers;
  for (Operation *user : dst.getUsers()) {
    if (user == copy)
      continue;
    Operation *top = body.findAncestorOpInBlock(*user);
    if (top && !llvm::is_contained(readers, top))
      readers.push_back(top);
  }
  llvm::sort(readers,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return readers;
}

/// Splits the producers of \p pipe into rings of their own when the loop
/// computes with several gemms that each wait for their wgmma group (no
/// group in flight): producers read by the same first and last op of the
/// body share a ring, so attention's K (read by S = Q K^T) and V (read by
/// O += P V) get a ring each and the consumers release K's stage as soon
/// as S is computed. Returns the number of rings (1: one ring, no
/// attribute), marking each producer with `tile.ws_ring`.
static int64_t planRings(PipelinedOp pipe, ArrayRef<CopyOp> producers,
                         Builder &b) {
  bool inFlight = false;
  int64_t gemms = 0;
  pipe.walk([&](GemmOp g) {
    ++gemms;
    inFlight |= g->hasAttr("tile.wgmma_wait");
  });
  if (inFlight || gemms < 2 || producers.size() < 2)
    return 1;
  Block &body = pipe.getBody().front();
  SmallVector<std::pair<Operation *, Operation *>> spans;
  SmallVector<int64_t> ringOf;
  for (CopyOp copy : producers) {
    SmallVector<Operation *> readers =
        readersIn(body, copy.getDst(), copy.getOperation());
    if (readers.empty())
      return 1;
    std::pair<Operation *, Operation *> span{readers.front(), readers.back()};
    auto *it = llvm::find(spans, span);
    ringOf.push_back(it - spans.begin());
    if (it == spans.end())
      spans.push_back(span);
  }
  if (spans.size() < 2)
    return 1;
  for (auto [copy, ring] : llvm::zip(producers, ringOf))
    copy->setAttr("tile.ws_ring", b.getI64IntegerAttr(ring));
  return spans.size();
}

/// Ping-pong of the two consumer warpgroups of \p pipe (256 consumer
/// threads) over a loop of several gemms that each wait for their own
/// wgmma group (attention): the warpgroups take turns issuing the gemms,
/// so that one's softmax runs while the other's gemm has the tensor
/// cores. Each gemm at the top of the loop body gets `tile.ws_pingpong`;
/// the loop gets the first of the two named barriers. Nothing when a gemm
/// sits under a branch or loop of the body (the turns must be taken by
/// both warpgroups at the same points).
static void planPingPong(PipelinedOp pipe, Builder &b) {
  SmallVector<GemmOp> gemms;
  bool nested = false;
  pipe.walk([&](GemmOp g) {
    gemms.push_back(g);
    nested |= g->getBlock() != &pipe.getBody().front() ||
              g->hasAttr("tile.wgmma_wait");
  });
  if (gemms.size() < 2 || nested)
    return;
  for (GemmOp g : gemms)
    g->setAttr("tile.ws_pingpong", b.getUnitAttr());
  pipe->setAttr("tile.ws_pingpong", b.getI64IntegerAttr(kFirstTurnBarrier));
}

/// Whether \p op (a top-level op of a warp-specialised loop body) is
/// scalar code every section of the loop recomputes: index arithmetic and
/// views.
static bool isBodyScalar(Operation *op) {
  return isa<RegionOp>(op) ||
         (op->getDialect() && isa<arith::ArithDialect>(op->getDialect()) &&
          op->getNumRegions() == 0 && isPure(op));
}

/// Whether \p op or an op nested in it reads a value that \p body defines
/// at its top level (other than a constant) or \p body's induction
/// variable: such an op cannot run one iteration late.
static bool readsIterationValues(Operation *op, Block &body) {
  bool found = false;
  op->walk([&](Operation *inner) {
    for (Value v : inner->getOperands()) {
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        found |= arg.getOwner() == &body;
        continue;
      }
      Operation *def = v.getDefiningOp();
      found |= def->getBlock() == &body && !matchPattern(def, m_Constant());
    }
  });
  return found;
}

/// FA3's intra-warpgroup overlap of attention's softmax with the previous
/// iteration's O += P V: in a loop of two top-level wgmma gemms S = Q K^T
/// and O += P V (P a register fragment), each iteration issues its S gemm,
/// then the previous iteration's P V part (the ops after the last write of
/// P: O's rescale and the P V gemm), waits for S only (wait_group 1),
/// runs its softmax while P V is in flight, waits for P V (wait_group 0)
/// and only then writes P. Marks the P V part `tile.ws_stage = 1`, the ops
/// that touch P V's registers after S (the cast to P) `tile.ws_after_wait`
/// and the loop `tile.ws_overlap`; nothing when the body does not have that
/// shape, an op would change order with one it depends on, or O has fewer
/// than \p minHeadDim columns.
static void planSoftmaxOverlap(PipelinedOp pipe, ArrayRef<CopyOp> producers,
                               int64_t minHeadDim, Builder &b) {
  Block &body = pipe.getBody().front();
  SmallVector<Operation *> ops;
  SmallVector<GemmOp> gemms;
  for (Operation &op : body) {
    if (op.hasAttr("tile.prefetch") || isBodyScalar(&op) ||
        op.hasTrait<OpTrait::IsTerminator>())
      continue;
    // tile-split-masks' branch holds a fill and the mask's loop.
    if (!isa<ParallelOp, CopyOp, GemmOp, ReduceOp, FillOp, ClearOp>(op) &&
        !op.hasAttr("tile.split_mask"))
      return; // barriers, branches, loops: not planned
    ops.push_back(&op);
    if (auto g = dyn_cast<GemmOp>(op))
      gemms.push_back(g);
  }
  if (gemms.size() != 2 || ops.back() != gemms[1].getOperation())
    return;
  GemmOp qk = gemms[0], pv = gemms[1];
  Value p = getRootBuffer(pv.getA()), o = getRootBuffer(pv.getC());
  if (getScopeOf(p) != MemoryScope::Fragment ||
      getScopeOf(getRootBuffer(qk.getA())) == MemoryScope::Fragment)
    return;
  // O's columns are the head dimension.
  auto oType = cast<BufferType>(o.getType());
  if (minHeadDim > 0 && (!oType.isStatic() || oType.getShape().empty() ||
                         oType.getShape().back() < minHeadDim))
    return;
  // The P V part: after the last write of P.
  auto qkAt = llvm::find(ops, qk.getOperation()) - ops.begin();
  auto pvAt = static_cast<int64_t>(ops.size()) - 1;
  int64_t lastP = -1;
  for (int64_t i = 0; i < pvAt; ++i)
    if (getBufferAccesses(ops[i]).writes.contains(p))
      lastP = i;
  if (lastP <= qkAt)
    return;
  auto buffers = [](Operation *op) {
    BufferAccesses a = getBufferAccesses(op);
    llvm::SmallPtrSet<Value, 8> all(a.reads.begin(), a.reads.end());
    all.insert(a.writes.begin(), a.writes.end());
    return std::make_pair(a, all);
  };
  // The P V part runs after the next iteration's ops up to S = Q K^T and
  // while that S is in flight: no buffer may pass between them. It may not
  // read what the iteration computes either (it runs an iteration late).
  for (int64_t i = lastP + 1; i <= pvAt; ++i) {
    if (readsIterationValues(ops[i], body))
      return;
    auto [late, lateAll] = buffers(ops[i]);
    for (int64_t j = 0; j <= qkAt; ++j) {
      auto [early, earlyAll] = buffers(ops[j]);
      for (Value w : late.writes)
        if (earlyAll.contains(w))
          return;
      for (Value w : early.writes)
        if (lateAll.contains(w))
          return;
    }
  }
  // The softmax runs while P V is in flight: the first op after S that
  // touches P V's registers (P or O) waits for it, and so do the rest.
  int64_t firstWait = lastP;
  for (int64_t i = qkAt + 1; i <= lastP; ++i) {
    auto [acc, all] = buffers(ops[i]);
    if (all.contains(p) || all.contains(o) ||
        all.contains(getRootBuffer(pv.getB()))) {
      firstWait = i;
      break;
    }
  }
  // Each ring is read by one of the two gemms only (K's released after the
  // wait for S, V's after the wait for P V).
  for (CopyOp copy : producers)
    for (Operation *user : copy.getDst().getUsers())
      if (user != copy.getOperation() && user != qk.getOperation() &&
          user != pv.getOperation())
        return;
  for (int64_t i = lastP + 1; i <= pvAt; ++i)
    ops[i]->setAttr("tile.ws_stage", b.getI64IntegerAttr(1));
  for (int64_t i = firstWait; i <= lastP; ++i)
    ops[i]->setAttr("tile.ws_after_wait", b.getUnitAttr());
  pipe->setAttr("tile.ws_overlap", b.getUnitAttr());
}

/// The head dimension from which the softmax overlap is on by default.
static constexpr int64_t kOverlapDefaultMinHeadDim = 128;

namespace {
struct TileWarpSpecializePass final
    : tlc::tile::impl::TileWarpSpecializeBase<TileWarpSpecializePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    forEachSm90aKernel(module, target,
                       [&](KernelOp kernel) { planKernel(kernel, b); });
  }

  void planKernel(KernelOp kernel, Builder &b) {
    // TL_DISABLE_WARP_SPECIALIZED keeps the single-role pipeline.
    if (isPassConfigOn(kernel, "tl.disable_warp_specialized"))
      return;
    auto planned = kernel->getAttrOfType<IntegerAttr>("tile.shared_bytes");
    std::optional<int64_t> threads = kernel.getStaticNumThreads();
    if (!planned || !threads || *threads % 128 || *threads < 128 ||
        *threads > 384 || hasExplicitThreadCode(kernel))
      return;
    // One TMA pipeline, in the kernel body itself (not under a loop or a
    // branch): the producer runs exactly its iterations.
    SmallVector<PipelinedOp> pipes;
    kernel.walk([&](PipelinedOp pipe) {
      if (pipe->hasAttr("tile.tma_barriers"))
        pipes.push_back(pipe);
    });
    if (pipes.size() != 1)
      return;
    PipelinedOp pipe = pipes.front();
    if (pipe->getBlock() != &kernel.getBody().front())
      return;
    // Every gemm of the loop is wgmma, and there is one.
    bool gemms = false, other = false;
    pipe.walk([&](GemmOp gemm) {
      auto instr = gemm->getAttrOfType<StringAttr>("tile.instr");
      (instr && instr.getValue() == "wgmma" ? gemms : other) = true;
    });
    if (!gemms || other)
      return;
    // A loop of several gemms (attention) with one consumer warpgroup stays
    // single-role: that warpgroup serialises the softmax and both gemms
    // anyway, and the producer costs it the second block per multiprocessor
    // (H200, docs/perf/hopper-fa-ws.md: 0.57-0.65x cuDNN warp-specialised
    // against 0.76-0.87x single-role at 128 x 64 tiles).
    int64_t gemmCount = 0;
    pipe.walk([&](GemmOp) { ++gemmCount; });
    if (gemmCount > 1 && *threads < 256)
      return;
    // The stages are written by the producer's copies only and read by
    // wgmma only (whose completion, waited for by each consumer before it
    // releases a stage, is what the empty barriers order).
    SmallVector<Value> roots{pipe.getLowerBound(), pipe.getUpperBound()};
    SmallVector<CopyOp> producers;
    for (Operation &op : pipe.getBody().front()) {
      if (!op.hasAttr("tile.prefetch"))
        continue;
      auto copy = dyn_cast<CopyOp>(op);
      if (!copy || !copy->hasAttr("tile.tma"))
        return;
      producers.push_back(copy);
      roots.push_back(copy.getSrc());
      for (OpOperand &use : copy.getDst().getUses()) {
        Operation *user = use.getOwner();
        if (user == copy.getOperation())
          continue;
        auto gemm = dyn_cast<GemmOp>(user);
        if (!gemm || !pipe->isProperAncestor(gemm) || use.get() == gemm.getC())
          return;
      }
    }
    // The producer recomputes the index arithmetic its copies need.
    llvm::SetVector<Operation *> slice;
    if (!collectSlice(kernel, roots, slice))
      return;
    // tile-plan-tma's one-shot TMA loads (attention's Q): the producer
    // issues them before its loop when it can compute their coordinates;
    // else the consumers' threads load them.
    for (Operation &op : kernel.getBody().front()) {
      auto copy = dyn_cast<CopyOp>(op);
      if (!copy || !copy->hasAttr("tile.tma_once"))
        continue;
      llvm::SetVector<Operation *> once;
      if (!collectSlice(kernel, {copy.getSrc()}, once)) {
        copy->removeAttr("tile.tma_once");
        copy->removeAttr("tile.tma");
      }
    }
    // The empty barriers: one per stage and ring after everything else.
    // With several rings the full ring tile-plan-tma placed last grows to
    // one barrier per stage and ring in place.
    int64_t stages = pipe->getAttrOfType<IntegerAttr>("tile.stages").getInt();
    int64_t fullOffset =
        pipe->getAttrOfType<IntegerAttr>("tile.tma_barriers").getInt();
    planWaitDepth(pipe, b);
    int64_t rings = 1;
    if (planned.getInt() == fullOffset + 8 * stages)
      rings = planRings(pipe, producers, b);
    int64_t offset = (fullOffset + 8 * rings * stages + 7) / 8 * 8;
    if (rings == 1)
      offset = (planned.getInt() + 7) / 8 * 8;
    int64_t end = offset + 8 * rings * stages;
    if (end > kSm90SharedLimit) {
      for (CopyOp copy : producers)
        copy->removeAttr("tile.ws_ring");
      pipe.walk([](GemmOp g) { g->removeAttr("tile.wgmma_wait"); });
      return;
    }
    if (rings > 1)
      pipe->setAttr("tile.ws_rings", b.getI64IntegerAttr(rings));
    // Two consumer warpgroups over attention's gemms take turns at the
    // tensor cores when tlc.ws_pingpong asks (measured on the H200 between
    // -7% and +8% against free-running warpgroups, no gain overall:
    // docs/perf/hopper-fa-pingpong.md).
    if (rings > 1 && *threads == 256 &&
        isPassConfigOn(kernel, "tlc.ws_pingpong"))
      planPingPong(pipe, b);
    // The softmax overlaps the previous iteration's P V gemm when
    // tlc.ws_overlap asks, and by default from a head dimension of 128 (on
    // the H200 vs cuDNN: D128 0.852 -> 0.926, causal 0.795 -> 0.832; D64
    // 0.888 -> 0.820, causal 0.764 -> 0.750: docs/perf/hopper-fa-overlap.md).
    std::optional<StringRef> overlap = getPassConfig(kernel, "tlc.ws_overlap");
    if (rings > 1 && (!overlap || isPassConfigOn(kernel, "tlc.ws_overlap")))
      planSoftmaxOverlap(pipe, producers,
                         overlap ? 0 : kOverlapDefaultMinHeadDim, b);
    kernel->setAttr("tile.shared_bytes", b.getI64IntegerAttr(end));
    pipe->setAttr("tile.ws_empty_barriers", b.getI64IntegerAttr(offset));
    kernel->setAttr("tile.ws_producer_threads",
                    b.getI64IntegerAttr(kWarpgroupThreads));
    // setmaxnreg unless the program opts out; T.annotate_producer_reg_dealloc
    // / T.annotate_consumer_reg_alloc choose the counts.
    if (intrinsicArg(kernel, "T.disable_warp_group_reg_alloc") >= 0 ||
        intrinsicArg(kernel, "T.no_set_max_nreg") >= 0 || *threads > 256)
      return;
    // One consumer warpgroup whose shared memory lets two blocks share a
    // multiprocessor keeps two: the registers are split so that both fit
    // (2 x 128 x (40 + 216) = 65536), and __launch_bounds__ says 2.
    int64_t blocks = 1;
    if (*threads == 128 &&
        intrinsicArg(kernel, "T.annotate_min_blocks_per_sm") < 0 &&
        fragmentRegisters(kernel, *threads) <= kTwoBlockFragmentRegs &&
        2 * (end + kSm90ReservedShared) <= kSm90SharedPerSm)
      blocks = 2;
    int64_t producer = intrinsicArg(kernel, "T.annotate_producer_reg_dealloc");
    int64_t consumer = intrinsicArg(kernel, "T.annotate_consumer_reg_alloc");
    auto valid = [](int64_t r) { return r >= 24 && r <= 256 && r % 8 == 0; };
    const int64_t producer_ = producer, consumer_ = consumer;
    if (!valid(producer))
      producer = kProducerRegs;
    if (!valid(consumer))
      consumer = blocks == 2 ? kConsumerRegsTwoBlocks : kConsumerRegs;
    // Attention's two consumer warpgroups at FA3's 24 / 240 when
    // tlc.ws_fa3_regs asks (the 20-byte spill of the D128 overlap kernel at
    // 232 goes: docs/perf/hopper.md).
    if (rings > 1 && *threads == 256 && !valid(producer_) &&
        !valid(consumer_) && isPassConfigOn(kernel, "tlc.ws_fa3_regs")) {
      producer = kProducerRegsFa3;
      consumer = kConsumerRegsFa3;
    }
    if (blocks * (kWarpgroupThreads * producer + *threads * consumer) > 65536)
      blocks = 1;
    if (kWarpgroupThreads * producer + *threads * consumer > 65536)
      return;
    kernel->setAttr("tile.ws_max_nreg",
                    b.getDenseI64ArrayAttr({producer, consumer}));
    kernel->setAttr("tile.ws_blocks_per_sm", b.getI64IntegerAttr(blocks));
  }
};
} // namespace
