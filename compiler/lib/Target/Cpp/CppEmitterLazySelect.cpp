//===- CppEmitterLazySelect.cpp - T.if_then_else evaluates one side -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `T.if_then_else(cond, a, b)` evaluates only the operand it picks (TIR's
// if_then_else, unlike Select): `T.if_then_else(i >= d, buf[i - d], 0)`
// never reads `buf[-1]`. The CPU target emits every op as a statement of
// its own, so a checked load in the operand not picked used to fail the run
// ("index out of range"). The ops tlc/Target/Cpp/LazySelect.h finds (those
// that compute one operand of a select and nothing else, a load among them)
// run here in the branch of an if/else at the select that picks their
// operand.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::target::detail;

LogicalResult Emitter::emitLazySelect(Operation *op) {
  auto sel = cast<arith::SelectOp>(op);
  auto cty = valueType(sel.getType(), op);
  if (failed(cty))
    return failure();
  const auto &sides = lazySelects.sides.find(op)->second;
  std::string name = define(sel.getResult(), "v");
  line(*cty + " " + name + "{};");
  open("if (" + expr(sel.getCondition()) + ")");
  auto emitSide = [&](const std::vector<Operation *> &ops, Value v) {
    if (failed(
            lazySelects.emitSide(ops, [&](Operation *o) { return emitOp(o); })))
      return failure();
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
