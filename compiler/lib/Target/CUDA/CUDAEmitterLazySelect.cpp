//===- CUDAEmitterLazySelect.cpp - T.if_then_else evaluates one side ------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `T.if_then_else(cond, a, b)` evaluates only the operand it picks. The
// CUDA and HIP printers emit every op as a statement, so the shared-memory
// load of the operand not picked (`s[tx - 3]` at tx < 3) used to run before
// the `?:`: an out-of-bounds read on the GPU. The ops that
// tlc/Target/Cpp/LazySelect.h finds (the CPU printer's analysis) run here
// in the branch of an if/else at the select that picks their operand.
//
// A load moves only when its statement is a plain read: a fragment read in
// scalar code may publish the fragment through the exchange area between
// two barriers, which must not run under a condition, so it stays.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

void Emitter::collectLazySelects(KernelOp kernel) {
  lazySelects = target::collectLazySelects(kernel, [](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op))
      if (scopeOf(rootOf(load.getBuffer())) == MemoryScope::Fragment &&
          !load->getParentOfType<ParallelOp>())
        return false;
    return isLazySelectMovable(op);
  });
}

LogicalResult Emitter::emitLazySelect(Operation *op) {
  auto sel = cast<arith::SelectOp>(op);
  const auto &sides = lazySelects.sides.find(op)->second;
  auto emitSide = [&](const std::vector<Operation *> &ops) {
    if (failed(
            lazySelects.emitSide(ops, [&](Operation *o) { return emitOp(o); })))
      return failure();
    currentLoc = op->getLoc();
    return success();
  };
  // A condition the value ranges decide (emitScalar's "true" / "false"):
  // only the side it picks runs, with no branch.
  std::string cond = expr(sel.getCondition());
  if (cond == "true" || cond == "false") {
    bool pick = cond == "true";
    if (failed(emitSide(pick ? sides.first : sides.second)))
      return failure();
    names[sel.getResult()] =
        expr(pick ? sel.getTrueValue() : sel.getFalseValue());
    return success();
  }
  FailureOr<std::string> vt = valueType(sel.getType(), op);
  if (failed(vt))
    return failure();
  std::string name = define(sel.getResult(), "t");
  line(*vt + " " + name + ";");
  open("if (" + cond + ")");
  if (failed(emitSide(sides.first)))
    return failure();
  line(name + " = " + expr(sel.getTrueValue()) + ";");
  --indent;
  line("} else {");
  ++indent;
  if (failed(emitSide(sides.second)))
    return failure();
  line(name + " = " + expr(sel.getFalseValue()) + ";");
  close();
  return success();
}
