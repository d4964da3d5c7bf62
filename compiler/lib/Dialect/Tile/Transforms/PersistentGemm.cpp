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
// With `tlc.persistent_attention=True` (off by default until measured) a
// warp-specialised attention kernel (K and V rings, a grid of query blocks
// x heads x batches) is made persistent the same way, its tiles walked in
// groups of (head, batch) pairs whose K and V fit in half the L2, each
// group from its last query block down (under a causal mask the longest
// rows first, so that the short ones fill the tail).
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "Sm90Limits.h"
#include "StaticGrid.h"

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
/// Tiles a multiprocessor from which a persistent GEMM's epilogue is a TMA
/// store with its panels' read left in flight when no pass config says
/// otherwise. perf35's H100 run (docs/perf/hopper-perf35-h100/gemm.log,
/// 128 x 256 and 128 x 128 tiles, 16 shapes each): 8192x8192x1024
/// (15.5 tiles a multiprocessor at 128 x 256) 0.73-0.89 -> 0.92-0.95 of
/// cuBLAS, 8192^3 and 16384x16384x4096 (15.5, 62) 1.00 -> 1.03 geomean,
/// 4096^3 (3.9) 0.96 -> 0.92: the store pays where the epilogue repeats
/// many times a block, and loses where the grid is four waves (the
/// "before" there is 128 x 256 at 4 stages, not persistent: perf37's
/// staged call times the store alone, docs/perf/hopper.md).
static constexpr int64_t kTmaStoreTilesPerSm = 8;

/// Bytes of L2 the K and V rows of one group of (head, batch) tiles of a
/// persistent attention kernel may take: half the 50 MiB of an H100 / H200.
static constexpr int64_t kAttentionL2Budget = 25ll << 20;

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

/// Gives the epilogue \p epilogue of a persistent kernel its own staging
/// area at byte \p area; a TMA-stored epilogue's panels move there too (the
/// dead stages it used in a one-tile kernel are being refilled).
static void setEpilogueArea(CopyOp epilogue, int64_t area, Builder &b) {
  epilogue->setAttr("tile.epilogue_area", b.getI64IntegerAttr(area));
  if (epilogue->hasAttr("tile.tma_store"))
    epilogue->setAttr("tile.tma_store_offset", b.getI64IntegerAttr(area));
}

/// Whether \p kernel names clusters of more than one block itself
/// (`cluster_dims`; tile-gemm-cluster, which runs later, sets its own).
static bool hasProgramCluster(KernelOp kernel) {
  auto dims = kernel->getAttrOfType<DenseI64ArrayAttr>("cluster_dims");
  if (!dims)
    return false;
  int64_t blocks = 1;
  for (int64_t d : dims.asArrayRef())
    blocks *= d;
  return blocks > 1;
}

