//===- TileOpsControl.cpp - Tile dialect loops and control flow -----------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// tile.parallel, tile.pipelined, tile.for, tile.if and tile.while: builders,
// custom assembly and verifiers.
//
//===----------------------------------------------------------------------===//

#include "TileOpsDetail.h"
#include "tlc/Dialect/Tile/IR/BufferEffects.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tlc::tile;
using namespace tlc::tile::detail;

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

/// Whether \p nested is a fill of a thread's own buffer (local, local.var):
/// each iteration of a T.Parallel fills its thread's copy, so it is
/// element-level code there.
static bool isPerThreadFill(Operation *nested) {
  Value dst;
  if (auto fill = dyn_cast<FillOp>(nested))
    dst = fill.getDst();
  else if (auto clear = dyn_cast<ClearOp>(nested))
    dst = clear.getDst();
  else
    return false;
  MemoryScope scope = getScopeOf(dst);
  return scope == MemoryScope::Local || scope == MemoryScope::LocalVar;
}

/// Checks that \p body contains no tile-level operation (T.Parallel bodies
/// hold only element-level code, and fills of a thread's own buffers).
static LogicalResult verifyNoTileOpsInside(Operation *op, Region &body) {
  WalkResult result = body.walk([&](Operation *nested) {
    if (isPerThreadFill(nested))
      return WalkResult::advance();
    if (isa<CopyOp, GemmOp, ReduceOp, CumSumOp, FillOp, ClearOp, PipelinedOp,
            KernelOp, AllocOp>(nested) ||
        (isa<AtomicAddOp>(nested) &&
         cast<AtomicAddOp>(nested).getIndices().empty())) {
      InFlightDiagnostic diag = op->emitOpError("must not contain '")
                                << nested->getName() << "'";
      diag.attachNote(nested->getLoc()) << "nested operation here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void ParallelOp::build(OpBuilder &builder, OperationState &state,
                       ArrayRef<OpFoldResult> extents) {
  SmallVector<Value> dynamicExtents;
  SmallVector<int64_t> staticExtents;
  dispatchIndexOpFoldResults(extents, dynamicExtents, staticExtents);
  build(builder, state, dynamicExtents,
        builder.getDenseI64ArrayAttr(staticExtents),
        /*coalesced_width=*/nullptr, /*loop_layout=*/nullptr);
  addIndexBlock(builder, state.regions.front().get(), extents.size(),
                state.location);
}

SmallVector<OpFoldResult> ParallelOp::getMixedExtents() {
  return getMixedValues(getStaticExtents(), getExtents(), getContext());
}

ParseResult ParallelOp::parse(OpAsmParser &parser, OperationState &result) {
  Type indexType = parser.getBuilder().getIndexType();
  SmallVector<OpAsmParser::Argument> ivs;
  SmallVector<OpAsmParser::UnresolvedOperand> extents;
  DenseI64ArrayAttr staticExtents;
  if (parser.parseArgumentList(ivs, OpAsmParser::Delimiter::Paren) ||
      parser.parseKeyword("in") ||
      parseDynamicIndexList(parser, extents, staticExtents) ||
      parser.resolveOperands(extents, indexType, result.operands))
    return failure();
  result.addAttribute(getStaticExtentsAttrName(result.name), staticExtents);
  for (OpAsmParser::Argument &iv : ivs)
    iv.type = indexType;
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, ivs))
    return failure();
  if (body->empty())
    body->push_back(new Block());
  return success();
}

void ParallelOp::print(OpAsmPrinter &p) {
  p << " (";
  llvm::interleaveComma(getBody().getArguments(), p,
                        [&](BlockArgument arg) { p.printOperand(arg); });
  p << ") in ";
  printDynamicIndexList(p, *this, getExtents(), getStaticExtents());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getStaticExtentsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult ParallelOp::verify() {
  if (getStaticExtents().empty())
    return emitOpError("expects at least one extent");
  if (failed(verifyListOfOperandsOrIntegers(*this, "extent",
                                            getStaticExtents().size(),
                                            getStaticExtents(), getExtents())))
    return failure();
  for (int64_t extent : getStaticExtents())
    if (!ShapedType::isDynamic(extent) && extent < 0)
      return emitOpError("extents must be non-negative, got ") << extent;
  if (getBody().getNumArguments() != getStaticExtents().size())
    return emitOpError("expects one loop variable per extent (")
           << getStaticExtents().size() << "), got "
           << getBody().getNumArguments();
  for (BlockArgument arg : getBody().getArguments())
    if (!arg.getType().isIndex())
      return emitOpError("loop variables must have type index");
  return verifyNoTileOpsInside(*this, getBody());
}

void ParallelOp::getAsmBlockArgumentNames(Region &region,
                                          OpAsmSetValueNameFn setNameFn) {
  static const char *const names[] = {"i", "j", "k", "l"};
  for (auto [i, arg] : llvm::enumerate(region.getArguments())) {
    if (auto nameLoc = dyn_cast<NameLoc>(arg.getLoc());
        nameLoc && isIdentifier(nameLoc.getName().getValue()))
      setNameFn(arg, nameLoc.getName().getValue());
    else if (i < 4)
      setNameFn(arg, names[i]);
  }
}

/// Names a loop variable after its NameLoc, or \p fallback.
static void nameLoopVariable(Region &region, StringRef fallback,
                             OpAsmSetValueNameFn setNameFn) {
  if (region.getNumArguments() != 1)
    return;
  BlockArgument iv = region.getArgument(0);
  if (auto nameLoc = dyn_cast<NameLoc>(iv.getLoc());
      nameLoc && isIdentifier(nameLoc.getName().getValue()))
    setNameFn(iv, nameLoc.getName().getValue());
  else
    setNameFn(iv, fallback);
}

void PipelinedOp::getAsmBlockArgumentNames(Region &region,
                                           OpAsmSetValueNameFn setNameFn) {
  nameLoopVariable(region, "k", setNameFn);
}

void ForOp::getAsmBlockArgumentNames(Region &region,
                                     OpAsmSetValueNameFn setNameFn) {
  nameLoopVariable(region, "i", setNameFn);
}

/// Parses `%iv = %lb to %ub` and resolves the bounds as index values.
static ParseResult parseLoopHeader(OpAsmParser &parser,
                                   OperationState &result,
                                   OpAsmParser::Argument &iv) {
  Type indexType = parser.getBuilder().getIndexType();
  OpAsmParser::UnresolvedOperand lb, ub;
  if (parser.parseArgument(iv) || parser.parseEqual() ||
      parser.parseOperand(lb) || parser.parseKeyword("to") ||
      parser.parseOperand(ub) ||
      parser.resolveOperand(lb, indexType, result.operands) ||
      parser.resolveOperand(ub, indexType, result.operands))
    return failure();
  iv.type = indexType;
  return success();
}

/// Parses the loop body with \p iv as its argument.
static ParseResult parseLoopBody(OpAsmParser &parser, OperationState &result,
                                 OpAsmParser::Argument &iv) {
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {iv}))
    return failure();
  if (body->empty())
    body->push_back(new Block());
  return success();
}

