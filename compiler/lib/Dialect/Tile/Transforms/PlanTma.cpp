//===- PlanTma.cpp - The --tile-plan-tma pass -----------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Chooses TMA (cp.async.bulk.tensor completing on an mbarrier ring) for the
// producers of the multi-buffered pipelines of an sm_90a kernel when every
// producer of the loop is a box copy of a global tensor into a swizzled
// operand tile (Passes.td has the contract), and places the ring's
// barriers after the planned shared memory.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "Sm90Limits.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/LoweringStatus.h"
#include "tlc/Dialect/Tile/IR/PassConfigs.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEPLANTMA
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

static bool isGlobal(MemoryScope s) { return s == MemoryScope::Global; }

/// Whether the strides of tensor argument \p arg suit a tensor map
/// (cuTensorMapEncodeTiled): known at build time, the innermost 1 and every
/// other a positive multiple of 16 bytes. A view with other strides (a
/// transposed one, a symbolic or unaligned pitch) keeps cp.async.
static bool hasTmaStrides(BlockArgument arg, int64_t bytes) {
  std::optional<SmallVector<int64_t>> strides = getStaticStrides(arg);
  if (!strides || strides->empty() || strides->back() != 1)
    return false;
  for (int64_t s : ArrayRef<int64_t>(*strides).drop_back())
    if (s <= 0 || s * bytes % 16 || s >= (int64_t(1) << 40) / bytes)
      return false;
  return true;
}

/// Whether \p copy can be one tensor-map box copy per swizzle panel: the
/// source a region of a read-only global tensor argument of static shape
/// (rank 2 to 5, a unit innermost stride, the others 16-byte multiples),
/// the destination a whole swizzled shared tile whose rows are the
/// region's two non-unit dimensions, the second of them the tensor's
/// innermost one.
static bool isTmaCopy(CopyOp copy, const BufferAccesses &kernelAccesses) {
  // T.copy(..., disable_tma=True) and TL_DISABLE_TMA_LOWER keep cp.async.
  if (copy->hasAttr("disable_tma") ||
      isPassConfigOn(copy, "tl.disable_tma_lower"))
    return false;
  auto region = copy.getSrc().getDefiningOp<RegionOp>();
  auto alloc = copy.getDst().getDefiningOp<AllocOp>();
  if (!region || !alloc || !alloc->hasAttr("tile.swizzle") ||
      !alloc->hasAttr("tile.offset"))
    return false;
  auto arg = dyn_cast<BlockArgument>(region.getSource());
  if (!arg || !isa<FuncOp>(arg.getOwner()->getParentOp()) ||
      kernelAccesses.writes.contains(arg))
    return false;
  auto global = cast<BufferType>(arg.getType());
  auto box = cast<BufferType>(region.getType());
  auto tile = cast<BufferType>(alloc.getType());
  Type elem = global.getElementType();
  int64_t bytes = getElementStorageBytes(elem);
  if (global.getScope() != MemoryScope::Global || !global.isStatic() ||
      !box.isStatic() || !tile.isStatic() || tile.getElementType() != elem ||
      !(bytes == 1 || bytes == 2 || bytes == 4) || global.getRank() < 2 ||
      global.getRank() > 5)
    return false;
  // Every stride but the innermost (1) a multiple of 16 bytes
  // (cuTensorMapEncodeTiled's requirement; the tensor's `tile.strides` or
  // its dense rows), extents within 2^31 (the copy's coordinates are
  // 32-bit).
  ArrayRef<int64_t> shape = global.getShape();
  if (!hasTmaStrides(arg, bytes))
    return false;
  for (int64_t e : shape)
    if (e <= 0 || e >= (int64_t(1) << 31))
      return false;
  // The box: its non-unit extents are the tile's rows and columns.
  SmallVector<int64_t> tileShape(tile.getShape());
  while (tileShape.size() > 2 && tileShape.front() == 1)
    tileShape.erase(tileShape.begin());
  if (tileShape.size() != 2)
    return false;
  SmallVector<unsigned> dims;
  for (unsigned d = 0; d < box.getRank(); ++d)
    if (box.getShape()[d] != 1)
      dims.push_back(d);
  int64_t rows = tileShape[0], cols = tileShape[1];
  if (dims.empty() || dims.size() > 2 ||
      dims.back() + 1 != global.getRank() ||
      box.getShape()[dims.back()] != cols ||
      (dims.size() == 2 ? box.getShape()[dims.front()] != rows : rows != 1))
    return false;
  // One box per panel: panel columns = swizzle bytes / element bytes, at
  // most 256 rows a box.
  int64_t swizzle =
      alloc->getAttrOfType<IntegerAttr>("tile.swizzle").getInt();
  return swizzle % bytes == 0 && cols % (swizzle / bytes) == 0 &&
         rows <= 256 && rows % 8 == 0;
}

