//===- IndexIntervals.h - Static intervals of index values ------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A small forward analysis over the `index` values of a kernel: from
// constants, block indices (the grid), thread bindings and loop bounds
// through + - * / % min max, the interval each value lies in and a divisor
// of it. tile-legalize-bounds drops a bounds guard only where an interval
// proves the access in bounds; the GPU printer uses the divisors to prove
// vector accesses aligned. Everything unknown stays unknown.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_IR_INDEXINTERVALS_H
#define TLC_DIALECT_TILE_IR_INDEXINTERVALS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <optional>

namespace tlc::tile {

/// What is statically known about an integer index value: every value it
/// takes lies in [lo, hi] and is a multiple of `div` (0: the value is 0).
struct IndexInterval {
  int64_t lo = 0, hi = 0;
  int64_t div = 1;
};

/// The values an index variable takes: lower, lower + step, ... while
/// below upper. Index variables are a kernel's block indices (lower 0, step
/// 1, upper the grid extent), the variables of T.Parallel, T.serial and
/// T.Pipelined loops and thread bindings (upper the block's extent).
struct IndexVariableRange {
  mlir::OpFoldResult lower, upper, step;
};

/// The range of \p v when it is an index variable; nullopt for any other
/// value. Bounds are whatever the IR holds (constants or values).
std::optional<IndexVariableRange> getIndexVariableRange(mlir::Value v);

/// The intervals of the index values of one function, computed on demand
/// and cached (the IR must not change while one instance is in use).
class IndexIntervals {
public:
  /// The interval of \p v, or nullopt when nothing is known.
  std::optional<IndexInterval> of(mlir::Value v);
  /// The interval of a constant or a value.
  std::optional<IndexInterval> of(mlir::OpFoldResult r);
  /// The interval of \p v used as an index: as of(), and for a value
  /// computed from an element read from memory (a gather or scatter through
  /// an index tensor) an interval that includes negative values, so that
  /// its guard checks both ends.
  std::optional<IndexInterval> ofIndex(mlir::Value v);
  /// The outcome of \p cmp when the intervals of its operands decide it.
  std::optional<bool> decideCompare(mlir::arith::CmpIOp cmp);

private:
  llvm::DenseMap<mlir::Value, std::optional<IndexInterval>> cache;
};

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_IR_INDEXINTERVALS_H
