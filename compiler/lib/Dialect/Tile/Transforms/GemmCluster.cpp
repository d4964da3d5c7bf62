//===- GemmCluster.cpp - The --tile-gemm-cluster pass ---------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Thread-block clusters of two for warp-specialised sm_90a GEMMs (Passes.td
// has the contract): two blocks that compute adjacent output tiles along
// one axis of the tile grid read the same operand tile (the same rows of A
// along x, the same columns of B along y); in a cluster each block's
// producer loads half of that tile and multicasts it to both, so the pair
// reads it from L2 once. The plan is attributes; the CUDA printer issues
// the multicast, the releases on both blocks' empty barriers, the cluster
// barriers and the pairs' block indices.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "StaticGrid.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/PassConfigs.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEGEMMCLUSTER
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// The blocks of a cluster (a pair: one multicast feeds two blocks).
static constexpr int64_t kClusterBlocks = 2;
/// Rows of a 128-, 64- or 32-byte swizzle pattern: a block's half of a
/// panel starts where the pattern starts over, at a multiple of them.
static constexpr int64_t kSwizzleRows = 8;

/// Whether \p v depends on the block argument \p index of \p kernel through
/// the ops of the kernel.
static bool dependsOn(KernelOp kernel, Value v, BlockArgument index) {
  SmallVector<Value> work{v};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Value cur = work.pop_back_val();
    if (cur == index)
      return true;
    Operation *def = cur.getDefiningOp();
    if (!def || !kernel->isProperAncestor(def) || !seen.insert(def).second)
      continue;
    for (Value o : def->getOperands())
      work.push_back(o);
  }
  return false;
}

namespace {
/// A TMA load of the warp-specialised loop and the facts the pass checks.
struct Operand {
  CopyOp copy;
  /// The box rows (the region's non-unit dimension before the last one)
  /// and its bytes.
  int64_t rows = 0, bytes = 0;
  /// Whether its coordinates depend on blockIdx x / y.
  bool usesX = false, usesY = false;
};

struct TileGemmClusterPass final
    : tlc::tile::impl::TileGemmClusterBase<TileGemmClusterPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    forEachSm90aKernel(module, target,
                       [&](KernelOp kernel) { planKernel(kernel, b); });
  }

  void planKernel(KernelOp kernel, Builder &b) {
    // Opt-in: `tlc.gemm_cluster=True` (or 2, the only size).
    std::optional<StringRef> config = getPassConfig(kernel, "tlc.gemm_cluster");
    if (!config ||
        (*config != "2" && !isPassConfigOn(kernel, "tlc.gemm_cluster")))
      return;
    if (!kernel->hasAttr("tile.ws_producer_threads") ||
        kernel->hasAttr("cluster_dims"))
      return;
    PipelinedOp pipe;
    kernel.walk([&](PipelinedOp p) {
      if (p->hasAttr("tile.ws_empty_barriers"))
        pipe = p;
    });
    if (!pipe || pipe->hasAttr("tile.ws_rings") ||
        pipe->hasAttr("tile.ws_overlap") ||
        pipe->getBlock() != &kernel.getBody().front())
      return;
    // A static 2-D grid of tiles.
    std::optional<SmallVector<int64_t>> staticGrid = getStaticGrid(kernel);
    if (!staticGrid)
      return;
    SmallVector<int64_t> grid = *staticGrid;
    auto indices = kernel.getBlockIndices();
    if (grid.size() != 2 || indices.size() != 2)
      return;
    // The loop's two TMA loads (A and B) and one gemm.
    SmallVector<Operand, 2> operands;
    int64_t gemms = 0;
    bool other = false;
    pipe.walk([&](Operation *op) {
      if (isa<GemmOp>(op))
        ++gemms;
      auto copy = dyn_cast<CopyOp>(op);
      if (!copy)
        return;
      if (!copy->hasAttr("tile.tma")) {
        other = true;
        return;
      }
      auto region = copy.getSrc().getDefiningOp<RegionOp>();
      auto box = cast<BufferType>(region.getType());
      Operand o;
      o.copy = copy;
      o.bytes = getElementStorageBytes(box.getElementType());
      for (unsigned d = 0; d < box.getRank(); ++d) {
        o.bytes *= box.getShape()[d];
        if (d + 1 < box.getRank() && box.getShape()[d] != 1)
          o.rows = box.getShape()[d];
      }
      for (Value v : region.getOffsets()) {
        o.usesX |= dependsOn(kernel, v, indices[0]);
        o.usesY |= dependsOn(kernel, v, indices[1]);
      }
      operands.push_back(o);
    });
    if (other || gemms != 1 || operands.size() != 2)
      return;
    // A persistent GEMM walks pairs of tiles: an even number of blocks.
    auto ctas = kernel->getAttrOfType<IntegerAttr>("tile.persistent_ctas");
    int64_t blocks = ctas ? ctas.getInt() / kClusterBlocks * kClusterBlocks : 0;
    if (ctas && blocks == 0)
      return;
    // The axis: the shared operand's coordinates do not use it, the other's
    // do, the tiles along it are even, the half box starts a swizzle
    // pattern; the larger shared tile saves more.
    int axis = -1;
    Operand *shared = nullptr;
    for (int a = 0; a < 2; ++a) {
      if (grid[a] % kClusterBlocks)
        continue;
      for (Operand &o : operands) {
        Operand &rest = &o == &operands[0] ? operands[1] : operands[0];
        bool uses = a == 0 ? o.usesX : o.usesY;
        bool restUses = a == 0 ? rest.usesX : rest.usesY;
        if (uses || !restUses || o.rows % (kClusterBlocks * kSwizzleRows))
          continue;
        if (!shared || o.bytes > shared->bytes) {
          shared = &o;
          axis = a;
        }
      }
    }
    if (!shared)
      return;
    shared->copy->setAttr("tile.tma_multicast",
                          b.getI64IntegerAttr(kClusterBlocks));
    kernel->setAttr("tile.gemm_cluster", b.getI64IntegerAttr(axis));
    // A persistent GEMM's blocks are one row (pairs along x); otherwise the
    // pairs lie along the axis of the tile grid.
    SmallVector<int64_t, 3> dims{1, 1, 1};
    dims[ctas ? 0 : axis] = kClusterBlocks;
    kernel->setAttr("cluster_dims", b.getDenseI64ArrayAttr(dims));
    if (ctas)
      kernel->setAttr("tile.persistent_ctas", b.getI64IntegerAttr(blocks));
  }
};
} // namespace
