//===- CppEmitterFastPath.cpp - Unchecked loops when a tile is in range ---===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The fast path of T.Parallel loops: every buffer access of the body whose
// indices are affine-like functions of the loop variables (sums,
// differences and products of loop variables, constants and values defined
// outside the loop; division and remainder by a positive constant) has a
// range over the whole iteration space that C++ can compute before the
// loop. When all those ranges lie inside their buffers, the loop runs with
// those accesses unchecked (and GCC can vectorise it); otherwise it runs
// with every check, as before. Both versions compute the same values: a
// check that cannot fail changes nothing.
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"
#include "tlc/Dialect/Tile/IR/ThreadUniformity.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::target;
using namespace tlc::target::detail;

/// True when \p v is defined outside \p scope (so its C++ name is in scope
/// and its value is the same in every iteration).
static bool isInvariant(Value v, Operation *scope) {
  Operation *owner =
      v.getParentBlock() ? v.getParentBlock()->getParentOp() : nullptr;
  if (auto r = dyn_cast<OpResult>(v))
    owner = r.getOwner();
  return owner && !scope->isAncestor(owner);
}

std::optional<Emitter::IndexRange>
Emitter::indexRange(Value v, tile::ParallelOp loop,
                    ArrayRef<std::string> extents, unsigned depth) {
  if (depth > 8)
    return std::nullopt;
  if (!v.getType().isIndex() && !v.getType().isInteger(64)) {
    // Narrower integers may wrap; only their invariant values are known.
    if (isInvariant(v, loop) && isa<IntegerType>(v.getType()))
      return IndexRange{"int64_t(" + expr(v) + ")", "int64_t(" + expr(v) + ")"};
    return std::nullopt;
  }
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c))) {
    std::string s = "INT64_C(" + std::to_string(c.getSExtValue()) + ")";
    return IndexRange{s, s};
  }
  if (isInvariant(v, loop))
    return IndexRange{"int64_t(" + expr(v) + ")", "int64_t(" + expr(v) + ")"};
  for (auto [d, iv] : llvm::enumerate(loop.getInductionVars()))
    if (v == iv)
      return IndexRange{"INT64_C(0)", "(int64_t(" + extents[d] + ") - 1)"};
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumOperands() == 0)
    return std::nullopt;
  auto sub = [&](unsigned i) {
    return indexRange(def->getOperand(i), loop, extents, depth + 1);
  };
  if (isa<arith::IndexCastOp, arith::ExtSIOp>(def))
    return sub(0);
  if (def->getNumOperands() != 2)
    return std::nullopt;
  auto a = sub(0), b = sub(1);
  if (!a || !b)
    return std::nullopt;
  if (isa<arith::AddIOp>(def))
    return IndexRange{"(" + a->min + " + " + b->min + ")",
                      "(" + a->max + " + " + b->max + ")"};
  if (isa<arith::SubIOp>(def))
    return IndexRange{"(" + a->min + " - " + b->max + ")",
                      "(" + a->max + " - " + b->min + ")"};
  APInt factor;
  if (isa<arith::MulIOp>(def) &&
      (matchPattern(def->getOperand(1), m_ConstantInt(&factor)) ||
       matchPattern(def->getOperand(0), m_ConstantInt(&factor)))) {
    // Scaling by a constant: the ends scale (and swap when it is negative).
    APInt unused;
    bool rhs = matchPattern(def->getOperand(1), m_ConstantInt(&unused));
    const IndexRange &x = rhs ? *a : *b;
    int64_t f = factor.getSExtValue();
    std::string fs = "INT64_C(" + std::to_string(f) + ")";
    std::string lo = "(" + x.min + " * " + fs + ")",
                hi = "(" + x.max + " * " + fs + ")";
    return f >= 0 ? IndexRange{lo, hi} : IndexRange{hi, lo};
  }
  if (isa<arith::MulIOp, arith::MaxSIOp, arith::MinSIOp>(def)) {
    // Extremes of a monotone (or bilinear) function are at the corners.
    const char *fn = isa<arith::MulIOp>(def)    ? "tlc::cpu::mulRange"
                     : isa<arith::MaxSIOp>(def) ? "tlc::cpu::maxRange"
                                                : "tlc::cpu::minRange";
    std::string args = a->min + ", " + a->max + ", " + b->min + ", " + b->max;
    return IndexRange{std::string(fn) + "(false, " + args + ")",
                      std::string(fn) + "(true, " + args + ")"};
  }
  // Division and remainder by a positive constant.
  APInt divisor;
  if (!matchPattern(def->getOperand(1), m_ConstantInt(&divisor)) ||
      divisor.getSExtValue() <= 0)
    return std::nullopt;
  std::string dv = "INT64_C(" + std::to_string(divisor.getSExtValue()) + ")";
  if (isa<arith::FloorDivSIOp>(def))
    return IndexRange{"tlc::cpu::floorDiv(" + a->min + ", " + dv + ")",
                      "tlc::cpu::floorDiv(" + a->max + ", " + dv + ")"};
  if (isa<arith::DivSIOp>(def))
    return IndexRange{"tlc::cpu::truncDiv(" + a->min + ", " + dv + ")",
                      "tlc::cpu::truncDiv(" + a->max + ", " + dv + ")"};
  if (isa<arith::RemSIOp>(def))
    return IndexRange{"(" + a->min + " >= 0 ? INT64_C(0) : 1 - " + dv + ")",
                      "(" + dv + " - 1)"};
  return std::nullopt;
}

