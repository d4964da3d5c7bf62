//===- CUDAEmitterMbarrier.cpp - Explicit mbarriers, wgmma groups ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The primitives of hand-written warp-specialised kernels (PTX ISA,
// "Parallel Synchronization and Communication Instructions: mbarrier",
// "setmaxnreg", "wgmma.fence / commit_group / wait_group"):
//
//  * T.alloc_barrier(arrive_count=...) and the legacy
//    T.create_list_of_mbarrier(...) are 64-bit mbarriers in shared memory,
//    placed after everything else the kernel keeps there, initialised by
//    thread 0 where they are declared (mbarrier.init with each barrier's
//    arrival count, fence.mbarrier_init), then a block barrier;
//  * T.barrier_arrive / T.mbarrier_arrive arrive (release), T.barrier_wait /
//    T.mbarrier_wait_parity spin on try_wait.parity (acquire; at cluster
//    scope on a T.alloc_cluster_barrier in a cluster launch),
//    T.mbarrier_expect_tx / T.mbarrier_arrive_expect_tx raise the phase's
//    expected transaction bytes. In a kernel that issues wgmma an arrival
//    is preceded by fence.proxy.async: the shared memory the arriving
//    thread wrote is read by wgmma (the async proxy) after the wait;
//    T.cp_async_barrier_noinc waits for the thread's cp.async copies and
//    arrives; T.ptx_commit_group / T.ptx_wait_group are cp.async's
//    commit_group / wait_group;
//  * T.alloc_cluster_barrier is an mbarrier like T.alloc_barrier's; an
//    arrival with a block rank (T.mbarrier_arrive(bar, cta_id),
//    T.ptx_arrive_cluster_barrier, T.ptx_arrive_barrier(bar, cta, pred))
//    arrives on the barrier at the same offset in that block of the
//    cluster (mapa.shared::cluster, mbarrier.arrive.release.cluster);
//  * T.set_max_nreg / T.inc_max_nreg / T.dec_max_nreg are setmaxnreg for
//    the warpgroup, T.warpgroup_arrive / commit_batch / wait and
//    T.wait_wgmma the wgmma fence and group operations.
//
// mbarriers need sm_80 (mbarrier.init, arrive, test_wait.parity: waits
// spin on test_wait there); transaction bytes (expect_tx) need sm_90.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

/// The constant integer operands passed for \p param (in order); failure
/// when one is not a constant.
static FailureOr<SmallVector<int64_t>> constantArgs(IntrinsicOp op,
                                                    StringRef param) {
  SmallVector<int64_t> out;
  ArrayAttr params = op.getParams();
  for (auto [i, v] : llvm::enumerate(op.getArgs())) {
    if (i >= params.size() || cast<StringAttr>(params[i]).getValue() != param)
      continue;
    IntegerAttr c;
    if (!matchPattern(v, m_Constant(&c)))
      return failure();
    out.push_back(c.getValue().getSExtValue());
  }
  return out;
}

Value cuda_detail::argOf(IntrinsicOp op, StringRef param) {
  ArrayAttr params = op.getParams();
  for (auto [i, v] : llvm::enumerate(op.getArgs()))
    if (i < params.size() && cast<StringAttr>(params[i]).getValue() == param)
      return v;
  return {};
}