/// Checks that a loop body has exactly one index argument.
static LogicalResult verifyLoopBody(Operation *op, Region &body) {
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return op->emitOpError("expects one index loop variable");
  return success();
}

void PipelinedOp::build(OpBuilder &builder, OperationState &state,
                        Value lowerBound, Value upperBound, int64_t numStages) {
  build(builder, state, lowerBound, upperBound,
        builder.getI64IntegerAttr(numStages), /*order=*/nullptr,
        /*stage=*/nullptr);
  addIndexBlock(builder, state.regions.front().get(), 1, state.location);
}

ParseResult PipelinedOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  OpAsmParser::Argument iv;
  int64_t numStages;
  if (parseLoopHeader(parser, result, iv) || parser.parseKeyword("stages") ||
      parser.parseInteger(numStages))
    return failure();
  result.addAttribute(getNumStagesAttrName(result.name),
                      builder.getI64IntegerAttr(numStages));
  for (StringRef keyword : {"order", "stage"}) {
    if (failed(parser.parseOptionalKeyword(keyword)))
      continue;
    SmallVector<int64_t> values;
    if (parser.parseCommaSeparatedList(
            OpAsmParser::Delimiter::Square,
            [&] { return parser.parseInteger(values.emplace_back()); }))
      return failure();
    result.addAttribute(keyword, builder.getDenseI64ArrayAttr(values));
  }
  return parseLoopBody(parser, result, iv);
}

/// Prints ` keyword [a, b, c]`.
static void printIntList(OpAsmPrinter &p, StringRef keyword,
                         ArrayRef<int64_t> values) {
  p << ' ' << keyword << " [";
  llvm::interleaveComma(values, p);
  p << ']';
}

void PipelinedOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOperand(getInductionVar());
  p << " = " << getLowerBound() << " to " << getUpperBound() << " stages "
    << getNumStages();
  if (std::optional<ArrayRef<int64_t>> order = getOrder())
    printIntList(p, "order", *order);
  if (std::optional<ArrayRef<int64_t>> stage = getStage())
    printIntList(p, "stage", *stage);
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getNumStagesAttrName(), getOrderAttrName(), getStageAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult PipelinedOp::verify() {
  if (failed(verifyLoopBody(*this, getBody())))
    return failure();
  std::optional<ArrayRef<int64_t>> order = getOrder();
  std::optional<ArrayRef<int64_t>> stage = getStage();
  if (order && stage && order->size() != stage->size())
    return emitOpError("'order' has ")
           << order->size() << " entries but 'stage' has " << stage->size();
  int64_t numStages = getNumStagesAttr().getInt();
  if (stage)
    for (int64_t s : *stage)
      if (s < -1 || s > numStages)
        return emitOpError("stage ")
               << s << " is outside [-1, num_stages = " << numStages << "]";
  // Nesting in tile.parallel is rejected by tile.parallel's verifier.
  if (!getEnclosingKernel(*this))
    return emitOpError("must be nested in a tile.kernel");
  return success();
}

void ForOp::build(OpBuilder &builder, OperationState &state, Value lowerBound,
                  Value upperBound, Value step, LoopKind kind) {
  build(builder, state, lowerBound, upperBound, step,
        LoopKindAttr::get(builder.getContext(), kind),
        /*unroll_factor=*/nullptr);
  addIndexBlock(builder, state.regions.front().get(), 1, state.location);
}

ParseResult ForOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iv;
  OpAsmParser::UnresolvedOperand step;
  if (parseLoopHeader(parser, result, iv) || parser.parseKeyword("step") ||
      parser.parseOperand(step) ||
      parser.resolveOperand(step, parser.getBuilder().getIndexType(),
                            result.operands))
    return failure();
  StringRef kindText;
  if (succeeded(parser.parseOptionalKeyword(
          &kindText, {"serial", "unroll", "vectorized"})))
    result.addAttribute(
        getKindAttrName(result.name),
        LoopKindAttr::get(parser.getContext(),
                          *symbolizeLoopKind(kindText)));
  return parseLoopBody(parser, result, iv);
}

void ForOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printOperand(getInductionVar());
  p << " = " << getLowerBound() << " to " << getUpperBound() << " step "
    << getStep();
  if (getKind() != LoopKind::Serial)
    p << ' ' << stringifyLoopKind(getKind());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getKindAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

//===----------------------------------------------------------------------===//
// IfOp, WhileOp
//===----------------------------------------------------------------------===//

void IfOp::build(OpBuilder &builder, OperationState &state, Value condition,
                 bool withElse) {
  state.addOperands(condition);
  Region *thenRegion = state.addRegion();
  Region *elseRegion = state.addRegion();
  thenRegion->push_back(new Block());
  if (withElse)
    elseRegion->push_back(new Block());
}

ParseResult IfOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand condition;
  if (parser.parseOperand(condition) ||
      parser.resolveOperand(condition, parser.getBuilder().getI1Type(),
                            result.operands))
    return failure();
  Region *thenRegion = result.addRegion();
  Region *elseRegion = result.addRegion();
  if (parseBody(parser, *thenRegion))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("else")) &&
      parseBody(parser, *elseRegion))
    return failure();
  return parser.parseOptionalAttrDict(result.attributes);
}

void IfOp::print(OpAsmPrinter &p) {
  p << ' ' << getCondition() << ' ';
  printBody(p, *this, getThenRegion());
  if (!getElseRegion().empty()) {
    p << " else ";
    printBody(p, *this, getElseRegion());
  }
  p.printOptionalAttrDict((*this)->getAttrs());
}

void WhileOp::build(OpBuilder &builder, OperationState &state) {
  state.addRegion()->push_back(new Block());
  state.addRegion()->push_back(new Block());
}

LogicalResult WhileOp::verify() {
  Block &cond = getCond().front();
  if (cond.empty() || !isa<ConditionOp>(cond.back()))
    return emitOpError("condition region must end with tile.condition");
  for (Operation &op : llvm::drop_end(cond))
    if (isa<ConditionOp>(op))
      return op.emitOpError("must be the last operation of the condition "
                            "region");
  // A tile.while nested in the body verifies its own conditions.
  WalkResult bad = getBody().walk([&](ConditionOp c) {
    return c->getParentOfType<WhileOp>() == *this ? WalkResult::interrupt()
                                                  : WalkResult::advance();
  });
  if (bad.wasInterrupted())
    return emitOpError("tile.condition may only end the condition region");
  return success();
}
