//===- TileDialect.h - Tile dialect -----------------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `tile` dialect class, its enumerations and attributes. Include
// TileTypes.h for the buffer type and TileOps.h for the operations (both
// include this header).
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_IR_TILEDIALECT_H
#define TLC_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"

#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/Layout.h"

#include "tlc/Dialect/Tile/IR/TileDialect.h.inc"

#include "tlc/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tlc/Dialect/Tile/IR/TileAttrs.h.inc"

namespace tlc::tile {
/// The source position of an op: the first file location inside \p loc,
/// looking through name, call-site and fused locations (the evaluator gives
/// buffers a NameLoc around their FileLineColRange). Null when there is none.
mlir::FileLineColRange getSourceLocation(mlir::Location loc);
} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_IR_TILEDIALECT_H
