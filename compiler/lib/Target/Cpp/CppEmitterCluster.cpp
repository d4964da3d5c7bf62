//===- CppEmitterCluster.cpp - Clusters and cluster launch control --------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the blocks of a thread-block cluster do to each other on the CPU
// target, and Blackwell's cluster launch control:
//
// * a kernel whose cluster's blocks work together runs each cluster's
//   blocks at once, one host thread each (tlc::cpu::launchClusters); its
//   shared allocations (shared, mbarriers, tensor memory) are published to
//   the cluster as they are made, and a block keeps them until every block
//   of the cluster has finished (a tlc::cpu::ClusterExitGuard declared
//   after each, whose destructor runs before the buffer's);
// * an access to another block's shared memory (mapa.shared::cluster) is
//   the same buffer, at the same offset, in that block
//   (tlc::cpu::clusterPeer / peerView): remote mbarrier arrivals,
//   T.copy_cluster into a block of the cluster (its remote_barrier gets
//   one arrival, the bytes landed, as on sm_90a; with a cluster_mask,
//   TileLang's multicast: the mask's lowest rank copies its region into
//   every block of the mask between two cluster barriers), the operands and
//   accumulators of a 2-CTA tcgen05 gemm, the multicast of
//   T.clc_try_cancel_multicast;
// * T.clc_try_cancel claims the next cluster of the launch that has not
//   started (the launcher then never starts it) or answers "not canceled"
//   when none is left (tlc::cpu::LaunchQueue), writes the response and
//   completes its 16 bytes on the mbarrier; T.clc_is_canceled /
//   T.clc_get_first_ctaid_* decode it.
//
// mbarrier state shared between blocks is kept under the cluster's mutex,
// and a block that waits for a peer sleeps until a block of the cluster
// makes progress; a wait of every running block is a deadlock
// (tlc_device/cpu/fibers.h, launch.h).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::target;
using namespace tlc::target::detail;


/// Whether \p op reaches another block of the cluster (its shared memory or
/// mbarriers) or synchronises with it.
static bool reachesCluster(Operation *op) {
  if (auto g = dyn_cast<tile::GemmOp>(op))
    return g->hasAttr("tile.use_2cta");
  if (auto c = dyn_cast<tile::ClcTryCancelOp>(op))
    return c.getMulticast();
  auto in = dyn_cast<tile::IntrinsicOp>(op);
  if (!in)
    return false;
  StringRef callee = in.getCallee();
  if (isClusterIntrinsic(callee) || callee == "T.ptx_arrive_cluster_barrier" ||
      callee == "T.copy_cluster")
    return true;
  if (callee == "T.ptx_arrive_barrier")
    return in.getArgs().size() > 1;
  if (callee == "T.tcgen05_mma_arrive") {
    Value two = intrinsicArg(in, "arrive_2cta");
    return two && !matchPattern(two, m_Zero());
  }
  return intrinsicArg(in, "cta_id") != nullptr;
}

bool Emitter::needsClusterLaunch(tile::KernelOp kernel) {
  int64_t blocks = 1;
  if (auto attr = kernel->getAttrOfType<DenseI64ArrayAttr>("cluster_dims"))
    for (int64_t d : attr.asArrayRef())
      blocks *= d;
  return blocks > 1 && kernel
                           .walk([](Operation *op) {
                             return reachesCluster(op) ? WalkResult::interrupt()
                                                       : WalkResult::advance();
                           })
                           .wasInterrupted();
}

LogicalResult Emitter::publishToCluster(tile::AllocOp op, StringRef mem) {
  if (!isa<tile::KernelOp>(op->getParentOp()))
    return op.emitError("in a kernel whose cluster's blocks reach each "
                        "other's shared memory, the CPU target needs shared "
                        "allocations in the kernel's body, not in a loop or "
                        "branch");
  line("tlc::cpu::clusterPublish(" + mem + ".data.data(), " + mem +
       ".data.size() * sizeof(" + mem + ".data[0]));");
  line("const tlc::cpu::ClusterExitGuard " + fresh("keep_until_cluster_done") +
       ";");
  return success();
}

std::string Emitter::firstElementAddress(Value v, StringRef rank) {
  auto t = cast<tile::BufferType>(v.getType());
  std::vector<std::string> idx(std::max<int64_t>(t.getRank(), 1), "0");
  std::string view = expr(v);
  if (!rank.empty())
    view = "tlc::cpu::peerView(st, " + locLiteral(currentLoc) + ", " + view +
           ", int64_t(" + rank.str() + "))";
  return "&" + view + ".at({" + llvm::join(idx, ", ") + "})";
}

