//===- PersistentGemm.cpp - The --tile-persistent-gemm pass ---------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Persistent warp-specialised GEMMs on sm_90a (Passes.td has the contract):
// a kernel that tile-warp-specialize gave a producer warpgroup, whose loop
// computes one wgmma gemm with a group in flight, is launched with one
// block per multiprocessor slot; every block loops over output tiles in a
// grouped rasterisation. The producer's ring position and the consumers'
// are carried from tile to tile, so the producer loads the next tile while
// the consumers store the previous one. The epilogue's staging tile moves
// out of the stages into an area of its own.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "Sm90Limits.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/PassConfigs.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEPERSISTENTGEMM
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// Shared memory of an sm_90 multiprocessor and what the system reserves
/// per block.
static constexpr int64_t kSm90SharedPerSm = 228 * 1024;
static constexpr int64_t kSm90ReservedShared = 1024;
/// Rows of tiles per rasterisation panel when the program names none.
static constexpr int64_t kDefaultPanel = 8;
/// Whether a qualifying GEMM is made persistent without `tlc.persistent`:
/// yes, since four H200 runs measured it 3.6% faster (geomean over six
/// shapes, each next to torch.matmul in the same process;
/// docs/perf/hopper-persistent.md).
static constexpr bool kPersistentByDefault = true;

/// The epilogue of \p body: its last statement when that is a copy of a
/// whole static 2-D fragment into a global tile, else null.
static CopyOp epilogueOf(Block &body) {
  Operation *last = body.empty() ? nullptr : &body.back();
  while (last && last->hasTrait<OpTrait::IsTerminator>())
    last = last->getPrevNode();
  auto copy = dyn_cast_or_null<CopyOp>(last);
  if (!copy)
    return nullptr;
  auto frag = copy.getSrc().getDefiningOp<AllocOp>();
  if (!frag || getScopeOf(copy.getDst()) != MemoryScope::Global)
    return nullptr;
  auto type = cast<BufferType>(frag.getType());
  if (type.getScope() != MemoryScope::Fragment || !type.isStatic())
    return nullptr;
  int64_t dims = llvm::count_if(type.getShape(), [](int64_t e) {
    return e != 1;
  });
  return dims == 2 ? copy : nullptr;
}

/// The bytes the epilogue \p copy stages in shared memory: the padded
/// row-major tile (a 16-byte pad per row) the CUDA printer's staged
/// fragment store writes, which also holds the 128-byte swizzled panels of
/// a TMA store (the printer falls back to the staged store when the
/// fragment's layout does not fit the panels).
static int64_t epilogueBytes(CopyOp copy) {
  auto frag = cast<BufferType>(copy.getSrc().getType());
  int64_t elem = getElementStorageBytes(
      cast<BufferType>(copy.getDst().getType()).getElementType());
  SmallVector<int64_t> shape;
  for (int64_t e : frag.getShape())
    if (e != 1)
      shape.push_back(e);
  int64_t pad = elem && 16 % elem == 0 ? 16 / elem : 0;
  return shape[0] * (shape[1] + pad) * elem;
}