/// The 128-byte swizzle of TMA-stored tiles: a panel is 128 bytes wide.
static constexpr int64_t kStoreSwizzle = 128;

/// Whether \p copy, a statement of the kernel body \p body, can be a TMA
/// store: a whole 2-D fragment (f32/f16/bf16 accumulator values) into a
/// region of a static global tensor argument (rank 2 to 5, a unit innermost
/// stride, the others 16-byte multiples) whose non-unit dimensions are the
/// fragment's rows and the tensor's innermost dimension, the columns a
/// whole number of
/// 128-byte panels, at most 256 rows (a multiple of 8), and nothing after
/// it in the kernel body (the staging area it reuses stays its own). Whether
/// it is wanted (`tlc.tma_store`, else tile-persistent-gemm's rule) is the
/// caller's question.
static bool isTmaStore(CopyOp copy, Block &body) {
  if (copy->getBlock() != &body || copy->hasAttr("disable_tma") ||
      isPassConfigOn(copy, "tl.disable_tma_lower"))
    return false;
  for (Operation *next = copy->getNextNode(); next; next = next->getNextNode())
    if (!next->hasTrait<OpTrait::IsTerminator>())
      return false;
  auto frag = copy.getSrc().getDefiningOp<AllocOp>();
  auto region = copy.getDst().getDefiningOp<RegionOp>();
  if (!frag || !region)
    return false;
  auto fragType = cast<BufferType>(frag.getType());
  auto arg = dyn_cast<BlockArgument>(region.getSource());
  if (fragType.getScope() != MemoryScope::Fragment || !fragType.isStatic() ||
      !arg || !isa<FuncOp>(arg.getOwner()->getParentOp()))
    return false;
  auto global = cast<BufferType>(arg.getType());
  auto box = cast<BufferType>(region.getType());
  int64_t bytes = getElementStorageBytes(global.getElementType());
  if (global.getScope() != MemoryScope::Global || !global.isStatic() ||
      !box.isStatic() || !(bytes == 2 || bytes == 4) ||
      global.getRank() < 2 || global.getRank() > 5 ||
      !hasTmaStrides(arg, bytes))
    return false;
  for (int64_t e : global.getShape())
    if (e <= 0 || e >= (int64_t(1) << 31))
      return false;
  SmallVector<int64_t> fragShape;
  for (int64_t e : fragType.getShape())
    if (e != 1)
      fragShape.push_back(e);
  SmallVector<unsigned> dims;
  for (unsigned d = 0; d < box.getRank(); ++d)
    if (box.getShape()[d] != 1)
      dims.push_back(d);
  if (fragShape.size() != 2 || dims.size() != 2 ||
      dims.back() + 1 != global.getRank() ||
      box.getShape()[dims[0]] != fragShape[0] ||
      box.getShape()[dims[1]] != fragShape[1])
    return false;
  int64_t rows = fragShape[0], cols = fragShape[1];
  return cols % (kStoreSwizzle / bytes) == 0 && rows <= 256 && rows % 8 == 0;
}

