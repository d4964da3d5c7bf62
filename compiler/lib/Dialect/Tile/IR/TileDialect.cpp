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
