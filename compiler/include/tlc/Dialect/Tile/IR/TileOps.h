//===- TileOps.h - Tile dialect operations ----------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The operations of the `tile` dialect (see TileOps.td for each op's
// semantics and assembly). Building IR: region ops (`tile.kernel`,
// `tile.parallel`, `tile.pipelined`, `tile.for`, `tile.if`, `tile.while`,
// `tile.func`) have single-block regions without terminators; their
// builders create the body block (with its index arguments), so a builder
// sets its insertion point with `setInsertionPointToEnd(&op.getBody().front())`
// and appends.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_IR_TILEOPS_H
#define TLC_DIALECT_TILE_IR_TILEOPS_H

#include "tlc/Dialect/Tile/IR/TileDialect.h"
#include "tlc/Dialect/Tile/IR/TileTypes.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#define GET_OP_CLASSES
#include "tlc/Dialect/Tile/IR/TileOps.h.inc"

namespace tlc {
namespace tile {

/// The buffer type of \p value, or null when it is not a buffer. Buffer
/// operands and results of tile ops are typed `mlir::Value` in C++; use this
/// to read their BufferType.
inline BufferType getBufferType(mlir::Value value) {
  return llvm::dyn_cast<BufferType>(value.getType());
}

/// The innermost enclosing `tile.kernel` of \p op, or null.
KernelOp getEnclosingKernel(mlir::Operation *op);

/// The enclosing `tile.func` of \p op, or null.
FuncOp getEnclosingFunc(mlir::Operation *op);

} // namespace tile
} // namespace tlc

#endif // TLC_DIALECT_TILE_IR_TILEOPS_H
