//===- CUDAEmitterShiftedLoop.cpp - T.Parallel over shifted fragment reads -===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A T.Parallel loop that reads a fragment at its variables plus offsets
// the loop does not change (`acc[bi + s * 16, d]`, a row block chosen by an
// outer loop) has no fragment at exactly its variables to take a layout
// from. Instead of exchanging the whole fragment through shared memory, the
// loop runs over that fragment's slots: each thread takes the iterations
// v = (its element's coordinates) - offset that lie in the loop, so every
// read is of its own register. This is TileLang's loop layout derived from
// a buffer access, for the case where the derivation is a translation.
// Each iteration must then map into the fragment: the offsets' ranges are
// proven to keep v + offset inside it, after narrowing the loop to the
// iterations a body of one `if v < C` lets do anything.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

/// Whether \p op is \p loop or nested inside it.
static bool isInside(Operation *op, ParallelOp loop) {
  return op && loop->isAncestor(op);
}

/// A C++ expression of \p v, which must not depend on \p loop's variables
/// or on memory: a value defined outside the loop (named already) or
/// integer arithmetic of such values and constants inside it.
static std::optional<std::string> invariantExpr(Emitter &e, Value v,
                                                ParallelOp loop,
                                                unsigned depth = 0) {
  if (depth > 16)
    return std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(v))
    return isInside(arg.getOwner()->getParentOp(), loop)
               ? std::nullopt
               : std::optional<std::string>(e.expr(v));
  Operation *def = v.getDefiningOp();
  if (!isInside(def, loop))
    return e.expr(v);
  IntegerAttr c;
  if (matchPattern(v, m_Constant(&c)))
    return std::to_string(c.getInt());
  auto binary = [&](StringRef op) -> std::optional<std::string> {
    std::optional<std::string> a =
        invariantExpr(e, def->getOperand(0), loop, depth + 1);
    std::optional<std::string> b =
        invariantExpr(e, def->getOperand(1), loop, depth + 1);
    if (!a || !b)
      return std::nullopt;
    return "(" + *a + " " + op.str() + " " + *b + ")";
  };
  if (isa<arith::AddIOp>(def))
    return binary("+");
  if (isa<arith::SubIOp>(def))
    return binary("-");
  if (isa<arith::MulIOp>(def))
    return binary("*");
  return std::nullopt;
}

/// \p index as loop variable \p var plus an offset: the offset (null for
/// none), or failure.
static FailureOr<Value> offsetFrom(Value index, BlockArgument var) {
  if (index == var)
    return Value();
  auto add = index.getDefiningOp<arith::AddIOp>();
  if (!add)
    return failure();
  if (add.getLhs() == var)
    return add.getRhs();
  if (add.getRhs() == var)
    return add.getLhs();
  return failure();
}

