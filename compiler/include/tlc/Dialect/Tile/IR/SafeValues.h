//===- SafeValues.h - T.annotate_safe_value's map --------------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a guarded read outside a global tensor gives: zero, or the value
// `T.annotate_safe_value({A: v})` registers for the tensor parameter A. The
// evaluator keeps the map as the `safe_value_map` option of the intrinsic,
// printed `{A: 10, B: 0.5}`; this is its one parser, used by
// tile-legalize-bounds (for the GPU printers) and the CPU target. So is
// `T.annotate_padding({buf: v})`'s map, which gives v to the out-of-range
// reads copied into buf.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_IR_SAFEVALUES_H
#define TLC_DIALECT_TILE_IR_SAFEVALUES_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

namespace tlc::tile {

class FuncOp;

/// The safe values the `T.annotate_safe_value` calls nested in \p scope (a
/// kernel) register, by tensor parameter of \p func. An entry whose value
/// is not a number, or whose name is not a tensor parameter of \p func, is
/// an error reported at the call (the same words on every target).
mlir::FailureOr<llvm::DenseMap<mlir::Value, double>>
collectSafeValues(mlir::Operation *scope, FuncOp func);

/// What out-of-range reads of global memory give when `T.annotate_padding(
/// {buf: v})` pads the buffer they are copied into, by reading operation:
/// a tile.copy into buf, or a tile.load whose value a tile.store into buf
/// stores (through the element arithmetic between them). The pad takes
/// the place of the tensor's safe value for those reads. A pad that is not
/// a number, or a name that is no allocation of \p scope (a kernel), is
/// an error at the call.
mlir::FailureOr<llvm::DenseMap<mlir::Operation *, double>>
collectPaddedReads(mlir::Operation *scope);

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_IR_SAFEVALUES_H
