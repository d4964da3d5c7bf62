//===- CUDAEmitterCluster.cpp - Thread-block clusters ---------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// T.ClusterKernel(..., cluster_dims=(x, y, z)) on sm_90: the kernel is
// declared with `__cluster_dims__(x, y, z)`, so every launch of it (the
// runtime's cuLaunchKernel, the Python package, tlc-run) launches clusters,
// and the manifest records the dims for launchers that check the grid or
// simulate it. The primitives of the cluster (tlc_device/cuda/cluster.h):
//
//  * T.block_rank_in_cluster is %cluster_ctarank;
//  * T.cluster_arrive / T.cluster_arrive_relaxed / T.cluster_wait /
//    T.cluster_sync are barrier.cluster arrive (release, or relaxed) and
//    wait (acquire), `.aligned`, so the printer requires, as for
//    __syncthreads, that every thread of the block reaches them.
//
// tile-gemm-cluster's GEMMs (pairs of blocks sharing one operand by TMA
// multicast; CUDAEmitterTma.cpp, CUDAEmitterPipeline.cpp): the pair's
// blocks take adjacent tiles along the planned axis, the program's
// rasterisation ordering the pairs; each warp of the consumers releases a
// stage on both blocks' empty barriers (mbarrierArriveWarpPair), since
// both producers write into it.
//
// A kernel without cluster_dims (or with a cluster of one block) is a
// cluster of one: the rank is 0, and on targets without clusters (sm_80,
// HIP) the cluster barrier is the block barrier — an arrive does nothing,
// a wait (or sync) is __syncthreads, which orders at least what the split
// barrier orders. Cluster barriers (mbarriers other blocks arrive on) are
// in CUDAEmitterMbarrier.cpp.
//
// T.copy_cluster, as tile-lower-copy-cluster chose it (`tile.cluster_copy`;
// device helpers in tlc_device/cuda/cluster.h and tma.h):
//
//  * "multicast": the cluster meets at its barrier (every block is done
//    with the destination and its mbarrier's last phase, and has
//    initialised the mbarrier), each thread reads the mbarrier's current
//    phase, then thread 0 arrives expecting the tile's bytes and, in the
//    mask's lowest rank, loads the box with .multicast::cluster to the
//    mask's blocks, in a block outside the mask loads its own box; the
//    mask's other blocks receive. Every thread waits for the phase;
//  * "bulk": every thread fences its shared writes for the async proxy,
//    the block meets, and thread 0 arrives on the peer's mbarrier
//    expecting the bytes and copies the buffer into the peer's shared
//    memory (cp.async.bulk.shared::cluster.shared::cta), completing there;
//  * "stores": the threads store the elements into the peer's buffer
//    (st.shared::cluster); with a remote_barrier the block meets and
//    thread 0 arrives on the peer's mbarrier (release, cluster scope).
//
// Cluster launch control (sm_100a; PTX ISA, "clusterlaunchcontrol"):
// tile.clc_try_cancel is `clusterlaunchcontrol.try_cancel.async.shared::cta.
// mbarrier::complete_tx::bytes(.multicast::cluster::all).b128 [result],
// [mbar]`, tile.clc_query a 128-bit shared load of the response and
// `clusterlaunchcontrol.query_cancel.is_canceled` / `.get_first_ctaid`
// (tlc_device/cuda/cluster.h). Other targets (sm_80, sm_90a, HIP) have no
// cluster launch control: an error at the op names sm_100a.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

/// The largest cluster the portable launch allows (CUDA programming guide,
/// "Thread Block Clusters": 8 blocks; larger ones need an opt-in attribute
/// this target does not set).
static constexpr int64_t kMaxPortableCluster = 8;

/// The blocks per cluster of \p kernel along x, y, z (each 1 when it has
/// no cluster_dims).
static SmallVector<int64_t, 3> clusterDimsOf(KernelOp kernel) {
  SmallVector<int64_t, 3> dims(3, 1);
  if (auto attr = kernel->getAttrOfType<DenseI64ArrayAttr>("cluster_dims"))
    for (auto [i, d] : llvm::enumerate(attr.asArrayRef()))
      if (i < 3)
        dims[i] = d;
  return dims;
}

