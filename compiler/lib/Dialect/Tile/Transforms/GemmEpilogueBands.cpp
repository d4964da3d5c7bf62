//===- GemmEpilogueBands.cpp - The --tile-gemm-epilogue-bands pass --------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A persistent sm_90a GEMM whose epilogue stores its tile from the
// registers (tile-persistent-gemm's `tile.epilogue_direct`: no room for a
// staging area of the whole tile next to the ring) is given an area of one
// column band, and the printer stages the tile through it band by band
// (Passes.td has the contract). perf38 measured the register store at
// 0.90 of cuBLAS at 4096^3 against 0.96 for the same ring one tile a
// block: a warp's 4-byte stores there touch 8 separate 128-byte lines, so
// a 128 x 256 tile is ~4,100 LSU cycles that the consumers issue before
// the next tile's wgmmas (docs/perf/hopper.md, perf39); a band of 64
// columns stored in 16-byte vectors is whole lines.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "Sm90Limits.h"

#include "tlc/Dialect/Tile/IR/BufferEffects.h"
#include "tlc/Dialect/Tile/IR/PassConfigs.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILEGEMMEPILOGUEBANDS
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// The most bands the pass splits a tile into (a band of 256 columns / 8 =
/// 32 halves is a 64-byte row, half a line).
static constexpr int64_t kMaxBands = 8;

/// The bytes of one band of \p bands of \p copy's tile as the CUDA
/// printer's staged store lays it out (rows x (band columns + 16 bytes of
/// pad)), or nullopt where the band's columns are not whole 16-byte
/// vectors.
static std::optional<int64_t> bandBytes(CopyOp copy, int64_t bands) {
  auto frag = cast<BufferType>(copy.getSrc().getType());
  int64_t elem = getElementStorageBytes(
      cast<BufferType>(copy.getDst().getType()).getElementType());
  if (!elem || elem > 16 || 16 % elem)
    return std::nullopt;
  SmallVector<int64_t> shape;
  for (int64_t e : frag.getShape())
    if (e != 1)
      shape.push_back(e);
  if (shape.size() != 2)
    return std::nullopt;
  int64_t chunk = 16 / elem;
  if (shape[1] % bands || (shape[1] / bands) % chunk)
    return std::nullopt;
  return shape[0] * (shape[1] / bands + chunk) * elem;
}

namespace {
struct TileGemmEpilogueBandsPass final
    : tlc::tile::impl::TileGemmEpilogueBandsBase<TileGemmEpilogueBandsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    forEachSm90aKernel(module, target,
                       [&](KernelOp kernel) { planKernel(kernel, b); });
  }

  void planKernel(KernelOp kernel, Builder &b) {
    std::optional<StringRef> config =
        getPassConfig(kernel, "tlc.gemm_epilogue_bands");
    // False / 0: the register store; N >= 2: that many bands; else (True,
    // 1, no config) the fewest that fit.
    if (config && !isPassConfigOn(kernel, "tlc.gemm_epilogue_bands"))
      return;
    int64_t asked = 0;
    if (config && (config->getAsInteger(10, asked) || asked < 2))
      asked = 0;
    auto planned = kernel->getAttrOfType<IntegerAttr>("tile.shared_bytes");
    if (!planned || !kernel->hasAttr("tile.persistent_ctas"))
      return;
    CopyOp epilogue;
    kernel.walk([&](CopyOp c) {
      if (c->hasAttr("tile.epilogue_direct"))
        epilogue = c;
    });
    if (!epilogue)
      return;
    int64_t area = (planned.getInt() + 1023) / 1024 * 1024;
    for (int64_t bands = 2; bands <= kMaxBands; bands *= 2) {
      if (asked && bands != asked)
        continue;
      std::optional<int64_t> bytes = bandBytes(epilogue, bands);
      if (!bytes || area + *bytes > kSm90SharedLimit)
        continue;
      epilogue->removeAttr("tile.epilogue_direct");
      epilogue->setAttr("tile.epilogue_area", b.getI64IntegerAttr(area));
      epilogue->setAttr("tile.epilogue_bands", b.getI64IntegerAttr(bands));
      kernel->setAttr("tile.shared_bytes", b.getI64IntegerAttr(area + *bytes));
      return;
    }
  }
};
} // namespace
