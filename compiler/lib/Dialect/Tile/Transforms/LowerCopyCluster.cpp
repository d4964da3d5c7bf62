//===- LowerCopyCluster.cpp - The --tile-lower-copy-cluster pass ----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Chooses how an sm_90a kernel performs each T.copy_cluster (Passes.td has
// the contract): a TMA load multicast to the blocks of `cluster_mask`, a
// bulk copy into block `dst_block`'s shared memory completing on its
// `remote_barrier`, or the threads' st.shared::cluster stores. A form the
// target cannot issue is an error at the call, raised only here (when
// building for sm_90a), never by --check.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Matchers.h"

#include "llvm/ADT/bit.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILELOWERCOPYCLUSTER
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// The largest transaction count an mbarrier phase holds (PTX ISA,
/// "mbarrier": tx-count in [-(2^20 - 1), 2^20 - 1]).
static constexpr int64_t kMaxTxBytes = (int64_t(1) << 20) - 1;

/// The operand of \p op passed for \p param (null when absent).
static Value argOf(IntrinsicOp op, StringRef param) {
  ArrayAttr params = op.getParams();
  for (auto [i, v] : llvm::enumerate(op.getArgs()))
    if (i < params.size() && cast<StringAttr>(params[i]).getValue() == param)
      return v;
  return {};
}

/// The allocation \p v is, or whose whole extent \p v is as a region at
/// offset zero; null otherwise.
static AllocOp wholeAlloc(Value v) {
  if (auto alloc = v.getDefiningOp<AllocOp>())
    return alloc;
  auto region = v.getDefiningOp<RegionOp>();
  if (!region)
    return {};
  auto alloc = region.getSource().getDefiningOp<AllocOp>();
  if (!alloc || cast<BufferType>(alloc.getType()).getShape() !=
                    cast<BufferType>(region.getType()).getShape())
    return {};
  for (OpFoldResult o : region.getMixedOffsets()) {
    std::optional<int64_t> c = getConstantIntValue(o);
    if (!c || *c != 0)
      return {};
  }
  return alloc;
}

/// The static extents of \p shape without its unit dimensions.
static SmallVector<int64_t> nonUnit(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> out;
  for (int64_t e : shape)
    if (e != 1)
      out.push_back(e);
  return out;
}

/// Why the shared allocation \p alloc cannot be addressed by a bulk or
/// tensor copy (empty when it can): shared memory of static shape, not
/// multi-buffered, placed; for a tensor copy (\p swizzle given) either
/// unswizzled or tile-plan-wgmma's panels one panel wide (rows of the
/// swizzle's 32, 64 or 128 bytes, the copy engine's own swizzle; 1024-byte
/// aligned), the swizzle then set (0: none). How the printer stores an
/// unswizzled buffer (row-major, or XOR-swizzled for ldmatrix) is
/// tile-plan-shared-storage's choice, which the printer checks.
static std::string whyNotAddressable(AllocOp alloc, int64_t *swizzle) {
  auto t = cast<BufferType>(alloc.getType());
  if (!isSharedScope(t.getScope()))
    return "is not shared memory";
  if (!t.isStatic())
    return "has no static shape";
  if (alloc->hasAttr("tile.stages"))
    return "is multi-buffered (T.Pipelined stages)";
  if (!alloc->hasAttr("tile.offset"))
    return "has no planned place in shared memory";
  int64_t offset = alloc->getAttrOfType<IntegerAttr>("tile.offset").getInt();
  auto panel = alloc->getAttrOfType<IntegerAttr>("tile.swizzle");
  if (!swizzle)
    return panel ? "is a wgmma operand stored in swizzled panels" : "";
  *swizzle = 0;
  if (!panel)
    return offset % 128 ? "lies at byte " + std::to_string(offset) +
                              " of shared memory; a tensor copy needs "
                              "128-byte alignment"
                        : "";
  SmallVector<int64_t> dims = nonUnit(t.getShape());
  int64_t rowBytes =
      dims.empty() ? 0
                   : dims.back() * getElementStorageBytes(t.getElementType());
  if (dims.size() != 2 || rowBytes != panel.getInt())
    return "is a wgmma operand of several swizzled panels, which one box "
           "of a tensor map does not fill";
  if (offset % 1024)
    return "is swizzled but not 1024-byte aligned in shared memory";
  *swizzle = panel.getInt();
  return "";
}