FailureOr<std::string> Emitter::planCluster(KernelOp kernel,
                                            CudaLaunch &launch) {
  SmallVector<int64_t, 3> dims = clusterDimsOf(kernel);
  int64_t blocks = dims[0] * dims[1] * dims[2];
  clusterLaunch = blocks > 1;
  if (!clusterLaunch)
    return std::string();
  if (lang.isHip() || options.minComputeCapability < 90) {
    kernel.emitError() << "a cluster launch (cluster_dims) needs thread "
                          "block clusters, which need sm_90; building for sm_"
                       << options.minComputeCapability;
    return failure();
  }
  if (blocks > kMaxPortableCluster) {
    kernel.emitError() << "a cluster of " << blocks
                       << " blocks is larger than the portable maximum of "
                       << kMaxPortableCluster
                       << " blocks that the CUDA target launches";
    return failure();
  }
  // tile-gemm-cluster plans its persistent GEMMs' clusters as pairs of
  // that row (both blocks of a pair walk the same tiles).
  if (persistentCtas && gemmClusterAxis < 0) {
    kernel.emitError("a persistent kernel (tlc.persistent) relaunches its "
                     "grid as one row of blocks, which a cluster launch "
                     "cannot tile");
    return failure();
  }
  // The grid is checked against the dims where it is static by the
  // evaluator (T.ClusterKernel) and at launch otherwise (LaunchPlan).
  launch.cluster.assign(dims.begin(), dims.end());
  anyCluster = true;
  return "__cluster_dims__(" + std::to_string(dims[0]) + ", " +
         std::to_string(dims[1]) + ", " + std::to_string(dims[2]) + ") ";
}

std::optional<LogicalResult> Emitter::emitClusterIntrinsic(IntrinsicOp op) {
  StringRef callee = op.getCallee();
  bool rank = callee == "T.block_rank_in_cluster";
  bool arrive = callee == "T.cluster_arrive";
  bool relaxed = callee == "T.cluster_arrive_relaxed";
  bool wait = callee == "T.cluster_wait";
  bool sync = callee == "T.cluster_sync";
  if (callee == "T.copy_cluster")
    return emitCopyCluster(op);
  if (!rank && !arrive && !relaxed && !wait && !sync)
    return std::nullopt;
  if (rank) {
    std::string name = define(op.getResult(0), "rank");
    line("const int " + name + " = " +
         (clusterLaunch ? "(int)tlc::cuda::clusterCtaRank();"
                        : "0;  // a cluster of one block"));
    return success();
  }
  // barrier.cluster counts every thread of every block of the cluster.
  if (!blockReachesBarrier(op) || range.lo != 0 || range.hi != blockThreads) {
    op.emitError() << callee
                   << ": is a barrier of every thread of the cluster, but "
                      "here only some threads of the block may reach it "
                      "(inside T.Parallel or under a condition that may "
                      "differ between threads)";
    return failure();
  }
  if (!clusterLaunch && (lang.isHip() || options.minComputeCapability < 90)) {
    // A cluster of one block without barrier.cluster: the block barrier.
    if (arrive || relaxed)
      line("// " + callee.str() +
           ": a cluster of one block (the wait is "
           "the block barrier)");
    else
      line("__syncthreads();  // a cluster of one block");
    return success();
  }
  anyCluster = true;
  if (arrive || sync)
    line("tlc::cuda::clusterArrive();");
  if (relaxed)
    line("tlc::cuda::clusterArriveRelaxed();");
  if (wait || sync)
    line("tlc::cuda::clusterWait();");
  return success();
}

/// The error of a cluster launch control op on a target without it.
static LogicalResult noClc(Operation *op, StringRef what,
                           const std::string &target) {
  op->emitError() << what
                  << ": cluster launch control (clusterlaunchcontrol) is a "
                     "Blackwell feature that only the cuda:sm_100a and "
                     "cuda:sm_120a targets have; building for "
                  << target;
  return failure();
}

