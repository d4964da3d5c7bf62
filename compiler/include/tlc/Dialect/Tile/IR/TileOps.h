//===- TileOps.h - Tile dialect operations ----------------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The operations of the `tile` dialect (see TileOps.td, or the generated
// docs/Dialect/TileDialect.md, for each op's semantics and assembly).
//
// Building IR. Region ops (`tile.func`, `tile.kernel`, `tile.parallel`,
// `tile.pipelined`, `tile.for`, `tile.if`, `tile.while`) have single-block
// regions without terminators; their builders create the body block (with
// its `index` arguments), so a builder moves into `&op.getBody().front()`
// and appends. Give an op a `NameLoc` (wrapping its file location) to carry
// the Python name of what it defines; block arguments do not inherit the
// op's name. Cheat sheet (`b` an OpBuilder, `loc` a Location):
//
//   auto f = FuncOp::create(b, loc, "gemm", b.getFunctionType(params, {}),
//                           {SymbolDeclAttr::get(ctx, b.getStringAttr("M"),
//                                                SymbolKind::Dynamic)});
//   f.addEntryBlock(paramLocs);
//   Value m = SymbolOp::create(b, loc, "M");
//   auto k = KernelOp::create(b, loc, /*grid=*/{b.getIndexAttr(8), m},
//                             /*threads=*/{b.getIndexAttr(128)});
//   Value bx = k.getBlockIndices()[0];
//   Value tx = ThreadBindingOp::create(b, loc, /*dim=*/0);
//   Value s = AllocOp::create(b, loc, bufferType);          // any scope
//   Value v = AllocOp::create(b, loc, varType, initValue);  // local.var
//   Value r = RegionOp::create(b, loc, regionType, buffer,
//                              ArrayRef<OpFoldResult>{y, b.getIndexAttr(0)});
//   CopyOp::create(b, loc, src, dst);
//   GemmOp::create(b, loc, A, B, C);  // then setTransposeB(true), setPolicy()
//   FillOp::create(b, loc, dst, value);  ClearOp::create(b, loc, dst);
//   ReduceOp::create(b, loc, ReduceKind::Max, src, dst, /*dim=*/1,
//                    /*clear=*/true);
//   CumSumOp::create(b, loc, src, dst, /*dim=*/0, /*reverse=*/false);
//   AtomicAddOp::create(b, loc, dst, tileValue);                // tile form
//   AtomicAddOp::create(b, loc, dst, indices, scalar, /*returnPrev=*/false);
//   Value x = LoadOp::create(b, loc, buffer, indices);  // {} for local.var
//   StoreOp::create(b, loc, value, buffer, indices);
//   auto p = ParallelOp::create(b, loc, {b.getIndexAttr(128), n});
//   auto pl = PipelinedOp::create(b, loc, lb, ub, /*numStages=*/3);
//   auto fo = ForOp::create(b, loc, lb, ub, step, LoopKind::Unroll);
//   auto i = IfOp::create(b, loc, cond, /*withElse=*/true);  // thenBlock()
//   auto w = WhileOp::create(b, loc);  // getCond(): end with ConditionOp
//   SyncThreadsOp::create(b, loc);  PrintOp::create(b, loc, "msg", value);
//   DeviceAssertOp::create(b, loc, cond, "msg");
//   UseSwizzleOp::create(b, loc, /*panel=*/8, SwizzleOrder::Row, true);
//   AnnotateLayoutOp::create(b, loc, buffer, layoutAttr);
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
