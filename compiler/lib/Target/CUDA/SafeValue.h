//===- SafeValue.h - T.annotate_safe_value for the GPU printer --*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a guarded read outside a global tensor gives: zero, or the value
// T.annotate_safe_value({A: v}) registers for the tensor A, which
// tile-legalize-bounds records in the reading operation's `tile.bounds`.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_TARGET_CUDA_SAFEVALUE_H
#define TLC_LIB_TARGET_CUDA_SAFEVALUE_H

#include "tlc/Target/FloatLiteral.h"

#include "tlc/Dialect/Tile/IR/BoundsGuards.h"

#include "mlir/IR/BuiltinTypes.h"

#include <string>

namespace tlc::target::cuda_detail {

/// The safe value of \p at's reads of the root buffer \p root as a register
/// value of element type \p elem (`(float)(10.0f)`), or "0" when the
/// program registers none (or +0.0) for it. A negative zero keeps its sign:
/// TileLang substitutes the annotated value itself (`-0.0` reads as -0.0).
inline std::string safeValueOf(mlir::Operation *at, mlir::Value root,
                               mlir::Type elem) {
  std::optional<tile::BoundsGuard> guard = tile::getBoundsGuard(at, root);
  if (!guard || guard->readsZero())
    return "0";
  std::string t = "float";
  if (elem.isF64())
    t = "double";
  else if (auto i = llvm::dyn_cast<mlir::IntegerType>(elem))
    t = i.getWidth() == 1 ? "bool"
        : i.getWidth() <= 32
            ? (i.isUnsigned() ? "unsigned" : "int")
            : (i.isUnsigned() ? "unsigned long long" : "long long");
  return "(" + t + ")(" +
         floatLiteral(*guard->safeValue, elem.isF64(), FloatSpelling::Device) +
         ")";
}

} // namespace tlc::target::cuda_detail

#endif // TLC_LIB_TARGET_CUDA_SAFEVALUE_H