LogicalResult Emitter::emitClcTryCancel(ClcTryCancelOp op) {
  StringRef what =
      op.getMulticast() ? "T.clc_try_cancel_multicast" : "T.clc_try_cancel";
  beginOp(op, what);
  if (lang.isHip() || !hasBlackwell(options.minComputeCapability))
    return noClc(op, what,
                 lang.isHip()
                     ? "HIP (" + options.amdArch + ")"
                     : "sm_" + std::to_string(options.minComputeCapability));
  auto addressOf = [&](Value v) -> FailureOr<std::string> {
    auto type = cast<BufferType>(v.getType());
    SmallVector<std::string> idx(std::max<unsigned>(type.getRank(), 1), "0");
    FailureOr<std::pair<std::string, std::string>> el =
        guardedElement(v, idx, op);
    if (failed(el))
      return failure();
    return "&" + el->first;
  };
  FailureOr<std::string> response = addressOf(op.getResponse());
  FailureOr<std::string> bar = addressOf(op.getMbarrier());
  if (failed(response) || failed(bar))
    return failure();
  anyCluster = true;
  line(std::string(op.getMulticast() ? "tlc::cuda::clcTryCancelMulticast("
                                     : "tlc::cuda::clcTryCancel(") +
       "(const void *)" + *response + ", " + *bar + ");");
  return success();
}

LogicalResult Emitter::emitClcQuery(ClcQueryOp op) {
  StringRef what;
  std::string call;
  switch (op.getKind()) {
  case ClcQueryKind::IsCanceled:
    what = "T.clc_is_canceled";
    call = "tlc::cuda::clcIsCanceled";
    break;
  case ClcQueryKind::FirstCtaidX:
    what = "T.clc_get_first_ctaid_x";
    call = "(int)tlc::cuda::clcFirstCtaid<0>";
    break;
  case ClcQueryKind::FirstCtaidY:
    what = "T.clc_get_first_ctaid_y";
    call = "(int)tlc::cuda::clcFirstCtaid<1>";
    break;
  case ClcQueryKind::FirstCtaidZ:
    what = "T.clc_get_first_ctaid_z";
    call = "(int)tlc::cuda::clcFirstCtaid<2>";
    break;
  }
  if (lang.isHip() || !hasBlackwell(options.minComputeCapability))
    return noClc(op, what,
                 lang.isHip()
                     ? "HIP (" + options.amdArch + ")"
                     : "sm_" + std::to_string(options.minComputeCapability));
  auto type = cast<BufferType>(op.getResponse().getType());
  SmallVector<std::string> idx(std::max<unsigned>(type.getRank(), 1), "0");
  FailureOr<std::pair<std::string, std::string>> el =
      guardedElement(op.getResponse(), idx, op);
  if (failed(el))
    return failure();
  anyCluster = true;
  bool pred = op.getKind() == ClcQueryKind::IsCanceled;
  std::string name = define(op.getValue(), pred ? "canceled" : "ctaid");
  line(std::string(pred ? "const bool " : "const int ") + name + " = " + call +
       "((const void *)&" + el->first + ");");
  return success();
}

void Emitter::emitGemmClusterBlockIndices(KernelOp kernel,
                                          UseSwizzleOp raster) {
  auto indices = kernel.getBlockIndices();
  bool x = gemmClusterAxis == 0;
  line(std::string("// tile-gemm-cluster: blocks 2c and 2c + 1 along ") +
       (x ? "x" : "y") + " are a cluster and take adjacent tiles that share " +
       (x ? "rows of A" : "columns of B"));
  std::string gx = x ? "((int)gridDim.x >> 1)" : "(int)gridDim.x";
  std::string gy = x ? "(int)gridDim.y" : "((int)gridDim.y >> 1)";
  std::string cx = x ? "((int)blockIdx.x >> 1)" : "(int)blockIdx.x";
  std::string cy = x ? "(int)blockIdx.y" : "((int)blockIdx.y >> 1)";
  std::string rank = x ? "((int)blockIdx.x & 1)" : "((int)blockIdx.y & 1)";
  if (raster) {
    // T.use_swizzle's panels over the grid of clusters.
    beginOp(raster, "T.use_swizzle (over the pairs of tile-gemm-cluster)");
    bool row = raster.getOrder() == SwizzleOrder::Row;
    std::string p = std::to_string(raster.getPanelSize());
    std::string major = row ? gy : gx, minor = row ? gx : gy;
    line("const int clusterLinear = " + cy + " * " + gx + " + " + cx + ";");
    line("const int panel = clusterLinear / (" + p + " * " + minor + ");");
    line("const int inPanel = clusterLinear % (" + p + " * " + minor + ");");
    line("const int panelWidth = min(" + p + ", " + major + " - panel * " + p +
         ");");
    std::string fast = "panel * " + p + " + inPanel % panelWidth";
    std::string slow = "inPanel / panelWidth";
    line("const int clusterX = " + (row ? slow : fast) + ";");
    line("const int clusterY = " + (row ? fast : slow) + ";");
    cx = "clusterX";
    cy = "clusterY";
    currentLoc = kernel.getLoc();
  }
  std::string it = indexType();
  line("const " + it + " " + define(indices[0], "bx") + " = " +
       (x ? cx + " * 2 + " + rank : cx) + ";");
  line("const " + it + " " + define(indices[1], "by") + " = " +
       (x ? cy : cy + " * 2 + " + rank) + ";");
  for (unsigned d = 2; d < indices.size(); ++d)
    line("const " + it + " " + define(indices[d], "bz") + " = blockIdx.z;");
}

