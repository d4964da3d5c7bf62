//===- DescriptorRegions.h - Where a gemm operand region starts -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// tile-plan-wgmma and tile-plan-tcgen05 read a gemm operand that is a region
// of a larger shared tile (a pipeline stage `A[s, :, :]`, a K split
// `A[:, 64:128]`) through the allocation's descriptors, started at the
// region's first element. Both need where that element lies in the last two
// dimensions of the allocation; this header computes it once for both.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_DESCRIPTORREGIONS_H
#define TLC_DIALECT_TILE_TRANSFORMS_DESCRIPTORREGIONS_H

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace tlc::tile {

/// The (row, column) at which \p v, a chain of `tile.region` ops over
/// \p root, starts in the last two dimensions of \p root: the sum of the
/// chain's offsets there. Nothing where a region of the chain changes the
/// rank (its offsets then name other dimensions) or, with \p why set to the
/// reason, where an offset in those dimensions is not a constant.
inline std::optional<std::pair<int64_t, int64_t>>
getRegionMatrixStart(mlir::Value v, mlir::Value root, std::string *why) {
  int64_t rank = mlir::cast<BufferType>(root.getType()).getRank();
  int64_t r0 = 0, c0 = 0;
  for (mlir::Value cur = v; cur != root;) {
    auto region = cur.getDefiningOp<RegionOp>();
    if (!region)
      return std::nullopt;
    cur = region.getSource();
    if (mlir::cast<BufferType>(cur.getType()).getRank() != rank)
      return std::nullopt;
    llvm::SmallVector<mlir::OpFoldResult> offsets = region.getMixedOffsets();
    for (int64_t d : {rank - 2, rank - 1}) {
      std::optional<int64_t> c = mlir::getConstantIntValue(offsets[d]);
      if (!c) {
        if (why)
          *why = "the region's offset in the last two dimensions is not a "
                 "constant";
        return std::nullopt;
      }
      (d == rank - 2 ? r0 : c0) += *c;
    }
  }
  return std::make_pair(r0, c0);
}

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_TRANSFORMS_DESCRIPTORREGIONS_H