LogicalResult Emitter::emitClcTryCancel(tile::ClcTryCancelOp op) {
  currentLoc = op->getLoc();
  comment(op, op.getMulticast()
                  ? "T.clc_try_cancel_multicast: claim a cluster not started "
                    "yet; the response to every block of the cluster"
                  : "T.clc_try_cancel: claim a cluster not started yet");
  line("tlc::cpu::clcTryCancel(st, " + locLiteral(op->getLoc()) + ", " +
       firstElementAddress(op.getResponse()) + ", " +
       firstElementAddress(op.getMbarrier()) + ", " +
       (op.getMulticast() ? "true" : "false") + ");");
  return success();
}

LogicalResult Emitter::emitClcQuery(tile::ClcQueryOp op) {
  currentLoc = op->getLoc();
  int what = 0;
  switch (op.getKind()) {
  case tile::ClcQueryKind::IsCanceled:
    what = 0;
    break;
  case tile::ClcQueryKind::FirstCtaidX:
    what = 1;
    break;
  case tile::ClcQueryKind::FirstCtaidY:
    what = 2;
    break;
  case tile::ClcQueryKind::FirstCtaidZ:
    what = 3;
    break;
  }
  auto t = valueType(op.getValue().getType(), op);
  if (failed(t))
    return failure();
  std::string q = "tlc::cpu::clcQuery(" +
                  firstElementAddress(op.getResponse()) + ", " +
                  std::to_string(what) + ")";
  line("const " + *t + " " +
       define(op.getValue(), what == 0 ? "canceled" : "ctaid") + " = " +
       (what == 0 ? q + " != 0" : *t + "(" + q + ")") + ";");
  return success();
}

LogicalResult Emitter::emitRemoteArrive(tile::IntrinsicOp op, Value bar,
                                        Value cta, Value pred) {
  auto t = bar ? dyn_cast<tile::BufferType>(bar.getType()) : nullptr;
  if (!t || !tile::isBarrierScope(t.getScope()))
    return op.emitError() << op.getCallee()
                          << ": arrives on another block's barrier, which "
                             "needs a barrier of T.alloc_cluster_barrier";
  comment(op, op.getCallee().str() + ": an arrival on the barrier of block " +
                  expr(cta) + " of the cluster");
  if (pred)
    open("if (" + expr(pred) + ")");
  line("tlc::cpu::mbarrierArrive(st, " + locLiteral(op->getLoc()) + ", " +
       firstElementAddress(bar, expr(cta)) + ");");
  if (pred)
    close();
  return success();
}