std::string Emitter::wsReleaseStage(const std::string &bar) const {
  if (gemmClusterAxis >= 0)
    return "tlc::cuda::mbarrierArriveWarpPair(" + bar +
           ", tlc::cuda::clusterCtaRank() ^ 1u);";
  return "tlc::cuda::mbarrierArrive(" + bar + ");";
}

LogicalResult Emitter::emitCopyCluster(IntrinsicOp op) {
  auto form = op->getAttrOfType<StringAttr>("tile.cluster_copy");
  if (!form) {
    op.emitError() << "'T.copy_cluster' is not supported by the " << lang.name
                   << " target"
                   << (lang.isHip() ? "" : " below sm_90a (clusters)");
    return failure();
  }
  auto arg = [&](StringRef param) { return argOf(op, param); };
  auto fail = [&](const Twine &why) {
    op.emitError() << "T.copy_cluster: " << why;
    return failure();
  };
  // The address of the first element of mbarrier buffer \p v.
  auto barrierAddress = [&](Value v) -> FailureOr<std::string> {
    auto type = dyn_cast_or_null<BufferType>(v ? v.getType() : Type());
    if (!type || !mbarrierOffsets.count(rootOf(v))) {
      (void)fail("remote_barrier must be a barrier of T.alloc_barrier or "
                 "T.alloc_cluster_barrier");
      return failure();
    }
    SmallVector<std::string> idx(std::max<unsigned>(type.getRank(), 1), "0");
    FailureOr<std::pair<std::string, std::string>> el =
        guardedElement(v, idx, op);
    if (failed(el))
      return failure();
    return "&" + el->first;
  };
  if (!blockReachesBarrier(op) || range.lo != 0 || range.hi != blockThreads)
    return fail("meets the block at a barrier, but here only some threads "
                "of the block may reach it (inside T.Parallel or under a "
                "condition that may differ between threads)");
  int64_t bytes = op->getAttrOfType<IntegerAttr>("tile.cluster_bytes").getInt();
  // How the buffers are stored (tile-plan-shared-storage): a tensor copy
  // writes the destination row-major or in its panels' swizzle; a copy
  // into another block keeps the bytes where they are, so both sides must
  // be stored alike.
  auto storageOf = [&](Value v) {
    auto it = sharedStorage.find(rootOf(v));
    return it == sharedStorage.end() ? SharedStorage() : it->second;
  };
  SharedStorage to = storageOf(arg("dst"));
  if (form.getValue() == "multicast") {
    int64_t swizzle =
        op->getAttrOfType<IntegerAttr>("tile.cluster_swizzle").getInt();
    bool fits = swizzle ? to.kind == SharedStorage::Kind::Panels &&
                              to.chunks * 16 == swizzle
                        : to.kind == SharedStorage::Kind::Linear;
    if (!fits)
      return fail("the destination is stored XOR-swizzled for ldmatrix (a "
                  "shared gemm operand), which a tensor copy does not "
                  "write; copy it with T.copy first");
  } else {
    SharedStorage from = storageOf(arg("src"));
    if (from.kind != to.kind || from.chunks != to.chunks ||
        (to.kind != SharedStorage::Kind::Linear &&
         to.kind != SharedStorage::Kind::RowSwizzle))
      return fail("the source and destination are stored differently "
                  "(row-major / XOR-swizzled), so a copy of their bytes "
                  "into another block does not keep the elements");
  }
  anyCluster = true;
  std::string dst = expr(rootOf(arg("dst")));
  if (form.getValue() == "multicast") {
    FailureOr<std::string> bar = barrierAddress(arg("tile.mbarrier"));
    if (failed(bar))
      return failure();
    auto region = arg("src").getDefiningOp<RegionOp>();
    SmallVector<std::string> coords;
    SmallVector<OpFoldResult> offsets = region.getMixedOffsets();
    for (int d = int(offsets.size()) - 1; d >= 0; --d) {
      if (auto v = dyn_cast<Value>(offsets[d]))
        coords.push_back("int(" + expr(v) + ")");
      else
        coords.push_back(std::to_string(
            cast<IntegerAttr>(cast<Attribute>(offsets[d])).getInt()));
    }
    std::string args = ", " + llvm::join(coords, ", ");
    int64_t mask = op->getAttrOfType<IntegerAttr>("tile.cluster_mask").getInt();
    int64_t leader =
        op->getAttrOfType<IntegerAttr>("tile.cluster_leader").getInt();
    std::string map = tensorMapNames[op.getOperation()];
    std::string rank = fresh("rank"), phase = fresh("phase");
    std::string r = Twine(coords.size()).str();
    open("");
    line("tlc::cuda::clusterArrive();  // every block is done with the "
         "destination and the barrier's last phase");
    line("tlc::cuda::clusterWait();");
    line("const uint32_t " + rank + " = tlc::cuda::clusterCtaRank();");
    line("const uint32_t " + phase + " = tlc::cuda::mbarrierCurrentParity(" +
         *bar + ");");
    line("__syncthreads();  // every thread read the phase before it moves");
    open("if (threadIdx.x == 0)");
    line("tlc::cuda::mbarrierArriveExpectTx(" + *bar + ", " + Twine(bytes) +
         ");");
    open("if (" + rank + " == " + Twine(leader) + "u)");
    line("tlc::cuda::tmaLoadMulticast<" + r + ">(" + dst + ", &" + map + ", " +
         *bar + ", (uint16_t)" + Twine(mask) + args +
         ");  // to the blocks of the mask");
    close();
    open("else if (!((" + Twine(mask) + "u >> " + rank + ") & 1u))");
    line("tlc::cuda::tmaLoad<" + r + ">(" + dst + ", &" + map + ", " + *bar +
         args + ");  // a block outside the mask loads its own");
    close();
    close();
    line("tlc::cuda::mbarrierWait(" + *bar + ", " + phase + ");");
    close();
    anyTma = true;
    return success();
  }
  Value block = arg("dst_block");
  std::string peer = "(uint32_t)(" + expr(block) + ")";
  std::string src = expr(rootOf(arg("src")));
  Value remote = arg("remote_barrier");
  FailureOr<std::string> bar = std::string();
  if (remote) {
    bar = barrierAddress(remote);
    if (failed(bar))
      return failure();
  }
  if (form.getValue() == "bulk") {
    line("tlc::cuda::fenceProxyAsync();  // the source, to the copy engine");
    line("__syncthreads();");
    open("if (threadIdx.x == 0)");
    line("tlc::cuda::mbarrierArriveExpectTxCluster(" + *bar + ", " + peer +
         ", " + Twine(bytes) + ");");
    line("tlc::cuda::bulkCopySharedCluster(" + dst + ", " + src + ", " +
         Twine(bytes) + ", " + *bar + ", " + peer + ");");
    close();
    return success();
  }
  auto type = cast<BufferType>(arg("src").getType());
  int64_t n = 1;
  for (int64_t e : type.getShape())
    n *= e;
  std::string i = fresh("i");
  open("for (int " + i + " = threadIdx.x; " + i + " < " + Twine(n) + "; " + i +
       " += " + Twine(blockThreads) + ")");
  line("tlc::cuda::stSharedCluster(" + dst + " + " + i + ", " + peer + ", " +
       src + "[" + i + "]);");
  close();
  if (remote) {
    line("__syncthreads();  // every thread's stores, before the arrival");
    open("if (threadIdx.x == 0)");
    line("tlc::cuda::mbarrierArriveCluster(" + *bar + ", " + peer + ");");
    close();
  }
  return success();
}
