//===- IRControlFlow.cpp - `if` and `while` on IR conditions --------------===//
//
// Part of tlc. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// Python `if` and `while` statements whose condition is an IR value:
// tile.if / tile.while with the body traced inside, the boolean check on
// the condition, and `return`/`break`/`continue` escaping such a region.
//
//===----------------------------------------------------------------------===//

#include "DeferredFloat.h"
#include "IRGen.h"
#include "Primitives.h"
#include "RuntimeExtents.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace tlc;
using namespace tlc::eval;
using syntax::BinaryOp;
using syntax::CmpOp;
using syntax::UnaryOp;

//===----------------------------------------------------------------------===//
// Control flow on IR conditions
//===----------------------------------------------------------------------===//

/// Diagnoses `return`/`break`/`continue` escaping an IR region.
static Flow settleRegionFlow(Interpreter &in, Flow f, Node at) {
  if (f == Flow::Return) {
    in.error(at, "'return' inside IR control flow is not supported");
    return Flow::Normal;
  }
  if (f == Flow::Break || f == Flow::Continue) {
    // Its loop is one the interpreter expands (`for i in [0, 1]`): there
    // is no loop to leave when the condition is decided at run time, and
    // leaving an IR loop around it would be wrong. TileLang raises this as
    // a NotImplementedError where the prim_func is defined.
    if (!in.expandedLoops.empty() &&
        in.expandedLoops.back() == in.loops.size()) {
      in.errorAs("NotImplementedError", at.range(),
                 llvm::Twine("a '") +
                     (f == Flow::Break ? "break" : "continue") +
                     "' under a condition on kernel data inside a Python "
                     "loop tlc expands at trace time: the expanded loop has "
                     "no runtime control-flow target (loop with T.serial "
                     "or range() over kernel values, or decide the "
                     "condition at trace time)");
      return Flow::Normal;
    }
    // Leaves the enclosing IR loop at run time (TileLang's tir break /
    // continue); a back end that cannot generate it says so.
    if (in.loops.empty()) {
      in.error(at, "'break'/'continue' outside a loop");
      return Flow::Normal;
    }
    tile::IntrinsicOp::create(
        in.ir->b, in.ir->loc(at), mlir::TypeRange(),
        in.ir->b.getStringAttr(f == Flow::Break ? "T.loop_break"
                                                : "T.loop_continue"),
        mlir::ValueRange(), in.ir->b.getStrArrayAttr({}),
        mlir::DictionaryAttr());
    return Flow::Normal;
  }
  return f;
}

/// TileLang refuses a kernel `if` / `assert` whose run-time condition is
/// not boolean ("If condition must be a boolean expression, but got
/// int32"; before that check, its compilation stopped at an internal one,
/// tile-ai/tilelang#3009): an error at the condition, in TileLang's words,
/// with the comparison that says what was meant.
void Interpreter::checkBooleanCondition(const Scalar &c, Node test,
                                        llvm::StringRef stmt) {
  if (c.dtype.isBool())
    return;
  error(test, stmt + " condition must be a boolean expression, but got " +
                  c.dtype.getName() + " (compare it, e.g. `... != 0`)");
}

Flow Interpreter::execIRIf(Value cond, Node ifNode) {
  Node test = ifNode.child(Field::test);
  Scalar c = toScalar(cond, test);
  if (!c)
    return Flow::Normal;
  checkBooleanCondition(c, test, "If");
  mlir::Location l = ir->loc(test);
  mlir::Value pred = ir->convert(c.value, ir->b.getI1Type(), l);
  bool hasElse = static_cast<bool>(ifNode.child(Field::orelse));
  auto op = tile::IfOp::create(ir->b, ir->loc(ifNode), pred, hasElse);
  mlir::OpBuilder::InsertionGuard guard(ir->b);
  ir->b.setInsertionPointToEnd(op.thenBlock());
  Flow f = settleRegionFlow(*this, execBody(ifNode, Field::body), ifNode);
  if (f == Flow::Raise)
    return f;
  if (hasElse) {
    ir->b.setInsertionPointToEnd(op.elseBlock());
    f = settleRegionFlow(*this, execBody(ifNode, Field::orelse), ifNode);
  }
  return f;
}

Flow Interpreter::execIRWhile(Node whileNode, Node condNode) {
  if (!condNode)
    condNode = whileNode.child(Field::test);
  auto op = tile::WhileOp::create(ir->b, ir->loc(whileNode));
  mlir::OpBuilder::InsertionGuard guard(ir->b);
  ir->b.setInsertionPointToEnd(&op.getCond().front());
  Value c = condNode ? eval(condNode) : Value::poison();
  Node at = condNode ? condNode : whileNode;
  Scalar s = c.isAbrupt() ? Scalar() : toScalar(c, at);
  mlir::Value pred = s ? ir->convert(s.value, ir->b.getI1Type(), ir->loc(at))
                       : ir->constInt(0, ir->b.getI1Type(), ir->loc(at));
  tile::ConditionOp::create(ir->b, ir->loc(at), pred);
  if (c.isException())
    return Flow::Raise;
  ir->b.setInsertionPointToEnd(&op.getBody().front());
  loops.push_back({LoopKind::Serial, 0, whileNode});
  Flow f = execBody(whileNode, Field::body);
  loops.pop_back();
  if (f == Flow::Break || f == Flow::Continue)
    return Flow::Normal;
  return settleRegionFlow(*this, f, whileNode);
}