/// Whether \p tile (a whole shared allocation) and \p region (of a global
/// tensor argument) are the two sides of a 1-D bulk copy (cp.async.bulk, no
/// tensor map; issue 2529): a 1-D tile in row-major storage (no swizzle, no
/// stages) and a region of a static 1-D global tensor of the same element
/// type, of whole bytes (a sub-byte type is packed in global memory, not in
/// shared), the tile's bytes a multiple of 16 below 2^20 (an mbarrier's
/// transaction count).
static bool isBulkPair(AllocOp alloc, RegionOp region) {
  if (!alloc || !region || alloc->hasAttr("tile.swizzle") ||
      alloc->hasAttr("tile.stages"))
    return false;
  auto tile = cast<BufferType>(alloc.getType());
  auto arg = dyn_cast<BlockArgument>(region.getSource());
  if (!isSharedScope(tile.getScope()) || !tile.isStatic() ||
      tile.getRank() != 1 || !arg ||
      !isa<FuncOp>(arg.getOwner()->getParentOp()))
    return false;
  auto global = cast<BufferType>(arg.getType());
  auto box = cast<BufferType>(region.getType());
  Type elem = global.getElementType();
  int64_t bytes = getElementStorageBytes(elem);
  if (global.getScope() != MemoryScope::Global || !global.isStatic() ||
      global.getRank() != 1 || !box.isStatic() || box.getRank() != 1 ||
      tile.getElementType() != elem || isa<Float4E2M1FNType>(elem) ||
      (elem.isIntOrFloat() && elem.getIntOrFloatBitWidth() < 8) ||
      !(bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8))
    return false;
  std::optional<SmallVector<int64_t>> strides = getStaticStrides(arg);
  int64_t n = tile.getShape()[0];
  return strides && strides->size() == 1 && strides->front() == 1 &&
         box.getShape()[0] == n && n * bytes % 16 == 0 &&
         n * bytes < (int64_t(1) << 20) &&
         global.getShape()[0] < (int64_t(1) << 31);
}

/// Whether \p copy, a statement of the kernel body \p body, can be a bulk
/// store (cp.async.bulk.global.shared::cta): a whole 1-D shared tile into a
/// region of a 1-D global tensor (isBulkPair). The printer issues the run
/// that lies in the tensor from one thread when the global address is
/// 16-byte aligned and leaves the tail that is no multiple of 16 bytes (and
/// a misaligned run) to the threads.
static bool isBulkStore(CopyOp copy, Block &body) {
  if (copy->getBlock() != &body || copy->hasAttr("disable_tma") ||
      isPassConfigOn(copy, "tl.disable_tma_lower"))
    return false;
  return isBulkPair(copy.getSrc().getDefiningOp<AllocOp>(),
                    copy.getDst().getDefiningOp<RegionOp>());
}

/// Whether \p copy, a statement of the kernel body \p body, can be a bulk
/// load (cp.async.bulk.shared::cluster.global completing on an mbarrier):
/// a region of a 1-D global tensor that the kernel does not write (the
/// copy engine reads it through the async proxy) into a whole 1-D shared
/// tile (isBulkPair). The printer loads the run that lies in the tensor
/// from one thread when the global address is 16-byte aligned; the threads
/// load the tail and zero what lies outside the tensor.
static bool isBulkLoad(CopyOp copy, Block &body,
                       const BufferAccesses &kernelAccesses) {
  if (copy->getBlock() != &body || copy->hasAttr("disable_tma") ||
      isPassConfigOn(copy, "tl.disable_tma_lower"))
    return false;
  auto region = copy.getSrc().getDefiningOp<RegionOp>();
  if (!region || kernelAccesses.writes.contains(region.getSource()))
    return false;
  return isBulkPair(copy.getDst().getDefiningOp<AllocOp>(), region);
}

/// A 1024-byte aligned run of \p bytes in the planned buffers of \p body
/// that no statement at or after \p at uses (the pipeline stages after the
/// loop), or -1.
static int64_t deadStagingArea(Block &body, Operation *at, int64_t bytes) {
  StatementIndex index = indexStatements(body);
  int now = getStatementOf(body, at, index);
  SmallVector<std::pair<int64_t, int64_t>> dead, busy;
  body.walk([&](AllocOp alloc) {
    auto offset = alloc->getAttrOfType<IntegerAttr>("tile.offset");
    auto type = cast<BufferType>(alloc.getType());
    if (!offset || !isSharedScope(type.getScope()) || !type.isStatic())
      return;
    int64_t size = getElementStorageBytes(type.getElementType());
    for (int64_t e : type.getShape())
      size *= e;
    if (auto stages = alloc->getAttrOfType<IntegerAttr>("tile.stages"))
      size *= std::max<int64_t>(1, stages.getInt());
    std::optional<std::pair<int, int>> range =
        getLiveRange(body, alloc.getResult(), index);
    std::pair<int64_t, int64_t> span{offset.getInt(), offset.getInt() + size};
    (range && range->second >= now ? busy : dead).push_back(span);
  });
  llvm::sort(dead);
  for (size_t i = 0; i < dead.size(); ++i) {
    int64_t start = dead[i].first, end = dead[i].second;
    if (start % 1024)
      continue;
    // Adjacent dead buffers (alignment gaps below 1024 bytes) extend it.
    for (size_t j = i + 1; j < dead.size() && end - start < bytes; ++j) {
      if (dead[j].first > end + 1023)
        break;
      end = std::max(end, dead[j].second);
    }
    if (end - start < bytes)
      continue;
    if (llvm::none_of(busy, [&](auto &b) {
          return start < b.second && b.first < start + bytes;
        }))
      return start;
  }
  return -1;
}

