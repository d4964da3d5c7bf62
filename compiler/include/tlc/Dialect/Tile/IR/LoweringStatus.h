//===- LoweringStatus.h - Functions no back end may build -------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A `tile.func` that cannot be lowered — a lowering pass reported why, or
// the evaluator built IR the dialect rejects — carries the unit attribute
// `tile.lowering_failed`. The reason is already diagnosed; layout
// inference and every back end skip the function, and the other functions
// of the module go on.
//
// checkBuildable() is the first step of building for any target: it marks
// the functions that hold what no target can generate — values and calls
// from outside TileLang that the evaluator could only keep as
// `tlc.unknown_value` / `tlc.unmodelled_call` intrinsics — and the forms
// the evaluator found valid but no lowering follows yet (`tlc.unbuildable`,
// its `what` the reason) — with an error at each.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_IR_LOWERINGSTATUS_H
#define TLC_DIALECT_TILE_IR_LOWERINGSTATUS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"

namespace tlc::tile {

/// Whether \p func is marked as impossible to lower.
inline bool hasLoweringFailed(mlir::Operation *func) {
  return func->hasAttr("tile.lowering_failed");
}

/// Marks \p func as impossible to lower (after diagnosing why).
inline void markLoweringFailed(mlir::Operation *func) {
  func->setAttr("tile.lowering_failed",
                mlir::UnitAttr::get(func->getContext()));
}

/// Marks \p module as planned by the lowering pass whose marker is \p marker
/// (a unit attribute such as `tile.vectors_planned`): the printers then read
/// that pass's attributes instead of taking its decision themselves, and an
/// op without them means what the pass records by leaving them out.
inline void markModulePlanned(mlir::ModuleOp module, llvm::StringRef marker) {
  module->setAttr(marker, mlir::UnitAttr::get(module.getContext()));
}

/// Whether the module of \p op (or \p op itself, a module) carries the
/// marker \p marker of markModulePlanned.
inline bool isModulePlanned(mlir::Operation *op, llvm::StringRef marker) {
  auto module = llvm::isa<mlir::ModuleOp>(op)
                    ? llvm::cast<mlir::ModuleOp>(op)
                    : op->getParentOfType<mlir::ModuleOp>();
  return module && module->hasAttr(marker);
}

/// Reports, with an error at each, the operations of \p module that no
/// target can build, and marks their functions as impossible to lower.
/// Fails when it reported any.
mlir::LogicalResult checkBuildable(mlir::ModuleOp module);

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_IR_LOWERINGSTATUS_H
