//===- IndexTranslator.h - Index values as layout expressions ---*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reads the `arith` computation of an index inside a block (a loop body, or
// the scratch block a T.Layout index function is traced in) as a
// layout::IndexExpr over the block's arguments: + - * // % ^ & | << >> and
// casts. Used by layout inference and by the evaluator's layout tracer.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_IR_INDEXTRANSLATOR_H
#define TLC_DIALECT_TILE_IR_INDEXTRANSLATOR_H

#include "tlc/Layout/IndexExpr.h"
#include "tlc/Layout/Layout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <optional>

namespace tlc {
namespace tile {

/// Converts index values of a loop body into IndexExprs over its variables.
class IndexTranslator {
public:
  explicit IndexTranslator(mlir::Block &body) {
    for (auto [d, arg] : llvm::enumerate(body.getArguments()))
      vars[arg] = layout::IndexExpr::var(d, layout::inputName(d));
  }

  std::optional<layout::IndexExpr> translate(mlir::Value v,
                                            unsigned depth = 0) {
    if (depth > 64)
      return std::nullopt;
    if (auto it = vars.find(v); it != vars.end())
      return it->second;
    llvm::APInt cst;
    if (mlir::matchPattern(v, mlir::m_ConstantInt(&cst)))
      return layout::IndexExpr::constant(cst.getSExtValue());
    mlir::Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    namespace arith = mlir::arith;
    if (llvm::isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp>(def))
      return translate(def->getOperand(0), depth + 1);
    if (def->getNumOperands() != 2)
      return std::nullopt;
    std::optional<layout::IndexExpr> l = translate(def->getOperand(0), depth + 1);
    if (!l)
      return std::nullopt;
    std::optional<layout::IndexExpr> r = translate(def->getOperand(1), depth + 1);
    if (!r)
      return std::nullopt;
    return llvm::TypeSwitch<mlir::Operation *,
                            std::optional<layout::IndexExpr>>(def)
        .Case<arith::AddIOp>([&](auto) { return *l + *r; })
        .Case<arith::SubIOp>([&](auto) { return *l - *r; })
        .Case<arith::MulIOp>([&](auto) { return *l * *r; })
        .Case<arith::FloorDivSIOp, arith::DivSIOp, arith::DivUIOp>(
            [&](auto) { return layout::floorDiv(*l, *r); })
        .Case<arith::RemSIOp, arith::RemUIOp>(
            [&](auto) { return layout::floorMod(*l, *r); })
        .Case<arith::XOrIOp>([&](auto) { return layout::bitXor(*l, *r); })
        .Case<arith::AndIOp>([&](auto) { return layout::bitAnd(*l, *r); })
        .Case<arith::OrIOp>([&](auto) { return layout::bitOr(*l, *r); })
        .Case<arith::ShLIOp>([&](auto) { return layout::shiftLeft(*l, *r); })
        .Case<arith::ShRSIOp, arith::ShRUIOp>(
            [&](auto) { return layout::shiftRight(*l, *r); })
        .Default([](mlir::Operation *) { return std::nullopt; });
  }

private:
  llvm::DenseMap<mlir::Value, layout::IndexExpr> vars;
};

} // namespace tile
} // namespace tlc

#endif // TLC_DIALECT_TILE_IR_INDEXTRANSLATOR_H
