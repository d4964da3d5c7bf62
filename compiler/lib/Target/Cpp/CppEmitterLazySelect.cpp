//===- CppEmitterLazySelect.cpp - T.if_then_else evaluates one side -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `T.if_then_else(cond, a, b)` evaluates only the operand it picks (TIR's
// if_then_else, unlike Select): `T.if_then_else(i >= d, buf[i - d], 0)`
// never reads `buf[-1]`. Tile IR computes both operands before the
// `arith.select`, and the CPU target emits every op as a statement of its
// own, so a checked load in the operand not picked used to fail the run
// ("index out of range"). Here the ops that compute one operand of a select
// and nothing else, when a load is among them, are deferred: they run in
// the branch of an if/else at the select that picks their operand.
//
// Only loads and arith/math ops are deferred, and only across loads and
// arith/math ops: a select whose operand ops stand before a store, a
// barrier, a call or a region keeps its eager form, so moving a load never
// moves it past a write.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::target::detail;

/// Whether \p op may be deferred into a select's branch, or stand between
/// the deferred ops and their select: a load, or arith/math arithmetic.
static bool isDeferrable(Operation *op) {
  if (isa<tile::LoadOp>(op))
    return true;
  return op->getNumRegions() == 0 && op->getNumResults() == 1 &&
         isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) &&
         !isa<arith::ConstantOp>(op);
}

void Emitter::collectLazySelects(tile::KernelOp kernel) {
  lazySelects.clear();
  deferredOps.clear();
  // Each op belongs to at most one select: an inner select (earlier in its
  // block, so visited first) keeps its ops, and the outer select that
  // defers the inner one covers them.
  kernel.walk([&](arith::SelectOp sel) {
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
      if (!isDeferrable(op) && !lazySelects.contains(op))
        break;
      if (deferredOps.contains(op) || op->use_empty())
        continue;
      for (unsigned s = 0; s < 2; ++s) {
        if (!usedOnlyBy(op, s))
          continue;
        side[s].insert(op);
        order[s].push_back(op);
        hasLoad[s] |= isa<tile::LoadOp>(op);
        auto inner = lazySelects.find(op);
        if (inner == lazySelects.end())
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
      deferredOps.insert(order[s].begin(), order[s].end());
    }
    lazySelects[sel] = {std::move(order[0]), std::move(order[1])};
  });
}

LogicalResult Emitter::emitLazySelect(Operation *op) {
  auto sel = cast<arith::SelectOp>(op);
  auto cty = valueType(sel.getType(), op);
  if (failed(cty))
    return failure();
  const auto &sides = lazySelects.find(op)->second;
  std::string name = define(sel.getResult(), "v");
  line(*cty + " " + name + "{};");
  open("if (" + expr(sel.getCondition()) + ")");
  auto emitSide = [&](const std::vector<Operation *> &ops, Value v) {
    for (Operation *o : ops) {
      deferredOps.erase(o);
      LogicalResult r = emitOp(o);
      deferredOps.insert(o);
      if (failed(r))
        return failure();
    }
    currentLoc = op->getLoc();
    line(name + " = " + expr(v) + ";");
    return success();
  };
  if (failed(emitSide(sides.first, sel.getTrueValue())))
    return failure();
  --indent;
  line("} else {");
  ++indent;
  if (failed(emitSide(sides.second, sel.getFalseValue())))
    return failure();
  close();
  return success();
}