/// The statements of the kernel body \p body before its TMA pipeline that
/// may be one-shot TMA loads (attention's Q): box copies isTmaCopy accepts
/// whose destination only wgmma gemms read (nothing else writes it), with
/// no statement before them touching shared memory. The copy engine may
/// then land the tile at any point before the copy's place in the program
/// (the producer warpgroup issues it at the kernel's start).
static SmallVector<CopyOp> oneShotTmaLoads(Block &body,
                                           const BufferAccesses &accesses) {
  SmallVector<CopyOp> loads;
  for (Operation &op : body) {
    if (isa<PipelinedOp>(op))
      break;
    auto copy = dyn_cast<CopyOp>(op);
    if (copy && isTmaCopy(copy, accesses)) {
      bool gemmsOnly = true;
      for (OpOperand &use : copy.getDst().getUses()) {
        auto gemm = dyn_cast<GemmOp>(use.getOwner());
        auto instr =
            gemm ? gemm->getAttrOfType<StringAttr>("tile.instr") : nullptr;
        if (use.getOwner() != copy.getOperation() &&
            (!instr || instr.getValue() != "wgmma" || use.get() == gemm.getC()))
          gemmsOnly = false;
      }
      if (gemmsOnly) {
        loads.push_back(copy);
        continue;
      }
    }
    BufferAccesses shared = getBufferAccesses(&op, isSharedScope);
    if (!shared.reads.empty() || !shared.writes.empty())
      break;
  }
  return loads;
}

