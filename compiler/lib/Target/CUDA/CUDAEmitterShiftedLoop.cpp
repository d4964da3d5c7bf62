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
// iterations a body of one `if v < C` lets do anything. Which loops are
// such is tile::matchShiftedLoop's (FragmentExchangePlan.h), which the
// exchange choice asks too; this file prints them.
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

std::optional<Emitter::ShiftedLoop> Emitter::shiftedLoop(ParallelOp op) {
  auto lookup = [&](Value v) -> std::optional<layout::IndexedFragment> {
    auto it = fragments.find(v);
    if (it == fragments.end())
      return std::nullopt;
    return it->second.indexed();
  };
  std::optional<tile::ShiftedLoop> match =
      matchShiftedLoop(op, lookup, numThreads, intervals);
  if (!match)
    return std::nullopt;
  ShiftedLoop shifted;
  shifted.root = match->root;
  shifted.frag = &fragments.find(match->root)->second;
  for (Value off : match->offsets) {
    if (!off) {
      shifted.offsets.push_back("0");
      continue;
    }
    std::optional<std::string> text = invariantExpr(*this, off, op);
    if (!text)
      return std::nullopt; // isLoopInvariantOffset accepts what it prints
    shifted.offsets.push_back(*text);
  }
  shifted.extents = std::move(match->extents);
  shifted.loads = std::move(match->loads);
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
