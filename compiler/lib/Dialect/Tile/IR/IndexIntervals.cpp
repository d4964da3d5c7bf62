//===- IndexIntervals.cpp - Static intervals of index values --------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Dialect/Tile/IR/IndexIntervals.h"

#include "tlc/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Matchers.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;

/// Values beyond this magnitude are treated as unknown (no overflow below).
static constexpr int64_t kLimit = int64_t(1) << 62;

static std::optional<IndexInterval> make(int64_t lo, int64_t hi, int64_t div) {
  if (lo < -kLimit || hi > kLimit || lo > hi)
    return std::nullopt;
  return IndexInterval{lo, hi, div < 0 ? -div : div};
}

static std::optional<IndexInterval> add(const IndexInterval &a, const IndexInterval &b) {
  return make(a.lo + b.lo, a.hi + b.hi, std::gcd(a.div, b.div));
}

static std::optional<IndexInterval> mul(const IndexInterval &a, const IndexInterval &b) {
  int64_t c[4];
  if (__builtin_mul_overflow(a.lo, b.lo, &c[0]) ||
      __builtin_mul_overflow(a.lo, b.hi, &c[1]) ||
      __builtin_mul_overflow(a.hi, b.lo, &c[2]) ||
      __builtin_mul_overflow(a.hi, b.hi, &c[3]))
    return std::nullopt;
  int64_t div;
  if (__builtin_mul_overflow(a.div, b.div, &div) || div > kLimit)
    div = 1;
  return make(*std::min_element(c, c + 4), *std::max_element(c, c + 4), div);
}

/// The positive constant \p r is, if it is one.
static std::optional<int64_t> positiveConstant(const IndexInterval &r) {
  if (r.lo == r.hi && r.lo > 0)
    return r.lo;
  return std::nullopt;
}

/// The divisor c of `select(remsi(x, c) < 0, remsi(x, c) + c, remsi(x, c))`,
/// the floor modulo the evaluator builds for Python's `x % c` (c a positive
/// constant), at \p def; std::nullopt for anything else.
static std::optional<int64_t> floorModDivisor(Operation *def) {
  auto sel = dyn_cast_or_null<arith::SelectOp>(def);
  if (!sel)
    return std::nullopt;
  auto rem = sel.getFalseValue().getDefiningOp<arith::RemSIOp>();
  auto add = sel.getTrueValue().getDefiningOp<arith::AddIOp>();
  auto cmp = sel.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!rem || !add || !cmp || cmp.getPredicate() != arith::CmpIPredicate::slt ||
      cmp.getLhs() != rem.getResult() || !matchPattern(cmp.getRhs(), m_Zero()))
    return std::nullopt;
  IntegerAttr c;
  if (!matchPattern(rem.getRhs(), m_Constant(&c)) || c.getInt() <= 0)
    return std::nullopt;
  Value other = add.getLhs() == rem.getResult() ? add.getRhs() : add.getLhs();
  IntegerAttr k;
  if ((add.getLhs() != rem.getResult() && add.getRhs() != rem.getResult()) ||
      !matchPattern(other, m_Constant(&k)) || k.getInt() != c.getInt())
    return std::nullopt;
  return c.getInt();
}

std::optional<IndexInterval> IndexIntervals::of(OpFoldResult r) {
  if (auto attr = dyn_cast<Attribute>(r)) {
    int64_t c = cast<IntegerAttr>(attr).getInt();
    return IndexInterval{c, c, c};
  }
  return of(cast<Value>(r));
}

std::optional<IndexVariableRange> tlc::tile::getIndexVariableRange(Value v) {
  Builder b(v.getContext());
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  auto below = [&](ArrayRef<OpFoldResult> extents,
                   unsigned n) -> std::optional<IndexVariableRange> {
    if (n >= extents.size())
      return std::nullopt;
    return IndexVariableRange{zero, extents[n], one};
  };
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    unsigned n = arg.getArgNumber();
    if (auto kernel = dyn_cast_or_null<KernelOp>(owner))
      return below(kernel.getMixedGrid(), n);
    if (auto par = dyn_cast_or_null<ParallelOp>(owner))
      return below(par.getMixedExtents(), n);
    if (auto loop = dyn_cast_or_null<ForOp>(owner); loop && n == 0)
      return IndexVariableRange{loop.getLowerBound(), loop.getUpperBound(),
                                loop.getStep()};
    if (auto pipe = dyn_cast_or_null<PipelinedOp>(owner); pipe && n == 0)
      return IndexVariableRange{pipe.getLowerBound(), pipe.getUpperBound(),
                                one};
    return std::nullopt;
  }
  if (auto tb = v.getDefiningOp<ThreadBindingOp>())
    if (auto kernel = tb->getParentOfType<KernelOp>())
      return below(kernel.getMixedThreads(), tb.getDim());
  return std::nullopt;
}

