//===- CheckUndefinedAccumulators.cpp - --tile-check-undefined-accumulators =//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Warns where a `tile.gemm` without `clear_accum` accumulates into a
// register buffer that nothing has written before it (Passes.td has the
// rules): the accumulator's first value is undefined.
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/Transforms/Passes.h"

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace tlc {
namespace tile {
#define GEN_PASS_DEF_TILECHECKUNDEFINEDACCUMULATORS
#include "tlc/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace tlc

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

namespace {
/// Whether \p op, which has an operand in \p aliases, may write one of them;
/// a view of one joins \p aliases. An op that does not say its effects may
/// write.
bool writesAlias(Operation *op, llvm::SmallPtrSetImpl<Value> &aliases) {
  bool writes = false;
  for (OpOperand &use : op->getOpOperands()) {
    Value v = use.get();
    if (!aliases.contains(v))
      continue;
    if (isa<LoadOp>(op))
      continue;
    if (auto g = dyn_cast<GemmOp>(op)) {
      writes |= v == g.getC();
      continue;
    }
    // A view of the buffer (a region, a reshape) is the buffer.
    bool view = false;
    for (Value r : op->getResults())
      if (isa<BufferType>(r.getType())) {
        aliases.insert(r);
        view = true;
      }
    if (view)
      continue;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects || effects.getEffectOnValue<MemoryEffects::Write>(v) ||
        !effects.hasNoEffect() &&
            !effects.getEffectOnValue<MemoryEffects::Read>(v))
      writes = true;
  }
  return writes;
}

/// Warns at \p gemm when nothing writes its accumulator, a register buffer
/// allocated in its kernel, between the allocation and the gemm in program
/// order.
void checkGemm(GemmOp gemm) {
  if (gemm.getClearAccum())
    return;
  Value root = gemm.getC();
  while (Operation *def = root.getDefiningOp()) {
    if (isa<AllocOp>(def) || def->getNumOperands() == 0 ||
        !isa<BufferType>(def->getOperand(0).getType()))
      break;
    root = def->getOperand(0);
  }
  auto alloc = root.getDefiningOp<AllocOp>();
  if (!alloc || alloc.getInit())
    return;
  MemoryScope scope = cast<BufferType>(alloc.getType()).getScope();
  if (scope != MemoryScope::Fragment && scope != MemoryScope::Local)
    return;
  Block *block = alloc->getBlock();
  Operation *ancestor = block->findAncestorOpInBlock(*gemm);
  if (!ancestor)
    return;
  llvm::SmallPtrSet<Value, 4> aliases;
  aliases.insert(alloc.getResult());
  bool written = false;
  for (Operation *op = alloc->getNextNode(); op && !written;
       op = op->getNextNode()) {
    // Every op that starts before the gemm, nested ones included.
    op->walk<WalkOrder::PreOrder>([&](Operation *inner) {
      if (inner == gemm.getOperation())
        return WalkResult::interrupt();
      written |= writesAlias(inner, aliases);
      return written ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (op == ancestor)
      break;
  }
  if (written)
    return;
  std::string name = "the accumulator";
  if (auto n = dyn_cast<NameLoc>(alloc.getLoc()))
    name = "'" + n.getName().getValue().str() + "'";
  InFlightDiagnostic diag = gemm.emitWarning();
  diag << "T.gemm accumulates into " << name
       << ", which nothing has written yet: its value is undefined here "
          "(TileLang does not initialise fragments";
  if (isa<ForOp, PipelinedOp, WhileOp, ParallelOp>(block->getParentOp()))
    diag << "; one allocated in a loop body starts each iteration undefined";
  diag << "); clear it first (T.clear) or pass clear_accum=True";
  diag.attachNote(alloc.getLoc()) << name << " is allocated here";
}

struct TileCheckUndefinedAccumulatorsPass
    : public tile::impl::TileCheckUndefinedAccumulatorsBase<
          TileCheckUndefinedAccumulatorsPass> {
  void runOnOperation() override { warnUndefinedAccumulators(getOperation()); }
};
} // namespace

void tlc::tile::warnUndefinedAccumulators(Operation *root) {
  root->walk([](GemmOp gemm) { checkGemm(gemm); });
}