namespace {
struct TilePersistentGemmPass final
    : tlc::tile::impl::TilePersistentGemmBase<TilePersistentGemmPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    forEachSm90aKernel(module, target, [&](KernelOp kernel) {
      planKernel(kernel, b);
      settleDefaultTmaStore(kernel);
    });
  }

  /// tile-plan-tma's default TMA store (`tile.tma_store_default`) stays in
  /// a persistent GEMM with at least kTmaStoreTilesPerSm tiles a
  /// multiprocessor; elsewhere the threads store the tile again (its map
  /// is the kernel's last, so no gap is left in the numbering).
  void settleDefaultTmaStore(KernelOp kernel) {
    int64_t tiles = 0;
    if (std::optional<SmallVector<int64_t>> grid = getStaticGrid(kernel)) {
      tiles = 1;
      for (int64_t e : *grid)
        tiles *= e;
    }
    // A persistent GEMM (attention's order is longest_first).
    auto order = kernel->getAttrOfType<StringAttr>("tile.persistent_order");
    bool keep = order && order.getValue() != "longest_first" &&
                tiles >= kTmaStoreTilesPerSm * smsOf(kernel);
    kernel.walk([&](CopyOp copy) {
      if (!copy->hasAttr("tile.tma_store_default"))
        return;
      copy->removeAttr("tile.tma_store_default");
      if (keep)
        return;
      copy->removeAttr("tile.tma_store");
      copy->removeAttr("tile.tma_store_offset");
      kernel->removeAttr("tile.tma_store_async");
    });
  }

  void planKernel(KernelOp kernel, Builder &b) {
    std::optional<StringRef> config = getPassConfig(kernel, "tlc.persistent");
    bool wanted = config ? isPassConfigOn(kernel, "tlc.persistent")
                         : kPersistentByDefault;
    auto planned = kernel->getAttrOfType<IntegerAttr>("tile.shared_bytes");
    if (!wanted || !planned || !kernel->hasAttr("tile.ws_producer_threads"))
      return;
    // The program's own clusters tile the grid it wrote, which a persistent
    // launch (one row of blocks) does not keep: such a kernel is made
    // persistent only when `tlc.persistent=True` asks (and the CUDA printer
    // then says why it cannot be).
    if (!config && hasProgramCluster(kernel))
      return;
    // The warp-specialised loop: one ring, one gemm with a group in flight.
    PipelinedOp pipe;
    kernel.walk([&](PipelinedOp p) {
      if (p->hasAttr("tile.ws_empty_barriers"))
        pipe = p;
    });
    if (pipe && pipe->hasAttr("tile.ws_rings") &&
        pipe->getBlock() == &kernel.getBody().front()) {
      if (isPassConfigOn(kernel, "tlc.persistent_attention"))
        planAttention(kernel, pipe, b);
      return;
    }
    if (!pipe || pipe->getBlock() != &kernel.getBody().front())
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
    std::optional<SmallVector<int64_t>> staticGrid = getStaticGrid(kernel);
    if (!staticGrid)
      return;
    SmallVector<int64_t> grid = *staticGrid;
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
    bool direct = false;
    if (epilogue) {
      area = (end + 1023) / 1024 * 1024;
      end = area + epilogueBytes(epilogue);
      // No room for the area (128 x 256 at 4 stages): a kernel that
      // `tlc.persistent=True` asks for stores its tile from the registers
      // (the stages may not be reused: the producer is refilling them).
      if (end > kSm90SharedLimit) {
        if (!config)
          return;
        direct = true;
        area = -1;
        end = planned.getInt();
      }
    }
    if (blocksPerSm > 1 &&
        blocksPerSm * (end + kSm90ReservedShared) > kSm90SharedPerSm)
      blocksPerSm = 1;
    int64_t ctas = smsOf(kernel) * blocksPerSm;
    if (tiles <= ctas)
      return;
    // The epilogue's area leaves room for one block: say so, as later
    // passes (tile-gemm-pingpong divides the blocks by it) and the
    // printer's __launch_bounds__ read it.
    if (perSm && perSm.getInt() != blocksPerSm)
      kernel->setAttr("tile.ws_blocks_per_sm",
                      b.getI64IntegerAttr(blocksPerSm));
    // Rasterisation: the program's T.use_swizzle, else panels of 8 rows.
    int64_t panel = grid.size() == 2 ? kDefaultPanel : 0;
    StringRef order = "row";
    kernel.walk([&](UseSwizzleOp u) {
      if (!u.getEnable() || grid.size() != 2)
        return;
      panel = u.getPanelSize();
      order = u.getOrder() == SwizzleOrder::Row ? "row" : "column";
    });
    if (epilogue && direct) {
      epilogue->setAttr("tile.epilogue_direct", b.getUnitAttr());
      // A TMA-store candidate keeps its map's index for
      // tile-gemm-epilogue-bands, which may store the tile band by band
      // through it (its box is one 128-byte panel either way).
      if (auto map = epilogue->getAttrOfType<IntegerAttr>("tile.tma_store"))
        epilogue->setAttr("tile.epilogue_tma_map", map);
      epilogue->removeAttr("tile.tma_store");
      epilogue->removeAttr("tile.tma_store_offset");
      epilogue->removeAttr("tile.tma_store_default");
    } else if (epilogue) {
      setEpilogueArea(epilogue, area, b);
      // The panels' read stays in flight until the next tile's epilogue
      // (no config: as fast or faster than waiting at once, perf35's run).
      std::optional<StringRef> async =
          getPassConfig(kernel, "tlc.tma_store_async");
      if (epilogue->hasAttr("tile.tma_store") &&
          (!async || isPassConfigOn(kernel, "tlc.tma_store_async")))
        kernel->setAttr("tile.tma_store_async", b.getUnitAttr());
    }
    kernel->setAttr("tile.shared_bytes", b.getI64IntegerAttr(end));
    kernel->setAttr("tile.persistent_ctas", b.getI64IntegerAttr(ctas));
    kernel->setAttr("tile.persistent_panel", b.getI64IntegerAttr(panel));
    kernel->setAttr("tile.persistent_order", b.getStringAttr(order));
  }

  /// The multiprocessors the grid is sized for: `tlc.num_sms=N` names
  /// another device (and lets tests give each block several tiles of a
  /// small problem).
  int64_t smsOf(KernelOp kernel) {
    if (std::optional<StringRef> n = getPassConfig(kernel, "tlc.num_sms")) {
      int64_t v;
      if (!n->getAsInteger(10, v) && v > 0)
        return v;
    }
    return numSms;
  }

  /// A warp-specialised attention kernel (two gemms over the K and V
  /// rings, the output tile stored last) over a static grid of query blocks
  /// (x), heads (y) and batches (z): one block a multiprocessor walks the
  /// tiles in groups of `group` (head, batch) pairs, each group's query
  /// blocks from the last down with the pairs fastest. The consumers load
  /// Q themselves, so only the stages are the producer's; the epilogue
  /// stages O in an area of its own (the stages are being refilled for the
  /// next tile).
  void planAttention(KernelOp kernel, PipelinedOp pipe, Builder &b) {
    std::optional<SmallVector<int64_t>> staticGrid = getStaticGrid(kernel);
    if (!staticGrid)
      return;
    SmallVector<int64_t> grid = *staticGrid;
    while (grid.size() < 3)
      grid.push_back(1);
    if (grid.size() != 3)
      return;
    int64_t gemms = 0;
    pipe.walk([&](GemmOp) { ++gemms; });
    Block &body = kernel.getBody().front();
    CopyOp epilogue = epilogueOf(body);
    auto planned = kernel->getAttrOfType<IntegerAttr>("tile.shared_bytes");
    if (gemms != 2 || !epilogue || !planned)
      return;
    int64_t area = (planned.getInt() + 1023) / 1024 * 1024;
    int64_t end = area + epilogueBytes(epilogue);
    if (end > kSm90SharedLimit)
      return;
    int64_t pairs = grid[1] * grid[2], tiles = grid[0] * pairs;
    int64_t ctas = smsOf(kernel);
    if (tiles <= ctas)
      return;
    // K and V bytes of one (head, batch): the stages' bytes an iteration
    // times the longest row's iterations (the loop bound when static, else
    // the query blocks' rows over the key block's).
    int64_t perIteration = 0, keyRows = 0;
    pipe.walk([&](CopyOp c) {
      if (!c->hasAttr("tile.prefetch"))
        return;
      auto t = cast<BufferType>(c.getDst().getType());
      if (!t.isStatic())
        return;
      int64_t n = getElementStorageBytes(t.getElementType());
      for (int64_t e : t.getShape())
        n *= e;
      perIteration += n;
      keyRows = t.getShape()[0];
    });
    int64_t rows = cast<BufferType>(epilogue.getSrc().getType()).getShape()[0];
    int64_t trips = keyRows ? (grid[0] * rows + keyRows - 1) / keyRows : 1;
    if (std::optional<int64_t> ub = getConstantIntValue(pipe.getUpperBound()))
      trips = *ub;
    int64_t perPair = std::max<int64_t>(1, perIteration * trips);
    int64_t want = std::max<int64_t>(1, kAttentionL2Budget / perPair);
    if (std::optional<StringRef> g =
            getPassConfig(kernel, "tlc.persistent_group")) {
      int64_t v;
      if (!g->getAsInteger(10, v) && v > 0)
        want = v;
    }
    // The largest divisor of the pairs up to that: every group is whole.
    int64_t group = 1;
    for (int64_t d = std::min(want, pairs); d >= 1; --d)
      if (pairs % d == 0) {
        group = d;
        break;
      }
    setEpilogueArea(epilogue, area, b);
    if (epilogue->hasAttr("tile.tma_store") &&
        isPassConfigOn(kernel, "tlc.tma_store_async"))
      kernel->setAttr("tile.tma_store_async", b.getUnitAttr());
    kernel->setAttr("tile.shared_bytes", b.getI64IntegerAttr(end));
    kernel->setAttr("tile.persistent_ctas", b.getI64IntegerAttr(ctas));
    kernel->setAttr("tile.persistent_panel", b.getI64IntegerAttr(group));
    kernel->setAttr("tile.persistent_order", b.getStringAttr("longest_first"));
    // Q is loaded again for every tile: the consumers' threads do it (a
    // one-shot TMA load of tile-plan-tma would need a ring of its own).
    // Its map is the last one: no gap is left in the numbering.
    for (Operation &op : body)
      if (op.hasAttr("tile.tma_once")) {
        op.removeAttr("tile.tma_once");
        op.removeAttr("tile.tma");
      }
  }
};
} // namespace