std::optional<IndexInterval> IndexIntervals::of(Value v) {
  auto cached = cache.find(v);
  if (cached != cache.end())
    return cached->second;
  cache[v] = std::nullopt; // cycles (while loops) stay unknown
  std::optional<IndexInterval> r;
  if (std::optional<IndexVariableRange> range = getIndexVariableRange(v)) {
    std::optional<IndexInterval> lb = of(range->lower),
                                 ub = of(range->upper),
                                 step = of(range->step);
    // A range that is empty even at its largest upper bound stays unknown
    // (a zero-extent grid that a launcher might still run once keeps its
    // guards).
    if (lb && ub && step && positiveConstant(*step) && ub->hi > lb->lo)
      r = make(lb->lo, ub->hi - 1, std::gcd(lb->div, step->lo));
    cache[v] = r;
    return r;
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt; // another block argument: unknown
  auto operand = [&](unsigned i) { return of(def->getOperand(i)); };
  IntegerAttr cst;
  if (matchPattern(v, m_Constant(&cst)) && cst.getType().isIntOrIndex()) {
    int64_t c = cst.getInt();
    r = IndexInterval{c, c, c};
  } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp>(
                 def)) {
    r = operand(0);
  } else if (std::optional<int64_t> c = floorModDivisor(def)) {
    // Python's `x % c` of a value of unknown sign (TileLang's floormod):
    // remsi, then c added where the remainder is negative.
    r = make(0, *c - 1, 1);
  } else if (auto sel = dyn_cast<arith::SelectOp>(def)) {
    std::optional<IndexInterval> a = of(sel.getTrueValue()),
                                 b = of(sel.getFalseValue());
    if (a && b)
      r = make(std::min(a->lo, b->lo), std::max(a->hi, b->hi),
               std::gcd(a->div, b->div));
  } else if (isa<arith::RemSIOp>(def) && !operand(0) && operand(1) &&
             positiveConstant(*operand(1))) {
    // The remainder of a value of unknown sign lies strictly between -c
    // and c.
    int64_t c = *positiveConstant(*operand(1));
    r = make(-(c - 1), c - 1, 1);
  } else if (def && def->getNumOperands() == 2 &&
             isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
                 arith::DivUIOp, arith::FloorDivSIOp, arith::CeilDivSIOp,
                 arith::RemSIOp, arith::RemUIOp, arith::MinSIOp,
                 arith::MaxSIOp>(def)) {
    std::optional<IndexInterval> a = operand(0), b = operand(1);
    if (a && b) {
      std::optional<int64_t> c = positiveConstant(*b);
      if (isa<arith::AddIOp>(def)) {
        r = add(*a, *b);
      } else if (isa<arith::SubIOp>(def)) {
        r = make(a->lo - b->hi, a->hi - b->lo, std::gcd(a->div, b->div));
      } else if (isa<arith::MulIOp>(def)) {
        r = mul(*a, *b);
      } else if (isa<arith::MinSIOp>(def)) {
        r = make(std::min(a->lo, b->lo), std::min(a->hi, b->hi),
                 std::gcd(a->div, b->div));
      } else if (isa<arith::MaxSIOp>(def)) {
        r = make(std::max(a->lo, b->lo), std::max(a->hi, b->hi),
                 std::gcd(a->div, b->div));
      } else if (c && a->lo >= 0) {
        if (isa<arith::DivSIOp, arith::DivUIOp, arith::FloorDivSIOp>(def))
          r = make(a->lo / *c, a->hi / *c,
                   a->div % *c == 0 ? a->div / *c : 1);
        else if (isa<arith::CeilDivSIOp>(def))
          r = make((a->lo + *c - 1) / *c, (a->hi + *c - 1) / *c, 1);
        else if (a->hi < *c) // remainder of a value below the divisor
          r = a;
        else
          r = make(0, *c - 1, std::gcd(a->div, *c));
      }
    }
  }
  cache[v] = r;
  return r;
}

std::optional<bool> IndexIntervals::decideCompare(arith::CmpIOp cmp) {
  Type t = cmp.getLhs().getType();
  if (!isa<IndexType>(t) && !(t.isInteger() && t.getIntOrFloatBitWidth() > 1))
    return std::nullopt;
  std::optional<IndexInterval> a = of(cmp.getLhs()),
                            b = of(cmp.getRhs());
  if (!a || !b)
    return std::nullopt;
  using P = arith::CmpIPredicate;
  P p = cmp.getPredicate();
  bool isUnsigned = p == P::ult || p == P::ule || p == P::ugt || p == P::uge;
  if (isUnsigned && (a->lo < 0 || b->lo < 0))
    return std::nullopt;
  // a < b holds everywhere when a.hi < b.lo and nowhere when a.lo >= b.hi.
  auto less = [](const IndexInterval &x,
                 const IndexInterval &y) -> std::optional<bool> {
    if (x.hi < y.lo)
      return true;
    if (x.lo >= y.hi)
      return false;
    return std::nullopt;
  };
  auto negate = [](std::optional<bool> v) -> std::optional<bool> {
    return v ? std::optional<bool>(!*v) : std::nullopt;
  };
  switch (p) {
  case P::slt:
  case P::ult:
    return less(*a, *b);
  case P::sge:
  case P::uge:
    return negate(less(*a, *b));
  case P::sgt:
  case P::ugt:
    return less(*b, *a);
  case P::sle:
  case P::ule:
    return negate(less(*b, *a));
  case P::eq:
  case P::ne: {
    std::optional<bool> equal;
    if (a->lo == a->hi && b->lo == b->hi)
      equal = a->lo == b->lo;
    else if (a->hi < b->lo || b->hi < a->lo)
      equal = false;
    return p == P::eq ? equal : negate(equal);
  }
  }
  return std::nullopt;
}

/// True when \p v is computed from a value read from memory (an element
/// of an index tensor), through a bounded walk of its definition.
static bool readFromMemory(Value v, unsigned depth = 0) {
  Operation *def = v.getDefiningOp();
  if (!def || depth > 32)
    return false;
  if (isa<LoadOp>(def))
    return true;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return readFromMemory(operand, depth + 1);
  });
}

std::optional<IndexInterval> IndexIntervals::ofIndex(Value v) {
  std::optional<IndexInterval> r = of(v);
  if (!r && readFromMemory(v)) {
    // Anything, negative values included.
    const int64_t big = int64_t(1) << 40;
    r = IndexInterval{-big, big, 1};
  }
  return r;
}
