//===- TileDialect.cpp - Tile dialect registration ------------------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/TileDialect.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Dialect/Tile/IR/TileTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tlc::tile;

#include "tlc/Dialect/Tile/IR/TileDialect.cpp.inc"

#include "tlc/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tlc/Dialect/Tile/IR/TileAttrs.cpp.inc"

void TileDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tlc/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tlc/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}

mlir::FileLineColRange tlc::tile::getSourceLocation(mlir::Location loc) {
  if (auto r = llvm::dyn_cast<mlir::FileLineColRange>(loc))
    return r;
  if (auto n = llvm::dyn_cast<mlir::NameLoc>(loc))
    return getSourceLocation(n.getChildLoc());
  if (auto c = llvm::dyn_cast<mlir::CallSiteLoc>(loc))
    return getSourceLocation(c.getCallee());
  if (auto f = llvm::dyn_cast<mlir::FusedLoc>(loc))
    for (mlir::Location inner : f.getLocations())
      if (mlir::FileLineColRange r = getSourceLocation(inner))
        return r;
  return {};
}
