//===- LazySelect.cpp - Which ops T.if_then_else runs in a branch ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The analysis of LazySelect.h. Walking back from each select over the
// ops before it in its block, an op belongs to an operand's side when
// every use of it is that operand of the select or an op of the same side;
// the walk ends at the first op that may not move.
//
//===----------------------------------------------------------------------===//

#include "tlc/Target/Cpp/LazySelect.h"

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

using namespace mlir;
using namespace tlc;

bool target::isLazySelectMovable(Operation *op) {
  if (isa<tile::LoadOp>(op))
    return true;
  return op->getNumRegions() == 0 && op->getNumResults() == 1 &&
         isa_and_present<arith::ArithDialect, math::MathDialect>(
             op->getDialect()) &&
         !isa<arith::ConstantOp>(op);
}

target::LazySelects
target::collectLazySelects(Operation *root,
                           function_ref<bool(Operation *)> movable) {
  LazySelects result;
  auto &lazy = result.sides;
  auto &deferred = result.deferred;
  // Each op belongs to at most one select: an inner select (earlier in its
  // block, so visited first) keeps its ops, and the outer select that
  // defers the inner one covers them.
  root->walk([&](arith::SelectOp sel) {
    if (sel.getTrueValue() == sel.getFalseValue())
      return;
    // The ops of each side (0: true value, 1: false value), and with them
    // what the lazy selects among them defer.
    llvm::SmallPtrSet<Operation *, 8> side[2], covered[2];
    std::vector<Operation *> order[2];
    bool hasLoad[2] = {false, false};
    auto usedOnlyBy = [&](Operation *op, unsigned s) {
      for (OpOperand &use : op->getUses()) {
        Operation *user = use.getOwner();
        if (user == sel.getOperation()) {
          if (use.getOperandNumber() != s + 1)
            return false;
          continue;
        }
        if (!side[s].contains(user) && !covered[s].contains(user))
          return false;
      }
      return true;
    };
    for (Operation *op = sel->getPrevNode(); op; op = op->getPrevNode()) {
      // Constants are literals: nothing runs where they stand.
      if (isa<arith::ConstantOp>(op))
        continue;
      if (!lazy.contains(op) && !movable(op))
        break;
      if (deferred.contains(op) || op->use_empty())
        continue;
      for (unsigned s = 0; s < 2; ++s) {
        if (!usedOnlyBy(op, s))
          continue;
        side[s].insert(op);
        order[s].push_back(op);
        hasLoad[s] |= isa<tile::LoadOp>(op);
        auto inner = lazy.find(op);
        if (inner == lazy.end())
          break;
        for (auto *ops : {&inner->second.first, &inner->second.second})
          for (Operation *o : *ops) {
            covered[s].insert(o);
            hasLoad[s] |= isa<tile::LoadOp>(o);
          }
        break;
      }
    }
    if (!hasLoad[0] && !hasLoad[1])
      return;
    for (unsigned s = 0; s < 2; ++s) {
      std::reverse(order[s].begin(), order[s].end());
      deferred.insert(order[s].begin(), order[s].end());
    }
    lazy[sel] = {std::move(order[0]), std::move(order[1])};
  });
  return result;
}