LogicalResult Emitter::emitCopyCluster(tile::IntrinsicOp op) {
  Value src = intrinsicArg(op, "src"), dst = intrinsicArg(op, "dst");
  Value block = intrinsicArg(op, "dst_block"), mask = intrinsicArg(op, "cluster_mask");
  Value bar = intrinsicArg(op, "remote_barrier");
  auto st = src ? dyn_cast<tile::BufferType>(src.getType()) : nullptr;
  auto dt = dst ? dyn_cast<tile::BufferType>(dst.getType()) : nullptr;
  auto fail = [&](const Twine &why) {
    op.emitError() << "T.copy_cluster: " << why;
    return failure();
  };
  if (!st || !dt || !st.isStatic() || !dt.isStatic() ||
      st.getShape() != dt.getShape() ||
      st.getElementType() != dt.getElementType())
    return fail("copies a buffer into one of the same static shape and "
                "dtype");
  if (!tile::isSharedScope(dt.getScope()))
    return fail("the destination is shared memory of a block of the cluster");
  if ((block != nullptr) == (mask != nullptr))
    return fail("needs either dst_block (a copy into that block) or "
                "cluster_mask (a copy into every block of the mask)");
  if (block && !tile::isSharedScope(st.getScope()))
    return fail("a copy into another block (dst_block) copies the block's "
                "own shared memory");
  if (bar) {
    auto bt = dyn_cast<tile::BufferType>(bar.getType());
    if (!bt || !tile::isBarrierScope(bt.getScope()))
      return fail("remote_barrier must be an mbarrier (T.alloc_barrier or "
                  "T.alloc_cluster_barrier)");
  }
  auto elem = storageType(st.getElementType(), op);
  if (failed(elem))
    return failure();
  std::string loc = locLiteral(op->getLoc());
  int64_t n = 1;
  for (int64_t d : st.getShape())
    n *= d;
  int64_t bytes = n * tile::getElementStorageBytes(st.getElementType());
  comment(op, "T.copy_cluster: " + std::to_string(bytes) + " bytes into " +
                  (block ? "block " + expr(block) + " of the cluster"
                         : std::string("the blocks of the cluster mask")));
  std::string r = fresh("peer");
  if (block) {
    open("");
    line("const int64_t " + r + " = int64_t(" + expr(block) + ");");
  } else {
    // TileLang's multicast: the mask's lowest rank loads its region into
    // every block of the mask, the mask's other blocks load nothing and
    // receive it, a block outside the mask loads its own. The whole
    // cluster meets before (a receiver's buffer is free) and after (the
    // bytes have landed), as the sm_90a lowering's cluster barrier does,
    // so every block must reach the copy.
    for (Operation *p = op->getParentOp(); p && !isa<tile::KernelOp>(p);
         p = p->getParentOp())
      if (!isa<tile::ForOp, tile::PipelinedOp>(p))
        return fail("a multicast (cluster_mask) meets the whole cluster, so "
                    "it must be reached by every block and thread (not "
                    "under a condition or in T.Parallel)");
    std::string m = fresh("mask"), me = fresh("rank");
    line("tlc::cpu::clusterBarrier(st, " + loc + ", true, true);");
    line("if (st.hasFailed())");
    line("  " + returnStmt().str());
    open("");
    line("const uint64_t " + m + " = uint64_t(" + expr(mask) + ");");
    line("const int64_t " + me + " = tlc::cpu::currentCluster().rank;");
    open("for (int64_t " + r + " = 0; " + r +
         " < tlc::cpu::currentCluster().size; ++" + r + ")");
    line("if ((" + m + " >> " + me + ") & 1 ? (" + m + " & ((uint64_t(1) << " +
         me + ") - 1)) != 0 || !((" + m + " >> " + r + ") & 1) : " + r +
         " != " + me + ")");
    line("  continue;");
  }
  std::string to = fresh("to");
  line("const auto " + to + " = tlc::cpu::peerView(st, " + loc + ", " +
       expr(dst) + ", " + r + ");");
  line("if (st.hasFailed())");
  line("  " + returnStmt().str());
  std::vector<std::string> vars = openLoops(
      [&] {
        std::vector<std::string> e;
        for (int64_t d : st.getShape())
          e.push_back(std::to_string(d));
        return e;
      }(),
      "i");
  std::string idx = "{" + llvm::join(vars, ", ") + "}";
  // From global memory: zeros outside the tensor, as TMA fills.
  if (tile::isSharedScope(st.getScope()))
    line(to + ".at(" + idx + ") = " + expr(src) + ".at(" + idx + ");");
  else
    line(to + ".at(" + idx + ") = " + expr(src) + ".inBounds(" + idx + ") ? " +
         expr(src) + ".at(" + idx + ") : tlc::cpu::cast<" + *elem + ">(0.0f);");
  closeLoops(vars.size());
  // A copy into block dst_block signals that block's remote_barrier as the
  // sm_90a lowering does (tile-lower-copy-cluster: one thread's
  // mbarrier.arrive.expect_tx of the bytes on the peer's barrier, then the
  // bulk copy's complete_tx there; or the threads' stores, then one
  // arrival): one arrival of the phase, whose bytes have landed already.
  // A multicast completes the bytes on each receiver's barrier, as a TMA
  // load does, and the receivers expect them themselves.
  if (bar && block)
    line("tlc::cpu::mbarrierArrive(st, " + loc + ", " +
         firstElementAddress(bar, r) + ");");
  else if (bar)
    line("tlc::cpu::mbarrierCompleteTxRemote(" + firstElementAddress(bar, r) +
         ", " + std::to_string(bytes) + ");");
  close();
  if (!block) {
    close();
    line("tlc::cpu::clusterBarrier(st, " + loc + ", true, true);");
    line("if (st.hasFailed())");
    line("  " + returnStmt().str());
  }
  return success();
}

