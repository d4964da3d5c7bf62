//===- StaticGrid.h - A kernel's grid when it is static ---------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What tile-persistent-gemm and tile-gemm-cluster ask first of a kernel:
// the extents of its grid, when each is a positive constant.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_STATICGRID_H
#define TLC_DIALECT_TILE_TRANSFORMS_STATICGRID_H

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <optional>

namespace tlc {
namespace tile {

/// The grid extents of \p kernel (x first), or std::nullopt when one of
/// them is not a positive constant.
inline std::optional<llvm::SmallVector<int64_t>>
getStaticGrid(KernelOp kernel) {
  llvm::SmallVector<int64_t> grid;
  for (mlir::OpFoldResult g : kernel.getMixedGrid()) {
    std::optional<int64_t> e = mlir::getConstantIntValue(g);
    if (!e || *e <= 0)
      return std::nullopt;
    grid.push_back(*e);
  }
  return grid;
}

} // namespace tile
} // namespace tlc

#endif // TLC_DIALECT_TILE_TRANSFORMS_STATICGRID_H