FailureOr<int64_t> Emitter::planMbarriers(KernelOp kernel, int64_t bytes) {
  mbarrierOffsets.clear();
  mbarrierListOffset = -1;
  mbarrierListCounts.clear();
  mbarrierListName.clear();
  int64_t offset = (bytes + 7) / 8 * 8;
  WalkResult w = kernel.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<AllocOp>(op)) {
      auto type = cast<BufferType>(alloc.getType());
      // A cluster barrier is an mbarrier too, which the blocks of the
      // cluster arrive on remotely (T.mbarrier_arrive with a cta_id).
      if (type.getScope() != MemoryScope::Barrier &&
          type.getScope() != MemoryScope::ClusterBarrier)
        return WalkResult::advance();
      int64_t n =
          type.isStatic() && type.getRank() == 1 ? type.getShape()[0] : 0;
      if (n <= 0) {
        alloc.emitError("an mbarrier allocation needs a static count");
        return WalkResult::interrupt();
      }
      mbarrierOffsets[alloc.getResult()] = offset;
      offset += 8 * n;
      return WalkResult::advance();
    }
    auto in = dyn_cast<IntrinsicOp>(op);
    if (!in || in.getCallee() != "T.create_list_of_mbarrier")
      return WalkResult::advance();
    FailureOr<SmallVector<int64_t>> counts = constantArgs(in, "arrive_counts");
    if (mbarrierListOffset >= 0 || failed(counts) || counts->empty()) {
      in.emitError(mbarrierListOffset >= 0
                       ? "T.create_list_of_mbarrier: a kernel declares its "
                         "list of mbarriers once"
                       : "T.create_list_of_mbarrier: needs constant arrival "
                         "counts");
      return WalkResult::interrupt();
    }
    mbarrierListOffset = offset;
    mbarrierListCounts.assign(counts->begin(), counts->end());
    offset += 8 * int64_t(counts->size());
    return WalkResult::advance();
  });
  if (w.wasInterrupted())
    return failure();
  if (offset == (bytes + 7) / 8 * 8)
    return bytes; // no mbarriers
  if (options.minComputeCapability < 80) {
    kernel.emitError() << "mbarriers (T.alloc_barrier, "
                          "T.create_list_of_mbarrier) need sm_80 on the CUDA "
                          "target; building for sm_"
                       << options.minComputeCapability;
    return failure();
  }
  anyTma = true; // tma.h holds the mbarrier helpers
  return offset;
}

/// Thread 0 initialises \p counts barriers at \p name, then every thread
/// waits until they are.
static void emitInit(Emitter &e, const std::string &name,
                     ArrayRef<int64_t> counts) {
  e.open("if (threadIdx.x == 0)");
  for (auto [i, c] : llvm::enumerate(counts))
    e.line("tlc::cuda::mbarrierInit(&" + name + "[" + std::to_string(i) +
           "], " + std::to_string(c) + ");");
  e.line("tlc::cuda::mbarrierInitFence();");
  e.close();
  e.line("__syncthreads();  // the mbarriers are initialised");
}

/// Whether \p op is a statement of its kernel's body, which every thread
/// runs (where barriers may be initialised).
static bool atKernelTop(Operation *op) {
  return isa_and_nonnull<KernelOp>(op->getParentOp());
}

LogicalResult Emitter::emitBarrierAlloc(AllocOp op) {
  auto counts = op->getAttrOfType<DenseI64ArrayAttr>("arrive_counts");
  auto it = mbarrierOffsets.find(op.getResult());
  if (it == mbarrierOffsets.end())
    return op.emitError("this mbarrier has no place in shared memory");
  if (!atKernelTop(op))
    return op.emitError("mbarriers are allocated in the kernel body, where "
                        "every thread initialises them together (not in a "
                        "loop or branch)");
  auto type = cast<BufferType>(op.getType());
  int64_t n = type.getShape()[0];
  SmallVector<int64_t> c;
  for (int64_t i = 0; i < n; ++i) {
    int64_t v = counts && !counts.empty()
                    ? counts[std::min<int64_t>(i, counts.size() - 1)]
                    : 1;
    if (v <= 0 || v > 0xFFFFF)
      return op.emitError()
             << "mbarrier arrival count " << v << " is outside 1..2^20-1";
    c.push_back(v);
  }
  std::string name = define(op.getResult(), "bar");
  beginOp(op, type.getScope() == MemoryScope::ClusterBarrier
                  ? "T.alloc_cluster_barrier"
                  : "T.alloc_barrier");
  line("uint64_t *" + name + " = reinterpret_cast<uint64_t *>(smem + " +
       std::to_string(it->second) + ");");
  emitInit(*this, name, c);
  return success();
}

