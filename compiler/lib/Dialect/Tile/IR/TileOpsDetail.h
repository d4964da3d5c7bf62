//===- TileOpsDetail.h - Helpers shared by the Tile op files ----*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to the TLCTileDialect library: helpers used by TileOps.cpp and
// TileOpsControl.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_DIALECT_TILE_IR_TILEOPSDETAIL_H
#define TLC_LIB_DIALECT_TILE_IR_TILEOPSDETAIL_H

#include "tlc/Dialect/Tile/IR/TileOps.h"

namespace tlc {
namespace tile {

/// Parses a region without arguments; an empty `{}` gets one empty block so
/// that single-block regions round-trip (`custom<Body>` directive).
mlir::ParseResult parseBody(mlir::OpAsmParser &parser, mlir::Region &region);

/// Prints a region parsed by parseBody (`custom<Body>` directive).
void printBody(mlir::OpAsmPrinter &p, mlir::Operation *op,
               mlir::Region &region);

namespace detail {

/// True when \p text is an ASCII identifier usable as an SSA name hint.
bool isIdentifier(llvm::StringRef text);

/// \p loc without a NameLoc wrapper: block arguments created for an op take
/// its source location but not its name.
mlir::Location stripName(mlir::Location loc);

/// Creates a block with \p numArgs `index` arguments at the end of \p region,
/// located at \p loc (its name stripped).
mlir::Block *addIndexBlock(mlir::OpBuilder &builder, mlir::Region *region,
                           unsigned numArgs, mlir::Location loc);

} // namespace detail
} // namespace tile
} // namespace tlc

#endif // TLC_LIB_DIALECT_TILE_IR_TILEOPSDETAIL_H
