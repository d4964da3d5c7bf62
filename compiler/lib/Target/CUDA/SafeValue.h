//===- SafeValue.h - T.annotate_safe_value for the GPU printer --*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a guarded read outside a global tensor gives: zero, or the value
// T.annotate_safe_value({A: v}) registers for the tensor parameter A.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LIB_TARGET_CUDA_SAFEVALUE_H
#define TLC_LIB_TARGET_CUDA_SAFEVALUE_H

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tlc::target::cuda_detail {

/// The safe value of the tensor parameter \p root of \p func as a register
/// value of element type \p elem (`(float)(10)`), or "0" when the program
/// registers none (or zero) for it. The map is `{A: 10, B: 0.5}` as the
/// evaluator prints it; an entry that is not a number is reported where
/// the annotation is printed.
inline std::string safeValueOf(tile::FuncOp func, mlir::Value root,
                               mlir::Type elem) {
  auto arg = llvm::dyn_cast<mlir::BlockArgument>(root);
  if (!arg || arg.getOwner() != &func.getBody().front())
    return "0";
  auto name = llvm::dyn_cast<mlir::NameLoc>(arg.getLoc());
  if (!name)
    return "0";
  double value = 0;
  func.walk([&](tile::IntrinsicOp op) {
    if (op.getCallee() != "T.annotate_safe_value" || !op.getOptionsAttr())
      return;
    auto map = op.getOptionsAttr().getAs<mlir::StringAttr>("safe_value_map");
    if (!map)
      return;
    llvm::SmallVector<llvm::StringRef> entries;
    map.getValue().trim().trim("{}").split(entries, ',', -1, false);
    for (llvm::StringRef e : entries) {
      auto [key, text] = e.split(':');
      double v;
      if (key.trim() == name.getName().getValue() &&
          !text.trim().getAsDouble(v))
        value = v;
    }
  });
  if (value == 0)
    return "0";
  std::string t = "float";
  if (elem.isF64())
    t = "double";
  else if (auto i = llvm::dyn_cast<mlir::IntegerType>(elem))
    t = i.getWidth() == 1 ? "bool"
        : i.getWidth() <= 32
            ? (i.isUnsigned() ? "unsigned" : "int")
            : (i.isUnsigned() ? "unsigned long long" : "long long");
  std::string literal;
  llvm::raw_string_ostream os(literal);
  os << llvm::format("%.17g", value);
  return "(" + t + ")(" + literal + ")";
}

} // namespace tlc::target::cuda_detail

#endif // TLC_LIB_TARGET_CUDA_SAFEVALUE_H