namespace {
struct TileLowerCopyClusterPass final
    : tlc::tile::impl::TileLowerCopyClusterBase<TileLowerCopyClusterPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    forEachSm90aKernel(module, target, [&](KernelOp kernel) {
      SmallVector<IntrinsicOp> copies;
      kernel.walk([&](IntrinsicOp op) {
        if (op.getCallee() == "T.copy_cluster")
          copies.push_back(op);
      });
      bool ok = true;
      for (IntrinsicOp op : copies)
        ok &= succeeded(lower(kernel, op));
      if (!ok)
        markLoweringFailed(kernel->getParentOfType<FuncOp>());
    });
  }

  /// The blocks of \p kernel's cluster (1 without cluster_dims).
  static int64_t clusterSize(KernelOp kernel) {
    int64_t n = 1;
    if (auto dims = kernel->getAttrOfType<DenseI64ArrayAttr>("cluster_dims"))
      for (int64_t d : dims.asArrayRef())
        n *= d;
    return n;
  }

  LogicalResult lower(KernelOp kernel, IntrinsicOp op) {
    auto fail = [&](const Twine &why) {
      op.emitError() << "T.copy_cluster on sm_90a: " << why;
      return failure();
    };
    Value src = argOf(op, "src"), dst = argOf(op, "dst");
    Value block = argOf(op, "dst_block"), mask = argOf(op, "cluster_mask");
    Value bar = argOf(op, "remote_barrier");
    auto st = src ? dyn_cast<BufferType>(src.getType()) : BufferType();
    auto dt = dst ? dyn_cast<BufferType>(dst.getType()) : BufferType();
    if (!st || !dt)
      return fail("copies a buffer region into a shared buffer");
    if ((block != nullptr) == (mask != nullptr))
      return fail("needs either dst_block (a copy into that block's shared "
                  "memory) or cluster_mask (a TMA multicast), not " +
                  Twine(block ? "both" : "neither"));
    if (mask)
      return lowerMulticast(kernel, op, src, dst, mask, fail);
    return lowerPeerCopy(op, src, dst, bar, fail);
  }

  /// cluster_mask: the mask's lowest rank loads the box with
  /// .multicast::cluster, the blocks outside the mask load their own, and
  /// every block's mbarrier (a cluster barrier made here) expects the bytes.
  LogicalResult
  lowerMulticast(KernelOp kernel, IntrinsicOp op, Value src, Value dst,
                 Value maskValue,
                 llvm::function_ref<LogicalResult(const Twine &)> fail) {
    APInt maskBits;
    if (!matchPattern(maskValue, m_ConstantInt(&maskBits)))
      return fail("cluster_mask must be a constant (the multicast's cta mask "
                  "is chosen when the kernel is built)");
    int64_t size = clusterSize(kernel);
    uint64_t mask = maskBits.getZExtValue();
    if (mask == 0 || (size < 64 && (mask >> size) != 0))
      return fail("cluster_mask " + Twine(mask) +
                  " must name blocks of the cluster of " + Twine(size) +
                  " (bits 0.." + Twine(size - 1) + ")");
    // Every block of the cluster takes part (the leader issues for the
    // mask, the others load their own): the copy must be where all reach.
    for (Operation *p = op->getParentOp(); p && !isa<KernelOp>(p);
         p = p->getParentOp())
      if (!isa<ForOp, PipelinedOp>(p))
        return fail("a TMA multicast meets the whole cluster at a cluster "
                    "barrier, so it must be reached by every block and "
                    "thread (not under a condition or in T.Parallel)");
    auto region = src.getDefiningOp<RegionOp>();
    auto arg =
        region ? dyn_cast<BlockArgument>(region.getSource()) : BlockArgument();
    if (!arg || !isa<FuncOp>(arg.getOwner()->getParentOp()))
      return fail("a multicast (cluster_mask) loads a tile of a global tensor "
                  "parameter into shared memory; the source is not one");
    auto global = cast<BufferType>(arg.getType());
    auto box = cast<BufferType>(region.getType());
    AllocOp alloc = wholeAlloc(dst);
    if (!alloc)
      return fail("a multicast lands in a whole shared buffer");
    int64_t swizzle = 0;
    std::string why = whyNotAddressable(alloc, &swizzle);
    if (!why.empty())
      return fail("the destination " + why);
    auto tile = cast<BufferType>(alloc.getType());
    Type elem = global.getElementType();
    int64_t bytes = getElementStorageBytes(elem);
    if (global.getScope() != MemoryScope::Global || !global.isStatic() ||
        !box.isStatic() || global.getRank() < 2 || global.getRank() > 5)
      return fail("a tensor map needs a global tensor of static shape and "
                  "rank 2 to 5");
    if (tile.getElementType() != elem ||
        !(bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8))
      return fail("the source and destination have different element types, "
                  "or elements of a size a tensor map does not copy");
    std::optional<SmallVector<int64_t>> strides = getStaticStrides(arg);
    if (!strides || strides->back() != 1)
      return fail("the tensor's innermost stride is not 1");
    for (int64_t s : ArrayRef<int64_t>(*strides).drop_back())
      if (s <= 0 || s * bytes % 16)
        return fail("a tensor map needs every stride but the innermost to be "
                    "a positive multiple of 16 bytes");
    for (int64_t e : global.getShape())
      if (e <= 0 || e >= (int64_t(1) << 31))
        return fail("an extent of the tensor is outside 1..2^31-1");
    if (nonUnit(box.getShape()) != nonUnit(tile.getShape()))
      return fail("the source region's extents differ from the destination "
                  "buffer's");
    int64_t total = 1;
    for (int64_t e : box.getShape()) {
      if (e > 256)
        return fail("a box extent of " + Twine(e) +
                    " is over the tensor map's 256");
      total *= e;
    }
    if (box.getShape().back() * bytes % 16)
      return fail("the box's rows are " + Twine(box.getShape().back() * bytes) +
                  " bytes, not a multiple of 16");
    if (total * bytes > kMaxTxBytes)
      return fail("the tile's " + Twine(total * bytes) +
                  " bytes are more than an mbarrier phase counts");
    // The next tensor map of the kernel (after tile-plan-tma's).
    int64_t next = 0;
    kernel.walk([&](Operation *o) {
      for (StringRef name : {"tile.tma", "tile.tma_store"})
        if (auto i = o->getAttrOfType<IntegerAttr>(name))
          next = std::max(next, i.getInt() + 1);
    });
    // The block's mbarrier for the tile's bytes, initialised with the
    // kernel's other barriers.
    OpBuilder b(kernel.getBody().front().getParentOp()->getContext());
    b.setInsertionPointToStart(&kernel.getBody().front());
    auto barType = BufferType::get(ArrayRef<int64_t>{1},
                                   b.getIntegerType(64, /*isSigned=*/false),
                                   MemoryScope::ClusterBarrier);
    auto barrier = AllocOp::create(b, op.getLoc(), barType, Value());
    barrier.setArriveCountsAttr(b.getDenseI64ArrayAttr({1}));
    SmallVector<Value> args(op.getArgs());
    SmallVector<Attribute> params(op.getParams().getValue());
    args.push_back(barrier);
    params.push_back(b.getStringAttr("tile.mbarrier"));
    b.setInsertionPoint(op);
    auto lowered = IntrinsicOp::create(
        b, op.getLoc(), op->getResultTypes(), op.getCalleeAttr(), args,
        b.getArrayAttr(params), op.getOptionsAttr());
    lowered->setAttr("tile.cluster_copy", b.getStringAttr("multicast"));
    lowered->setAttr("tile.tma", b.getI64IntegerAttr(next));
    lowered->setAttr("tile.cluster_mask", b.getI64IntegerAttr(int64_t(mask)));
    lowered->setAttr("tile.cluster_leader",
                     b.getI64IntegerAttr(llvm::countr_zero(mask)));
    lowered->setAttr("tile.cluster_bytes", b.getI64IntegerAttr(total * bytes));
    lowered->setAttr("tile.cluster_swizzle", b.getI64IntegerAttr(swizzle));
    op.erase();
    return success();
  }

  /// dst_block: with remote_barrier, one thread's bulk copy into the
  /// peer's shared memory (16-byte aligned, a multiple of 16 bytes), else
  /// the threads' stores into it.
  LogicalResult
  lowerPeerCopy(IntrinsicOp op, Value src, Value dst, Value bar,
                llvm::function_ref<LogicalResult(const Twine &)> fail) {
    AllocOp from = wholeAlloc(src), to = wholeAlloc(dst);
    if (!from || !to)
      return fail("a copy into another block (dst_block) copies a whole shared "
                  "buffer into a whole shared buffer");
    std::string why = whyNotAddressable(from, nullptr);
    if (!why.empty())
      return fail("the source " + why);
    why = whyNotAddressable(to, nullptr);
    if (!why.empty())
      return fail("the destination " + why);
    auto st = cast<BufferType>(from.getType());
    auto dt = cast<BufferType>(to.getType());
    if (st.getShape() != dt.getShape() ||
        st.getElementType() != dt.getElementType())
      return fail("the source and destination differ in shape or dtype");
    if (bar) {
      auto bt = dyn_cast<BufferType>(bar.getType());
      if (!bt || !isBarrierScope(bt.getScope()))
        return fail("remote_barrier must be an mbarrier (T.alloc_barrier or "
                    "T.alloc_cluster_barrier)");
    }
    int64_t n = 1;
    for (int64_t e : st.getShape())
      n *= e;
    int64_t elemBytes = getElementStorageBytes(st.getElementType());
    int64_t bytes = n * elemBytes;
    int64_t a = from->getAttrOfType<IntegerAttr>("tile.offset").getInt();
    int64_t c = to->getAttrOfType<IntegerAttr>("tile.offset").getInt();
    Builder b(op.getContext());
    bool bulk = bar && bytes % 16 == 0 && bytes <= kMaxTxBytes && a % 16 == 0 &&
                c % 16 == 0;
    if (!bulk && !(elemBytes == 2 || elemBytes == 4))
      return fail("the threads' st.shared::cluster stores copy 2- or 4-byte "
                  "elements; this copy (" +
                  Twine(bytes) + " bytes" +
                  (bar ? ", not a 16-byte aligned multiple of 16" : "") +
                  ") is neither a bulk copy nor of such elements");
    op->setAttr("tile.cluster_copy", b.getStringAttr(bulk ? "bulk" : "stores"));
    op->setAttr("tile.cluster_bytes", b.getI64IntegerAttr(bytes));
    return success();
  }
};
} // namespace