LogicalResult Emitter::emitGemm2Cta(tile::GemmOp op) {
  auto ta = cast<tile::BufferType>(op.getA().getType());
  auto tb = cast<tile::BufferType>(op.getB().getType());
  auto tc = cast<tile::BufferType>(op.getC().getType());
  unsigned ra = ta.getRank(), rb = tb.getRank(), rc = tc.getRank();
  if (ra < 2 || rb < 2 || rc < 2 || !tc.isStatic() || !tb.isStatic())
    return op.emitError("a 2-CTA gemm (use_2cta) needs A, B and C of rank "
                        ">= 2 and static B and C");
  int64_t m = tc.getShape()[rc - 2], n = tc.getShape()[rc - 1];
  int64_t nb = tb.getShape()[op.getTransposeB() ? rb - 2 : rb - 1];
  if (2 * nb != n)
    return op.emitError() << "a 2-CTA gemm (use_2cta): each block holds half "
                             "of B's columns, so C has twice B's "
                          << nb << " columns, not " << n;
  auto k = extent(ta, op.getTransposeA() ? ra - 2 : ra - 1, op);
  // tcgen05 accumulates in f32 (kind::f16, f8f6f4) into tensor memory.
  if (!isa<FloatType>(tc.getElementType()))
    return op.emitError("a 2-CTA gemm (use_2cta) accumulates floats");
  auto acc = valueType(Float32Type::get(op.getContext()), op);
  if (failed(k) || failed(acc))
    return failure();
  std::string loc = locLiteral(op->getLoc());
  comment(op, "T.tcgen05_gemm(use_2cta=True): the pair of blocks (ranks 2j, "
              "2j + 1) computes M = " +
                  std::to_string(2 * m) +
                  ": each block's C = its A times [B of rank 2j | B of "
                  "rank 2j + 1]");
  open("");
  std::string pair = fresh("pair");
  line("const int64_t " + pair +
       " = tlc::cpu::currentCluster().rank & ~int64_t(1);");
  open("for (int64_t tlc_r = 0; tlc_r < 2; ++tlc_r)");
  line("const auto tlc_a = tlc::cpu::peerView(st, " + loc + ", " +
       expr(op.getA()) + ", " + pair + " + tlc_r);");
  line("const auto tlc_c = tlc::cpu::peerView(st, " + loc + ", " +
       expr(op.getC()) + ", " + pair + " + tlc_r);");
  open("for (int64_t tlc_h = 0; tlc_h < 2; ++tlc_h)");
  line("const auto tlc_b = tlc::cpu::peerView(st, " + loc + ", " +
       expr(op.getB()) + ", " + pair + " + tlc_h);");
  line("if (st.hasFailed())");
  line("  " + returnStmt().str());
  std::vector<std::string> offs(rc, "0"), ext;
  offs[rc - 1] = "tlc_h * " + std::to_string(nb);
  for (unsigned d = 0; d + 2 < rc; ++d)
    ext.push_back(std::to_string(tc.getShape()[d]));
  ext.push_back(std::to_string(m));
  ext.push_back(std::to_string(nb));
  line("tlc::cpu::gemm<" + *acc + ">(tlc_a, tlc_b, tlc::cpu::region(tlc_c, {" +
       llvm::join(offs, ", ") + "}, {" + llvm::join(ext, ", ") + "}), " +
       std::to_string(m) + ", " + std::to_string(nb) + ", " + *k + ", " +
       (op.getTransposeA() ? "true" : "false") + ", " +
       (op.getTransposeB() ? "true" : "false") + ", " +
       (op.getClearAccum() ? "true" : "false") + ");");
  close();
  close();
  close();
  return success();
}

/// The allocation \p v is (a region of).
static Value rootAllocation(Value v) {
  while (auto r = v.getDefiningOp<tile::RegionOp>())
    v = r.getSource();
  return v;
}

bool Emitter::clearsPairAccumulator(tile::ClearOp op) {
  auto t = cast<tile::BufferType>(op.getDst().getType());
  if (t.getScope() != tile::MemoryScope::TensorMemory)
    return false;
  Value root = rootAllocation(op.getDst());
  auto kernel = op->getParentOfType<tile::KernelOp>();
  return kernel && kernel
                       .walk([&](tile::GemmOp g) {
                         return g->hasAttr("tile.use_2cta") &&
                                        rootAllocation(g.getC()) == root
                                    ? WalkResult::interrupt()
                                    : WalkResult::advance();
                       })
                       .wasInterrupted();
}

LogicalResult Emitter::emitPairClear(tile::ClearOp op,
                                     const std::string &value) {
  // A 2-CTA gemm's clear_accum clears the accumulators of both blocks of
  // the pair (the MMA writes both).
  comment(op, "clear_accum of a 2-CTA gemm: both blocks' accumulators");
  Value dst = op.getDst();
  std::string local = expr(dst);
  std::string pair = fresh("pair");
  open("");
  line("const int64_t " + pair +
       " = tlc::cpu::currentCluster().rank & ~int64_t(1);");
  open("for (int64_t tlc_r = 0; tlc_r < 2; ++tlc_r)");
  std::string peer = fresh("pair_c");
  line("const auto " + peer + " = tlc::cpu::peerView(st, " +
       locLiteral(op->getLoc()) + ", " + local + ", " + pair + " + tlc_r);");
  names[dst] = peer;
  LogicalResult r = emitFill(op, dst, value);
  names[dst] = local;
  close();
  close();
  return r;
}