std::optional<LogicalResult> Emitter::emitMbarrierIntrinsic(IntrinsicOp op) {
  StringRef callee = op.getCallee();
  auto fail = [&](const Twine &why) -> LogicalResult {
    op.emitError() << callee << ": " << why;
    return failure();
  };
  // The address of the mbarrier \p v.
  auto addressOf = [&](Value v) -> FailureOr<std::string> {
    if (!v) {
      (void)fail("needs an mbarrier");
      return failure();
    }
    if (auto type = dyn_cast<BufferType>(v.getType())) {
      Value root = rootOf(v);
      if (!mbarrierOffsets.count(root)) {
        (void)fail("needs a barrier of T.alloc_barrier");
        return failure();
      }
      SmallVector<std::string> idx(std::max<unsigned>(type.getRank(), 1), "0");
      FailureOr<std::pair<std::string, std::string>> el =
          guardedElement(v, idx, op);
      if (failed(el))
        return failure();
      return "&" + el->first;
    }
    if (auto get = v.getDefiningOp<IntrinsicOp>();
        get && get.getCallee() == "T.get_mbarrier")
      return expr(v);
    if (!v.getType().isIntOrIndex() || mbarrierListName.empty()) {
      (void)fail("needs an mbarrier: a T.alloc_barrier element, or the "
                 "number of one of T.create_list_of_mbarrier's");
      return failure();
    }
    return "(" + mbarrierListName + " + (int)(" + expr(v) + "))";
  };
  // The address of the mbarrier passed for parameter \p param.
  auto address = [&](StringRef param) -> FailureOr<std::string> {
    return addressOf(argOf(op, param));
  };
  // An arrival on the mbarrier at \p bar's offset in block \p cta of the
  // cluster (only where \p pred holds, when given): mapa +
  // mbarrier.arrive.release.cluster (tlc_device/cuda/cluster.h). Without a
  // cluster launch the only block of the cluster is rank 0, the block
  // itself.
  auto remoteArrive = [&](Value bar, Value cta, Value pred) -> LogicalResult {
    FailureOr<std::string> a = addressOf(bar);
    if (failed(a))
      return failure();
    if (options.minComputeCapability < 90 || lang.isHip())
      return fail("arrives on a barrier of a block of the cluster, which "
                  "needs thread block clusters (sm_90)");
    if (pred)
      open("if (" + expr(pred) + ")");
    if (usesWgmma) // the shared memory written here is read by wgmma
      line("tlc::cuda::fenceProxyAsync();");
    anyCluster = true;
    line("tlc::cuda::mbarrierArriveCluster(" + *a + ", (uint32_t)(" +
         expr(cta) + "));");
    if (pred)
      close();
    return success();
  };
  auto u32 = [&](StringRef param) {
    Value v = argOf(op, param);
    return v ? "(uint32_t)(" + expr(v) + ")" : std::string("0u");
  };

  if ((callee == "T.tma_gather4" || callee == "T.tma_scatter4") &&
      hasTcgen05(options.minComputeCapability) && !lang.isHip()) {
    // cp.async.bulk.tensor.2d .tile::gather4 / .tile::scatter4 (PTX ISA
    // 8.6, sm_100a): rows r0..r3 of the 2-D tensor, W columns from col,
    // to or from the [4, W] shared tile (row i at i * W), through the map
    // planTensorMaps made (box W x 1). The gather completes its bytes on
    // the barrier (zeros outside the tensor); the scatter joins the
    // thread's bulk group (T.tma_store_arrive / T.tma_store_wait) and
    // writes no element outside the tensor.
    bool gather = callee == "T.tma_gather4";
    auto map = tensorMapNames.find(op.getOperation());
    if (map == tensorMapNames.end())
      return fail(Twine(gather ? "gathers four rows of a 2-D tensor "
                                 "parameter into"
                               : "scatters") +
                  " a static [4, W] row-major shared tile" +
                  (gather ? "" : " into four rows of a 2-D tensor parameter") +
                  " of its dtype, W * element bytes a multiple of 16 and W "
                  "at most 256 (one TMA box row), the tensor's rows 16-byte "
                  "multiples");
    SmallVector<Value> rows;
    for (auto [i, v] : llvm::enumerate(op.getArgs()))
      if (i < op.getParams().size() &&
          cast<StringAttr>(op.getParams()[i]).getValue() == "rows")
        rows.push_back(v);
    Value col = argOf(op, "col");
    if (rows.size() != 4 || !col)
      return fail("takes a first column and four row indices");
    std::string coords = ", (int)(" + expr(col) + ")";
    for (Value r : rows)
      coords += ", (int)(" + expr(r) + ")";
    beginOp(op, gather ? "T.tma_gather4 (cp.async.bulk.tensor.2d "
                         ".tile::gather4)"
                       : "T.tma_scatter4 (cp.async.bulk.tensor.2d "
                         ".tile::scatter4)");
    anyTma = true;
    if (gather) {
      FailureOr<std::string> bar = address("barrier");
      if (failed(bar))
        return failure();
      line("tlc::cuda::tmaLoadGather4(" + expr(argOf(op, "dst")) + ", &" +
           map->second + ", " + *bar + coords + ");");
      return success();
    }
    // The shared tile's generic-proxy writes before the async proxy reads.
    line("tlc::cuda::fenceProxyAsync();");
    line("tlc::cuda::tmaStoreScatter4(&" + map->second + ", " +
         expr(argOf(op, "src")) + coords + ");");
    return success();
  }
  if (callee == "T.tcgen05_before_thread_sync" ||
      callee == "T.tcgen05_after_thread_sync")
    return emitTcgen05Intrinsic(op, "");
  if (callee == "T.tcgen05_sf_warp_transpose" ||
      callee == "T.tcgen05_cp_warpx4" || callee == "T.deallocate_tmem")
    return emitTcgen05Intrinsic(op, "");
  if (callee == "T.tcgen05_gemm_blockscaled") {
    if (!argOf(op, "mbar"))
      return emitTcgen05Intrinsic(op, "");
    FailureOr<std::string> bar = address("mbar");
    if (failed(bar))
      return failure();
    return emitTcgen05Intrinsic(op, *bar);
  }
  if (callee == "T.tcgen05_mma_arrive") {
    FailureOr<std::string> bar = address("mbar");
    if (failed(bar))
      return failure();
    return emitTcgen05Intrinsic(op, *bar);
  }
  if (callee == "T.create_list_of_mbarrier") {
    if (!atKernelTop(op) || mbarrierListOffset < 0)
      return fail("declares the kernel's mbarriers in its body, where every "
                  "thread initialises them together (not in a loop or "
                  "branch)");
    mbarrierListName = fresh("mbarriers");
    line("uint64_t *" + mbarrierListName +
         " = reinterpret_cast<uint64_t *>(smem + " +
         std::to_string(mbarrierListOffset) + ");");
    emitInit(*this, mbarrierListName, mbarrierListCounts);
    return success();
  }
  if (callee == "T.get_mbarrier") {
    Value id = argOf(op, "id");
    if (!id || mbarrierListName.empty())
      return fail("needs T.create_list_of_mbarrier before it");
    names[op.getResult(0)] =
        "(" + mbarrierListName + " + (int)(" + expr(id) + "))";
    return success();
  }
  if (callee == "T.barrier_wait" || callee == "T.mbarrier_wait_parity") {
    FailureOr<std::string> bar = address("mbarrier");
    if (failed(bar))
      return failure();
    // Other blocks of the cluster arrive on a cluster barrier: the wait
    // acquires at cluster scope what they released.
    auto type = dyn_cast_or_null<BufferType>(
        argOf(op, "mbarrier") ? argOf(op, "mbarrier").getType() : Type());
    bool cluster =
        clusterLaunch && type && type.getScope() == MemoryScope::ClusterBarrier;
    line(std::string(cluster ? "tlc::cuda::mbarrierWaitCluster("
                             : "tlc::cuda::mbarrierWait(") +
         *bar + ", " + u32("parity") + " & 1u);");
    return success();
  }
  // T.ptx_arrive_barrier(bar) is the raw form of the same arrival; with
  // more operands (a block of the cluster, a predicate) it is the cluster's.
  bool ptxArrive = callee == "T.ptx_arrive_barrier";
  if (callee == "T.barrier_arrive" || callee == "T.mbarrier_arrive" ||
      ptxArrive) {
    Value cta = argOf(op, "cta_id");
    if (ptxArrive && op.getArgs().size() > 1)
      cta = op.getArgs()[1];
    if (cta)
      return remoteArrive(
          ptxArrive ? op.getArgs()[0] : argOf(op, "mbarrier"), cta,
          ptxArrive && op.getArgs().size() > 2 ? op.getArgs()[2] : Value());
    FailureOr<std::string> bar = address(ptxArrive ? "args" : "mbarrier");
    if (failed(bar))
      return failure();
    if (usesWgmma) // the shared memory written here is read by wgmma
      line("tlc::cuda::fenceProxyAsync();");
    line("tlc::cuda::mbarrierArrive(" + *bar + ");");
    return success();
  }
  if (callee == "T.ptx_arrive_cluster_barrier") {
    Value cta = argOf(op, "cta_id");
    if (!cta)
      return fail("needs the rank of the block whose barrier it arrives on");
    return remoteArrive(argOf(op, "mbarrier"), cta, Value());
  }
  if (callee == "T.cp_async_barrier_noinc") {
    // cp.async.mbarrier.arrive.noinc arrives once this thread's cp.async
    // copies are done; this target waits for them here and arrives
    // (release), the same order without the overlap.
    FailureOr<std::string> bar = address("barrier");
    if (failed(bar))
      return failure();
    if (lang.hasAsyncCopy)
      line("tlc::cuda::cpAsyncWaitAll();");
    if (usesWgmma)
      line("tlc::cuda::fenceProxyAsync();");
    line("tlc::cuda::mbarrierArrive(" + *bar + ");");
    return success();
  }
  // cp.async groups: commit_group closes the thread's uncommitted cp.async
  // copies into a group (an empty one when there are none), wait_group N
  // waits until at most N of its groups are pending (PTX ISA,
  // "cp.async.commit_group", "cp.async.wait_group").
  if (callee == "T.ptx_cp_async") {
    // TileLang's T.ptx_cp_async(dst, src, bytes): one cp.async of `bytes`
    // (4, 8 or 16) from the global pointer src to the shared pointer dst
    // (T.access_ptr), in the thread's uncommitted group (PTX ISA,
    // "cp.async": .cg for 16 bytes, else .ca).
    SmallVector<Value> args(op.getArgs());
    IntegerAttr bytes;
    if (args.size() != 3 || !matchPattern(args[2], m_Constant(&bytes)))
      return fail("needs (dst, src, bytes) with a constant byte count (the "
                  "TVM form with offsets is not supported)");
    int64_t n = bytes.getValue().getSExtValue();
    if (n != 4 && n != 8 && n != 16)
      return fail("copies 4, 8 or 16 bytes, not " + Twine(n));
    auto fromAccessPtr = [&](Value v, MemoryScope want) {
      auto ptr = v.getDefiningOp<IntrinsicOp>();
      if (!ptr || ptr.getCallee() != "T.access_ptr")
        return false;
      Value base = argOf(ptr, "base");
      return base && isa<BufferType>(base.getType()) &&
             (want == MemoryScope::Global
                  ? scopeOf(rootOf(base)) == MemoryScope::Global
                  : isSharedScope(scopeOf(rootOf(base))));
    };
    if (!fromAccessPtr(args[0], MemoryScope::Shared) ||
        !fromAccessPtr(args[1], MemoryScope::Global))
      return fail("copies from a T.access_ptr of global memory to a "
                  "T.access_ptr of shared memory");
    if (!lang.hasAsyncCopy)
      return fail("needs cp.async (sm_80 or later)");
    line("tlc::cuda::cpAsync<" + std::to_string(n) + ">(" + expr(args[0]) +
         ", " + expr(args[1]) + ");");
    return success();
  }
  if (callee == "T.ptx_commit_group") {
    if (!lang.hasAsyncCopy)
      return fail("needs cp.async (sm_80 or later)");
    line("tlc::cuda::cpAsyncCommit();");
    return success();
  }
  if (callee == "T.ptx_wait_group") {
    FailureOr<SmallVector<int64_t>> n = constantArgs(op, "num");
    if (failed(n) || n->size() != 1 || (*n)[0] < 0 || (*n)[0] > 7)
      return fail("needs a constant count of pending groups in 0..7 "
                  "(cp.async.wait_group takes an immediate)");
    if (!lang.hasAsyncCopy)
      return fail("needs cp.async (sm_80 or later)");
    line("tlc::cuda::cpAsyncWait<" + std::to_string((*n)[0]) + ">();");
    return success();
  }
  // Bulk async-groups of TMA stores (cp.async.bulk.commit_group /
  // wait_group[.read] N, sm_90). This target's T.tma_copy stores are the
  // threads' own stores, complete when the copy ends: the waits find
  // nothing pending, as PTX allows.
  if (callee == "T.tma_store_arrive" || callee == "T.tma_store_wait") {
    if (options.minComputeCapability < 90)
      return fail("is cp.async.bulk's group operation, which needs sm_90");
    anyTma = true; // tma.h holds the helpers
    if (callee == "T.tma_store_arrive") {
      line("tlc::cuda::tmaStoreCommit();");
      return success();
    }
    FailureOr<SmallVector<int64_t>> n = constantArgs(op, "count");
    FailureOr<SmallVector<int64_t>> read = constantArgs(op, "read");
    if (failed(n) || n->size() > 1 || (!n->empty() && ((*n)[0] < 0 ||
                                                      (*n)[0] > 7)))
      return fail("needs a constant count of pending groups in 0..7");
    if (failed(read) || read->size() > 1)
      return fail("needs a constant read flag");
    line("tlc::cuda::tmaStoreWait<" +
         std::to_string(n->empty() ? 0 : (*n)[0]) + ", " +
         (read->empty() || (*read)[0] ? "true" : "false") + ">();");
    return success();
  }
  if (callee == "T.mbarrier_expect_tx" ||
      callee == "T.mbarrier_arrive_expect_tx") {
    if (options.minComputeCapability < 90)
      return fail("raises an mbarrier's expected transaction bytes "
                  "(expect_tx), which needs sm_90");
    FailureOr<std::string> bar = address("mbarrier");
    if (failed(bar))
      return failure();
    line(std::string(callee == "T.mbarrier_expect_tx"
                         ? "tlc::cuda::mbarrierExpectTx("
                         : "tlc::cuda::mbarrierArriveExpectTx(") +
         *bar + ", " + u32("tx") + ");");
    return success();
  }

  // setmaxnreg: a warpgroup's register budget (sm_90a).
  if (callee == "T.set_max_nreg" || callee == "T.inc_max_nreg" ||
      callee == "T.dec_max_nreg") {
    FailureOr<SmallVector<int64_t>> regs = constantArgs(op, "reg_count");
    if (failed(regs) || regs->size() != 1 || (*regs)[0] < 24 ||
        (*regs)[0] > 256 || (*regs)[0] % 8)
      return fail("needs a constant register count in 24..256, a multiple "
                  "of 8 (setmaxnreg)");
    bool inc = callee == "T.inc_max_nreg";
    if (callee == "T.set_max_nreg") {
      FailureOr<SmallVector<int64_t>> isInc = constantArgs(op, "is_inc");
      if (failed(isInc) || isInc->size() != 1)
        return fail("needs a constant is_inc");
      inc = (*isInc)[0] != 0;
    }
    if (range.lo % 128 || range.count() % 128 || !parallelReg.empty())
      return fail("is executed by whole warpgroups (setmaxnreg.sync.aligned): "
                  "it must be in the kernel body or under T.ws / a thread "
                  "range of whole warpgroups");
    anyWgmma = true; // wgmma.h holds the helper
    line(std::string("tlc::cuda::setMaxNReg") + (inc ? "Inc" : "Dec") + "<" +
         std::to_string((*regs)[0]) + ">();");
    return success();
  }
  if (callee == "T.warpgroup_arrive" || callee == "T.warpgroup_commit_batch") {
    anyWgmma = true;
    line(callee == "T.warpgroup_arrive" ? "tlc::cuda::wgmmaFence();"
                                        : "tlc::cuda::wgmmaCommit();");
    return success();
  }
  if (callee == "T.warpgroup_wait" || callee == "T.wait_wgmma") {
    FailureOr<SmallVector<int64_t>> n =
        constantArgs(op, callee == "T.warpgroup_wait" ? "num_mma" : "id");
    if (failed(n) || n->size() != 1 || (*n)[0] < 0 || (*n)[0] > 7)
      return fail("needs a constant count of pending groups in 0..7");
    anyWgmma = true;
    line("tlc::cuda::wgmmaWait<" + std::to_string((*n)[0]) + ">();");
    return success();
  }
  if (callee == "T.warpgroup_fence_operand") {
    // The printer's wgmma gemms wait for their groups before any register
    // of the accumulator is read: no operand is in flight here.
    line("// T.warpgroup_fence_operand: no code (wgmma groups are waited "
         "for before their registers are read)");
    return success();
  }
  return std::nullopt;
}