namespace {
struct TilePlanTmaPass final
    : tlc::tile::impl::TilePlanTmaBase<TilePlanTmaPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    forEachSm90aKernel(module, target, [&](KernelOp kernel) {
      planBulkCopies(kernel, b);
      planKernel(kernel, b);
    });
  }

  /// The 1-D copies of the kernel body between shared and global memory, as
  /// bulk stores and bulk loads; each load's mbarrier (8 bytes) after the
  /// planned shared memory.
  static void planBulkCopies(KernelOp kernel, Builder &b) {
    Block &body = kernel.getBody().front();
    auto planned = kernel->getAttrOfType<IntegerAttr>("tile.shared_bytes");
    BufferAccesses accesses = getBufferAccesses(kernel, isGlobal);
    int64_t sharedBytes = planned ? planned.getInt() : -1;
    for (Operation &op : body) {
      auto copy = dyn_cast<CopyOp>(op);
      if (!copy)
        continue;
      if (isBulkStore(copy, body)) {
        copy->setAttr("tile.bulk_store", b.getUnitAttr());
        continue;
      }
      if (sharedBytes < 0 || !isBulkLoad(copy, body, accesses))
        continue;
      int64_t offset = (sharedBytes + 7) / 8 * 8;
      if (offset + 8 > kSm90SharedLimit)
        continue;
      copy->setAttr("tile.bulk_load", b.getI64IntegerAttr(offset));
      sharedBytes = offset + 8;
    }
    if (planned && sharedBytes != planned.getInt())
      kernel->setAttr("tile.shared_bytes", b.getI64IntegerAttr(sharedBytes));
  }

  void planKernel(KernelOp kernel, Builder &b) {
    auto planned = kernel->getAttrOfType<IntegerAttr>("tile.shared_bytes");
    if (!planned)
      return;
    int64_t sharedBytes = planned.getInt();
    BufferAccesses accesses = getBufferAccesses(kernel, isGlobal);
    int64_t maps = 0;
    // One-shot TMA loads before the pipeline (attention's Q), an mbarrier
    // each, placed before the ring (tile-warp-specialize grows the ring in
    // place when it is last); planned only with a TMA pipeline and with
    // `tlc.tma_once=True`: measured on an H100 (docs/perf/hopper.md,
    // perf36) they cost head dimension 64 7-8 % and gain nothing at 128.
    Block &body = kernel.getBody().front();
    SmallVector<CopyOp> once;
    if (isPassConfigOn(kernel, "tlc.tma_once"))
      once = oneShotTmaLoads(body, accesses);
    int64_t onceOffset = (sharedBytes + 7) / 8 * 8;
    if (!once.empty() &&
        onceOffset + 8 * int64_t(once.size()) <= kSm90SharedLimit)
      sharedBytes = onceOffset + 8 * int64_t(once.size());
    else
      once.clear();
    kernel.walk([&](PipelinedOp pipe) {
      auto stages = pipe->getAttrOfType<IntegerAttr>("tile.stages");
      if (!stages)
        return;
      SmallVector<CopyOp> producers;
      bool all = true;
      for (Operation &op : pipe.getBody().front()) {
        if (!op.hasAttr("tile.prefetch"))
          continue;
        auto copy = dyn_cast<CopyOp>(op);
        if (!copy || !isTmaCopy(copy, accesses))
          all = false;
        else
          producers.push_back(copy);
      }
      if (!all || producers.empty())
        return;
      // The ring: one 8-byte full barrier per stage after everything else.
      int64_t offset = (sharedBytes + 7) / 8 * 8;
      int64_t end = offset + 8 * stages.getInt();
      if (end > kSm90SharedLimit)
        return;
      sharedBytes = end;
      pipe->setAttr("tile.tma_barriers", b.getI64IntegerAttr(offset));
      for (CopyOp copy : producers)
        copy->setAttr("tile.tma", b.getI64IntegerAttr(maps++));
    });
    if (!maps)
      return;
    kernel->setAttr("tile.shared_bytes", b.getI64IntegerAttr(sharedBytes));
    // The TMA store epilogue: when tlc.tma_store asks, and without the
    // config as a candidate in a GEMM (one gemm in the loop; no one-shot
    // load's map may follow the store's, tile-persistent-gemm may drop it)
    // that tile-persistent-gemm keeps where the grid is many waves deep.
    std::optional<StringRef> store = getPassConfig(kernel, "tlc.tma_store");
    if (store ? isPassConfigOn(kernel, "tlc.tma_store")
              : once.empty() && isSingleGemmKernel(kernel))
      planTmaStore(body, maps, /*byDefault=*/!store, b);
    // The one-shot loads' maps come last: tile-persistent-gemm, which keeps
    // them to the threads, then leaves no gap in the numbering.
    for (auto [i, copy] : llvm::enumerate(once)) {
      copy->setAttr("tile.tma", b.getI64IntegerAttr(maps++));
      copy->setAttr("tile.tma_once",
                    b.getI64IntegerAttr(onceOffset + 8 * int64_t(i)));
    }
  }

  /// The epilogue of a kernel with a TMA pipeline: its last statement, a
  /// fragment stored into a global tile, goes through the dead stages as
  /// 128-byte swizzled panels and one TMA store per panel.
  static void planTmaStore(Block &body, int64_t &maps, bool byDefault,
                           Builder &b) {
    Operation *last = body.empty() ? nullptr : &body.back();
    while (last && last->hasTrait<OpTrait::IsTerminator>())
      last = last->getPrevNode();
    auto copy = dyn_cast_or_null<CopyOp>(last);
    if (!copy || !isTmaStore(copy, body))
      return;
    auto frag = cast<BufferType>(copy.getSrc().getType());
    int64_t bytes = getElementStorageBytes(
        cast<BufferType>(copy.getDst().getType()).getElementType());
    for (int64_t e : frag.getShape())
      bytes *= e;
    int64_t area = deadStagingArea(body, copy, bytes);
    if (area < 0)
      return;
    copy->setAttr("tile.tma_store", b.getI64IntegerAttr(maps++));
    copy->setAttr("tile.tma_store_offset", b.getI64IntegerAttr(area));
    if (byDefault)
      copy->setAttr("tile.tma_store_default", b.getUnitAttr());
  }

  /// Whether \p kernel's pipelined loops hold one gemm in all (a GEMM, not
  /// attention's two).
  static bool isSingleGemmKernel(KernelOp kernel) {
    int64_t gemms = 0;
    kernel.walk([&](PipelinedOp pipe) { pipe.walk([&](GemmOp) { ++gemms; }); });
    return gemms == 1;
  }
};
} // namespace