namespace {
struct TilePersistentGemmPass final
    : tlc::tile::impl::TilePersistentGemmBase<TilePersistentGemmPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    forEachSm90aKernel(module, target,
                       [&](KernelOp kernel) { planKernel(kernel, b); });
  }

  void planKernel(KernelOp kernel, Builder &b) {
    std::optional<StringRef> config = getPassConfig(kernel, "tlc.persistent");
    bool wanted = config ? isPassConfigOn(kernel, "tlc.persistent")
                         : kPersistentByDefault;
    auto planned = kernel->getAttrOfType<IntegerAttr>("tile.shared_bytes");
    if (!wanted || !planned || !kernel->hasAttr("tile.ws_producer_threads"))
      return;
    // The warp-specialised loop: one ring, one gemm with a group in flight.
    PipelinedOp pipe;
    kernel.walk([&](PipelinedOp p) {
      if (p->hasAttr("tile.ws_empty_barriers"))
        pipe = p;
    });
    if (!pipe || pipe->hasAttr("tile.ws_rings") ||
        pipe->getBlock() != &kernel.getBody().front())
      return;
    int64_t gemms = 0;
    bool inFlight = false;
    pipe.walk([&](GemmOp g) {
      ++gemms;
      inFlight |= g->hasAttr("tile.wgmma_wait");
    });
    if (gemms != 1 || !inFlight)
      return;
    // A static grid of one or two dimensions, more tiles than blocks.
    SmallVector<int64_t> grid;
    for (OpFoldResult g : kernel.getMixedGrid()) {
      std::optional<int64_t> e = getConstantIntValue(g);
      if (!e || *e <= 0)
        return;
      grid.push_back(*e);
    }
    if (grid.empty() || grid.size() > 2)
      return;
    int64_t tiles = grid[0] * (grid.size() == 2 ? grid[1] : 1);
    auto perSm = kernel->getAttrOfType<IntegerAttr>("tile.ws_blocks_per_sm");
    int64_t blocksPerSm = perSm ? perSm.getInt() : 1;
    // No shared buffer but the stages lives outside the loop: the stages
    // are refilled for the next tile while the consumers finish this one.
    Block &body = kernel.getBody().front();
    StatementIndex index = indexStatements(body);
    int loop = getStatementOf(body, pipe, index);
    bool outside = false;
    kernel.walk([&](AllocOp alloc) {
      if (!isSharedScope(cast<BufferType>(alloc.getType()).getScope()))
        return;
      std::optional<std::pair<int, int>> range =
          getLiveRange(body, alloc.getResult(), index);
      outside |= range && (range->first != loop || range->second != loop);
    });
    if (outside)
      return;
    // The epilogue's staging area after everything planned so far.
    CopyOp epilogue = epilogueOf(body);
    int64_t end = planned.getInt(), area = -1;
    if (epilogue) {
      area = (end + 1023) / 1024 * 1024;
      end = area + epilogueBytes(epilogue);
      if (end > kSm90SharedLimit)
        return;
    }
    if (blocksPerSm > 1 &&
        blocksPerSm * (end + kSm90ReservedShared) > kSm90SharedPerSm)
      blocksPerSm = 1;
    // `tlc.num_sms=N` sizes the grid for another device (and lets tests
    // give each block several tiles of a small problem).
    int64_t sms = numSms;
    if (std::optional<StringRef> n = getPassConfig(kernel, "tlc.num_sms")) {
      int64_t v;
      if (!n->getAsInteger(10, v) && v > 0)
        sms = v;
    }
    int64_t ctas = sms * blocksPerSm;
    if (tiles <= ctas)
      return;
    // Rasterisation: the program's T.use_swizzle, else panels of 8 rows.
    int64_t panel = grid.size() == 2 ? kDefaultPanel : 0;
    StringRef order = "row";
    kernel.walk([&](UseSwizzleOp u) {
      if (!u.getEnable() || grid.size() != 2)
        return;
      panel = u.getPanelSize();
      order = u.getOrder() == SwizzleOrder::Row ? "row" : "column";
    });
    if (epilogue) {
      epilogue->setAttr("tile.epilogue_area", b.getI64IntegerAttr(area));
      if (epilogue->hasAttr("tile.tma_store"))
        epilogue->setAttr("tile.tma_store_offset", b.getI64IntegerAttr(area));
    }
    kernel->setAttr("tile.shared_bytes", b.getI64IntegerAttr(end));
    kernel->setAttr("tile.persistent_ctas", b.getI64IntegerAttr(ctas));
    kernel->setAttr("tile.persistent_panel", b.getI64IntegerAttr(panel));
    kernel->setAttr("tile.persistent_order", b.getStringAttr(order));
  }
};
} // namespace
