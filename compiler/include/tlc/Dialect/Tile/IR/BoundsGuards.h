//===- BoundsGuards.h - The guards tile-legalize-bounds decides -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// tile-legalize-bounds records on every operation that reads or writes a
// global tensor which index checks its accesses need, per operand and per
// dimension of the tensor, and what an out-of-range read gives:
//
//   tile.copy %A_region to %A_s {tile.bounds = [
//       {dims = ["upper", "in"], safe_value = 1.000000e+01 : f64}, {}]}
//
// One entry per operand: `{}` for an operand that is not a view of global
// memory; otherwise `dims`, one word per dimension of the tensor the
// operand views (through tile.region): "in" (proven in range, no check),
// "upper" (index < extent), "lower" (index >= 0) or "both"; and
// `safe_value`, present when T.annotate_safe_value registers a non-zero
// value for the tensor. The GPU printers print these checks (per thread,
// per element or vector) and decide none themselves.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_IR_BOUNDSGUARDS_H
#define TLC_DIALECT_TILE_IR_BOUNDSGUARDS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <cmath>
#include <cstdint>
#include <optional>

namespace tlc::tile {

/// The name of the attribute (BoundsGuards.h's header describes it).
inline constexpr llvm::StringLiteral kBoundsAttrName = "tile.bounds";

/// The checks of one dimension: a set of these bits.
enum BoundsCheck : uint8_t {
  kCheckNone = 0,
  kCheckUpper = 1,
  kCheckLower = 2,
};

/// Whether \p v is +0.0, the safe value that needs no annotation.
inline bool isPositiveZero(double v) { return v == 0 && !std::signbit(v); }

/// What an operation's accesses to one global tensor need.
struct BoundsGuard {
  /// Per dimension of the tensor, BoundsCheck bits.
  llvm::SmallVector<uint8_t> dims;
  /// What an out-of-range read gives, when not +0.0 (a -0.0 is kept: the
  /// read gives the annotated value itself, sign included).
  std::optional<double> safeValue;
  /// Whether an out-of-range read gives +0.0 (all-zero bits: what a
  /// zero-filling copy writes).
  bool readsZero() const { return !safeValue || isPositiveZero(*safeValue); }
};

/// The tensor (or other root buffer) \p buffer views through tile.region.
mlir::Value getViewedRoot(mlir::Value buffer);

/// Records \p perOperand (one entry per operand of \p op; nullopt for one
/// that does not access global memory) as \p op's `tile.bounds`.
void setBoundsGuards(mlir::Operation *op,
                     llvm::ArrayRef<std::optional<BoundsGuard>> perOperand);

/// The checks \p op's accesses to the root buffer \p root need: the union
/// over the operands that view it. nullopt when \p op carries no
/// `tile.bounds` or no operand views \p root.
std::optional<BoundsGuard> getBoundsGuard(mlir::Operation *op,
                                          mlir::Value root);

/// Whether \p op is a `T.call_extern` made for its effect (no result, or one
/// nothing reads). Passed the address of a global element (T.address_of)
/// that may lie outside its tensor, such a call is what the printers guard
/// (it runs only where the element lies inside, as TileLang's
/// LegalizeSafeMemoryAccess does); any other use of the address is refused.
bool isExternCallStatement(mlir::Operation *op);

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_IR_BOUNDSGUARDS_H
