//===- GemmWideN.cpp - The --tile-gemm-wide-n pass ------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Gives the one gemm of an sm_90a GEMM kernel of the Square warp policy
// (TileLang's default) the FullRow partition where it makes each consumer
// warpgroup's wgmma as wide as the accumulator (Passes.td has the contract):
// the default Square partition of a 128 x 256 accumulator over two warpgroups
// splits N (each warpgroup two m64n128 wgmmas reading the same B columns),
// FullRow splits M (one m64n256 wgmma each), which reads 20 instead of 24
// KiB of shared operands per MFLOP (docs/perf/hopper.md, perf39).
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "Sm90Limits.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/PassConfigs.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/Transforms/LayoutInference.h"
#include "tlc/Layout/GemmLayouts.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEGEMMWIDEN
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// The widest N of one wgmma.
static constexpr int64_t kWgmmaMaxN = 256;

/// The last two extents of \p v's buffer when the others are 1 and all are
/// static.
static std::optional<std::pair<int64_t, int64_t>> matrixOf(Value v) {
  auto t = dyn_cast<BufferType>(v.getType());
  if (!t || !t.isStatic() || t.getRank() < 2)
    return std::nullopt;
  ArrayRef<int64_t> s = t.getShape();
  for (int64_t e : s.drop_back(2))
    if (e != 1)
      return std::nullopt;
  return std::make_pair(s.end()[-2], s.back());
}

/// The wgmma warp partition \p policy gives \p gemm over \p threads
/// threads, or std::nullopt when the layout library finds none.
static std::optional<layout::WarpPartition>
partitionOf(GemmOp gemm, layout::WarpPolicy policy, int64_t threads) {
  std::optional<std::pair<int64_t, int64_t>> a = matrixOf(gemm.getA());
  std::optional<std::pair<int64_t, int64_t>> c = matrixOf(gemm.getC());
  if (!a || !c)
    return std::nullopt;
  layout::GemmConfig cfg;
  cfg.arch = layout::GemmArch::SM90;
  cfg.transA = gemm.getTransposeA();
  cfg.transB = gemm.getTransposeB();
  cfg.m = c->first;
  cfg.n = c->second;
  cfg.k = cfg.transA ? a->first : a->second;
  Type ab = cast<BufferType>(gemm.getA().getType()).getElementType();
  cfg.abBits = getElementStorageBytes(ab) * 8;
  cfg.accBits = 32;
  cfg.threads = threads;
  cfg.policy = policy;
  if (layout::selectGemmInstr(cfg) != layout::GemmInstr::WGMMA)
    return std::nullopt;
  llvm::Expected<layout::WarpPartition> p = layout::gemmWarpPartition(cfg);
  if (!p) {
    llvm::consumeError(p.takeError());
    return std::nullopt;
  }
  return *p;
}

namespace {
struct TileGemmWideNPass final
    : tlc::tile::impl::TileGemmWideNBase<TileGemmWideNPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    forEachSm90aKernel(module, target,
                       [&](KernelOp kernel) { planKernel(kernel); });
  }

  void planKernel(KernelOp kernel) {
    std::optional<StringRef> config = getPassConfig(kernel, "tlc.gemm_wide_n");
    if (config && !isPassConfigOn(kernel, "tlc.gemm_wide_n"))
      return;
    std::optional<int64_t> threads = kernel.getStaticNumThreads();
    if (!threads || isPassConfigOn(kernel, "tl.disable_wgmma"))
      return;
    // A GEMM kernel: one gemm, its accumulator a fragment of f32, both
    // operands in shared memory (attention's P.V reads A from registers
    // and keeps the layouts its softmax was written for).
    SmallVector<GemmOp> gemms;
    kernel.walk([&](GemmOp g) { gemms.push_back(g); });
    if (gemms.size() != 1)
      return;
    GemmOp gemm = gemms.front();
    // Square, TileLang's default (the IR does not record whether the
    // program named it): FullRow and FullCol are the program's.
    if (gemm.getPolicy() != GemmWarpPolicy::Square)
      return;
    auto c = cast<BufferType>(gemm.getC().getType());
    if (c.getScope() != MemoryScope::Fragment || !c.getElementType().isF32() ||
        !isSharedScope(getScopeOf(gemm.getA())) ||
        !isSharedScope(getScopeOf(gemm.getB())))
      return;
    std::optional<ThreadRange> r = threadRangeOf(gemm, *threads);
    if (!r || r->count() <= 0 || r->count() % kWarpgroupThreads)
      return;
    int64_t groups = r->count() / kWarpgroupThreads;
    if (groups < 2)
      return; // one warpgroup already owns every column
    std::optional<layout::WarpPartition> square =
        partitionOf(gemm, layout::WarpPolicy::Square, r->count());
    std::optional<layout::WarpPartition> fullRow =
        partitionOf(gemm, layout::WarpPolicy::FullRow, r->count());
    std::optional<std::pair<int64_t, int64_t>> mn = matrixOf(gemm.getC());
    if (!square || !fullRow || !mn || square->warpCols == 1)
      return; // Square keeps each warpgroup's columns whole already
    // FullRow: every warpgroup one band of 64 rows (a multiple of them)
    // and all N columns in one wgmma.
    if (fullRow->warpCols != 1 || mn->second > kWgmmaMaxN ||
        mn->first % (groups * 64) != 0)
      return;
    gemm->setAttr("policy", GemmWarpPolicyAttr::get(kernel.getContext(),
                                                    GemmWarpPolicy::FullRow));
    gemm->setAttr("tile.wide_n", UnitAttr::get(kernel.getContext()));
  }
};
} // namespace