std::optional<Emitter::ShiftedLoop> Emitter::shiftedLoop(ParallelOp op) {
  SmallVector<int64_t> extents;
  for (OpFoldResult ext : op.getMixedExtents()) {
    auto attr = dyn_cast<Attribute>(ext);
    if (!attr)
      return std::nullopt;
    extents.push_back(cast<IntegerAttr>(attr).getInt());
  }
  Block &body = op.getBody().front();
  // A body that is one `if v < C` (and pure arithmetic) does nothing at
  // v >= C.
  IfOp guard;
  unsigned effects = 0;
  for (Operation &o : body) {
    if (isMemoryEffectFree(&o))
      continue;
    ++effects;
    if (auto i = dyn_cast<IfOp>(o))
      guard = i;
  }
  if (guard && effects == 1 && !guard.elseBlock()) {
    auto cmp = guard.getCondition().getDefiningOp<arith::CmpIOp>();
    IntegerAttr c;
    if (cmp &&
        (cmp.getPredicate() == arith::CmpIPredicate::slt ||
         cmp.getPredicate() == arith::CmpIPredicate::ult) &&
        matchPattern(cmp.getRhs(), m_Constant(&c)))
      if (auto var = dyn_cast<BlockArgument>(cmp.getLhs());
          var && var.getOwner() == &body && c.getInt() >= 0)
        extents[var.getArgNumber()] =
            std::min(extents[var.getArgNumber()], c.getInt());
  }

  ShiftedLoop shifted;
  bool anyOffset = false;
  WalkResult walk = op.getBody().walk([&](Operation *o) {
    Value buf;
    if (auto l = dyn_cast<LoadOp>(o))
      buf = l.getBuffer();
    else if (auto s = dyn_cast<StoreOp>(o))
      buf = s.getBuffer();
    if (!buf || scopeOf(rootOf(buf)) != MemoryScope::Fragment)
      return WalkResult::advance();
    auto it = fragments.find(buf);
    // Fragments every thread holds whole are read as scalar code does.
    if (isa<LoadOp>(o) && it != fragments.end() && rootOf(buf) == buf &&
        isWholeInEveryThread(it->second) && buf != shifted.root)
      return WalkResult::advance();
    if (!isa<LoadOp>(o) || rootOf(buf) != buf || it == fragments.end() ||
        (shifted.root && shifted.root != buf))
      return WalkResult::interrupt();
    ValueRange indices = cast<LoadOp>(o).getIndices();
    if (indices.size() != extents.size() ||
        it->second.shape.size() != extents.size())
      return WalkResult::interrupt();
    SmallVector<std::string> offsets;
    for (auto [d, index] : llvm::enumerate(indices)) {
      FailureOr<Value> off = offsetFrom(index, body.getArgument(d));
      if (failed(off))
        return WalkResult::interrupt();
      if (!*off) {
        if (extents[d] > it->second.shape[d])
          return WalkResult::interrupt();
        offsets.push_back("0");
        continue;
      }
      std::optional<std::string> text = invariantExpr(*this, *off, op);
      std::optional<IndexRange> range = rangeOf(*off);
      // v + offset stays inside the fragment for every v and offset.
      if (!text || !range || range->lo < 0 ||
          range->hi + extents[d] > it->second.shape[d])
        return WalkResult::interrupt();
      offsets.push_back(*text);
      anyOffset = true;
    }
    if (shifted.root && offsets != shifted.offsets)
      return WalkResult::interrupt();
    shifted.root = buf;
    shifted.frag = &it->second;
    shifted.offsets = offsets;
    shifted.loads.push_back(o);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || !shifted.root || !anyOffset)
    return std::nullopt;
  shifted.extents = extents;
  return shifted;
}

LogicalResult Emitter::emitShiftedLoop(ParallelOp op,
                                       const ShiftedLoop &shifted) {
  const FragmentInfo &frag = *shifted.frag;
  std::string reg = fresh("r");
  open("");
  open(frag.threadExtent < numThreads
           ? "if (tid < " + Twine(frag.threadExtent) + ")"
           : Twine(""));
  // One replica of each element runs its iteration.
  open(frag.ifOneReplica());
  line("#pragma unroll");
  open("for (int " + reg + " = 0; " + reg + " < " + Twine(frag.regs) +
       "; ++" + reg + ")");
  SmallVector<std::string> coords = emitCoords(frag, reg, "x");
  std::string inLoop;
  for (auto [v, arg] : llvm::enumerate(op.getInductionVars())) {
    std::string name = fresh("i" + std::to_string(v));
    const std::string &off = shifted.offsets[v];
    line("const int " + name + " = " + coords[v] +
         (off == "0" ? std::string() : " - " + off) + ";");
    names[arg] = name;
    if (off != "0")
      inLoop += (inLoop.empty() ? "" : " && ") + name + " >= 0";
    if (shifted.extents[v] < frag.shape[v] || off != "0")
      inLoop += (inLoop.empty() ? "" : " && ") + name + " < " +
                std::to_string(shifted.extents[v]);
  }
  open(inLoop.empty() ? "" : "if (" + inLoop + ")");
  for (Operation *load : shifted.loads)
    fragmentAccess[load] = expr(shifted.root) + "[" + reg + "]";
  // The replica test above already leaves one thread per element.
  std::string savedReg = parallelReg, savedGuard = replicaGuard;
  parallelReg = reg;
  replicaGuard.clear();
  LogicalResult r = emitBlock(op.getBody().front(), /*allowBarriers=*/false);
  parallelReg = savedReg;
  replicaGuard = savedGuard;
  if (failed(r))
    return failure();
  close();
  close();
  close();
  close();
  close();
  return success();
}
