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
// Where the epilogue was a TMA-store candidate (tile-persistent-gemm keeps
// its map as `tile.epilogue_tma_map`) each band is instead staged as
// 128-byte swizzled panels and stored by the copy engine through that map
// (its box is one panel: the band is whole boxes), one bulk group a band,
// in two band buffers where they fit: the threads stage the next band, and
// the consumers start the next tile, while the copy engine reads the last
// (perf41; `tlc.gemm_epilogue_tma_store=False` keeps the threads' stores).
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

/// The inner extent of a TMA store's box: one panel of the 128-byte
/// swizzle.
static constexpr int64_t kTmaStorePanelBytes = 128;

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

/// The bytes of one band of \p bands of \p copy's tile as the TMA store
/// stages it: whole 128-byte swizzled panels (rows x 128 bytes each, no
/// pad), each a whole number of the swizzle's 1024-byte atoms; nullopt
/// where the band is not whole panels.
static std::optional<int64_t> tmaBandBytes(CopyOp copy, int64_t bands) {
  auto frag = cast<BufferType>(copy.getSrc().getType());
  int64_t elem = getElementStorageBytes(
      cast<BufferType>(copy.getDst().getType()).getElementType());
  if (!elem || elem > 16 || 16 % elem)
    return std::nullopt;
  SmallVector<int64_t> shape;
  for (int64_t e : frag.getShape())
    if (e != 1)
      shape.push_back(e);
  if (shape.size() != 2 || shape[1] % bands || shape[0] % 8)
    return std::nullopt;
  int64_t bandBytes = shape[1] / bands * elem;
  if (bandBytes % kTmaStorePanelBytes)
    return std::nullopt;
  return shape[0] * bandBytes;
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
    CopyOp epilogue;
    kernel.walk([&](CopyOp c) {
      if (c->hasAttr("tile.epilogue_direct"))
        epilogue = c;
    });
    if (!epilogue)
      return;
    // tile-persistent-gemm's note of the map the epilogue had; it becomes
    // the banded store's below or goes.
    auto map = epilogue->getAttrOfType<IntegerAttr>("tile.epilogue_tma_map");
    epilogue->removeAttr("tile.epilogue_tma_map");
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
    int64_t area = (planned.getInt() + 1023) / 1024 * 1024;
    // The banded TMA store: two band buffers where they fit (a band's read
    // overlaps the next band's staging), else one; the fewest bands first.
    std::optional<StringRef> tmaConfig =
        getPassConfig(kernel, "tlc.gemm_epilogue_tma_store");
    if (map &&
        (!tmaConfig || isPassConfigOn(kernel, "tlc.gemm_epilogue_tma_store"))) {
      for (int64_t buffers : {2, 1})
        for (int64_t bands = 2; bands <= kMaxBands; bands *= 2) {
          if (asked && bands != asked)
            continue;
          std::optional<int64_t> band = tmaBandBytes(epilogue, bands);
          if (!band)
            continue;
          // Room for the threads' padded band too: the printer falls back
          // to it where the fragment's layout does not fit the panels.
          int64_t bytes =
              std::max(buffers * *band, bandBytes(epilogue, bands).value_or(0));
          if (area + bytes > kSm90SharedLimit)
            continue;
          epilogue->removeAttr("tile.epilogue_direct");
          epilogue->setAttr("tile.epilogue_area", b.getI64IntegerAttr(area));
          epilogue->setAttr("tile.epilogue_bands", b.getI64IntegerAttr(bands));
          epilogue->setAttr("tile.epilogue_band_buffers",
                            b.getI64IntegerAttr(buffers));
          epilogue->setAttr("tile.tma_store", map);
          epilogue->setAttr("tile.tma_store_offset", b.getI64IntegerAttr(area));
          // The last band's read stays in flight into the next tile, as
          // tile-persistent-gemm's whole-tile TMA store does by default.
          std::optional<StringRef> async =
              getPassConfig(kernel, "tlc.tma_store_async");
          if (!async || isPassConfigOn(kernel, "tlc.tma_store_async"))
            kernel->setAttr("tile.tma_store_async", b.getUnitAttr());
          kernel->setAttr("tile.shared_bytes",
                          b.getI64IntegerAttr(area + bytes));
          return;
        }
    }
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
