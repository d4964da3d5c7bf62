//===- LazySelect.h - Which ops T.if_then_else runs in a branch -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `T.if_then_else(cond, a, b)` evaluates only the operand it picks (TIR's
// if_then_else, unlike Select): `T.if_then_else(i >= d, buf[i - d], 0)`
// never reads `buf[-1]`. Tile IR computes both operands before the
// `arith.select`, and the printers emit every op as a statement of its
// own, so the load of the operand not picked would run (an out-of-bounds
// read). This analysis, shared by the CPU, CUDA and HIP printers, finds
// for each select the ops that compute one of its operands and nothing
// else, when a load is among them: the printer runs them in the branch of
// an if/else at the select that picks their operand.
//
// Only ops the printer calls movable are deferred, and only across movable
// ops and constants: a select whose operand ops stand before anything else
// (a store, a barrier, a call, a region) keeps its eager form, so moving a
// load never moves it past a write.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_TARGET_CPP_LAZYSELECT_H
#define TLC_TARGET_CPP_LAZYSELECT_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <utility>
#include <vector>

namespace tlc::target {

/// The selects of a kernel that run their operands' ops in their branches.
struct LazySelects {
  /// The deferred ops of each lazy select, per operand (true value, false
  /// value), in block order.
  llvm::DenseMap<mlir::Operation *, std::pair<std::vector<mlir::Operation *>,
                                              std::vector<mlir::Operation *>>>
      sides;
  /// Every deferred op (the printer skips it where it stands).
  llvm::DenseSet<mlir::Operation *> deferred;

  void clear() {
    sides.clear();
    deferred.clear();
  }

  /// Prints \p ops, deferred ops of one side of a select, through the
  /// printer's \p emitOp where the select's branch stands (each is deferred
  /// again after, so its own position stays skipped). Stops at the first
  /// failure.
  template <typename EmitOp>
  mlir::LogicalResult emitSide(llvm::ArrayRef<mlir::Operation *> ops,
                               EmitOp &&emitOp) {
    for (mlir::Operation *o : ops) {
      deferred.erase(o);
      mlir::LogicalResult r = emitOp(o);
      deferred.insert(o);
      if (mlir::failed(r))
        return r;
    }
    return mlir::success();
  }
};

/// Whether \p op may run later, in a select's branch, or stand between the
/// deferred ops and their select: a tile.load, or arith/math arithmetic of
/// one result (not a constant: constants are literals, skipped).
bool isLazySelectMovable(mlir::Operation *op);

/// The lazy selects of \p root (a tile.kernel). \p movable says which ops
/// may be deferred (isLazySelectMovable, or a printer's narrower rule: a
/// load whose emission is more than one pure statement must not move).
LazySelects collectLazySelects(
    mlir::Operation *root,
    llvm::function_ref<bool(mlir::Operation *)> movable = isLazySelectMovable);

} // namespace tlc::target

#endif // TLC_TARGET_CPP_LAZYSELECT_H
