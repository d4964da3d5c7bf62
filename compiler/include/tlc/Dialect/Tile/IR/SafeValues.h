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
// tile-legalize-bounds (for the GPU printers) and the CPU target.
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
/// an error reported at the call (the same words on every target). A
/// `T.annotate_padding` in \p scope with a pad value other than 0 is also
/// an error at its call: the targets' guarded copies read 0 out of range.
mlir::FailureOr<llvm::DenseMap<mlir::Value, double>>
collectSafeValues(mlir::Operation *scope, FuncOp func);

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_IR_SAFEVALUES_H