std::vector<std::string>
Emitter::parallelFastCheck(tile::ParallelOp loop, ArrayRef<std::string> extents,
                           llvm::DenseSet<Operation *> &fast) {
  std::vector<std::string> checks;
  loop.getBody().walk([&](Operation *op) {
    Value buffer;
    ValueRange indices;
    if (auto l = dyn_cast<tile::LoadOp>(op)) {
      buffer = l.getBuffer();
      indices = l.getIndices();
    } else if (auto s = dyn_cast<tile::StoreOp>(op)) {
      buffer = s.getBuffer();
      indices = s.getIndices();
    } else {
      return;
    }
    if (indices.empty() || !isInvariant(buffer, loop))
      return;
    std::vector<std::string> mins, maxs;
    for (Value i : indices) {
      auto r = indexRange(i, loop, extents, 0);
      if (!r)
        return;
      mins.push_back(r->min);
      maxs.push_back(r->max);
    }
    checks.push_back("tlc::cpu::spans(" + expr(buffer) + ", {" +
                     llvm::join(mins, ", ") + "}, {" + llvm::join(maxs, ", ") +
                     "})");
    fast.insert(op);
  });
  // Each distinct check once.
  std::sort(checks.begin(), checks.end());
  checks.erase(std::unique(checks.begin(), checks.end()), checks.end());
  return checks;
}

bool tlc::target::detail::isLoopBarrier(Operation *op) {
  auto i = dyn_cast<tile::IntrinsicOp>(op);
  return i && (i.getCallee() == "T.sync_grid" || tile::isSharedStorageSync(op));
}

/// The barriers (isLoopBarrier) straight in the body of \p op, after
/// checking that the body can run as one loop nest per stretch between
/// them: each element in a thread of its own (what every thread did before
/// the barrier is done by all elements before it), and no value computed
/// before a barrier used after it. Failure after an error at the barrier.
static FailureOr<SmallVector<Operation *>>
gridBarriersOf(tile::ParallelOp op) {
  SmallVector<Operation *> barriers;
  Block &body = op.getBody().front();
  for (Operation &o : body)
    if (isLoopBarrier(&o))
      barriers.push_back(&o);
  if (barriers.empty())
    return barriers;
  std::optional<int64_t> threads;
  if (auto kernel = op->getParentOfType<tile::KernelOp>())
    threads = kernel.getStaticNumThreads();
  std::optional<int64_t> numel = 1;
  for (OpFoldResult e : op.getMixedExtents()) {
    std::optional<int64_t> c = getConstantIntValue(e);
    numel = c && numel ? std::optional<int64_t>(*numel * *c) : std::nullopt;
  }
  if (!threads || !numel || *numel > *threads) {
    barriers.front()->emitError()
        << cast<tile::IntrinsicOp>(barriers.front()).getCallee()
        << " inside a T.Parallel: the CPU target runs it only where every "
           "element of the loop has a thread of its own (a static loop of "
           "at most the block's threads)";
    return failure();
  }
  if (Operation *user = tile::findUseAcrossBarriers(body, barriers)) {
    user->emitError()
        << "the CPU target runs the stretches of a T.Parallel body "
           "between barriers as loops of their own: a value "
           "computed before the barrier cannot be used after it "
           "(keep it in a fragment or local buffer)";
    return failure();
  }
  return barriers;
}

LogicalResult Emitter::emitParallel(tile::ParallelOp op) {
  auto priv = privateLoops.find(op);
  if (priv != privateLoops.end())
    return emitPrivateParallel(op, priv->second);
  std::vector<std::string> exts;
  for (OpFoldResult e : op.getMixedExtents())
    exts.push_back(foldResult(e));
  FailureOr<SmallVector<Operation *>> barriers = gridBarriersOf(op);
  if (failed(barriers))
    return failure();
  // One loop nest per stretch of the body between grid barriers, the
  // barrier once between them (each element is a thread of its own).
  auto emitLoops = [&]() -> LogicalResult {
    auto ivs = op.getInductionVars();
    Block &body = op.getBody().front();
    auto next = body.begin();
    for (unsigned s = 0; s <= barriers->size(); ++s) {
      Operation *end = s < barriers->size() ? (*barriers)[s] : nullptr;
      for (auto [d, iv] : llvm::enumerate(ivs)) {
        std::string v = define(iv, "i");
        open("for (int64_t " + v + " = 0; " + v + " < " + exts[d] + "; ++" +
             v + ")");
      }
      for (; next != body.end() && &*next != end; ++next)
        if (failed(emitOp(&*next)))
          return failure();
      currentLoc = op->getLoc();
      closeLoops(ivs.size());
      if (end) {
        if (failed(emitOp(end)))
          return failure();
        ++next;
      }
    }
    return success();
  };
  llvm::DenseSet<Operation *> fast;
  std::vector<std::string> checks = parallelFastCheck(op, exts, fast);
  if (checks.empty()) {
    comment(op, "T.Parallel: one host loop per dimension");
    return emitLoops();
  }
  // Fast path first: the accesses whose ranges were checked run unchecked.
  comment(op, "T.Parallel: one host loop per dimension; unchecked when the " +
                  std::to_string(fast.size()) +
                  " accesses with known index ranges are in range");
  // One line per check (the source map counts lines).
  for (size_t c = 0; c + 1 < checks.size(); ++c)
    line((c ? "    " : "if (") + checks[c] + " &&");
  open((checks.size() > 1 ? "    " : "if (") + checks.back() + ")");
  for (Operation *f : fast)
    unguarded.insert(f);
  LogicalResult r = emitLoops();
  for (Operation *f : fast)
    unguarded.erase(f);
  if (failed(r))
    return failure();
  --indent;
  line("} else {");
  ++indent;
  if (failed(emitLoops()))
    return failure();
  close();
  return success();
}
