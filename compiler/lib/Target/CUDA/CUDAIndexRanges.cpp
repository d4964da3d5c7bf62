//===- CUDAIndexRanges.cpp - Static ranges of index values for CUDA ------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A small forward analysis over `index` values: from constants, block
// indices (the grid), thread bindings and loop bounds through + - * / %
// min max, the interval each value lies in and a divisor of it. The
// emitter drops a bounds guard only where the interval proves the access
// in bounds, and a vector alignment test only where the divisors prove it;
// everything unknown keeps its guard. It also picks the C++ width of
// `index` values (32-bit unless a constant or extent needs more).
//
//===----------------------------------------------------------------------===//

#include "EmitterImpl.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

#include <numeric>

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::target;
using namespace tlc::target::cuda_detail;

/// Values beyond this magnitude are treated as unknown (no overflow below).
static constexpr int64_t kLimit = int64_t(1) << 62;

static std::optional<IndexRange> make(int64_t lo, int64_t hi, int64_t div) {
  if (lo < -kLimit || hi > kLimit || lo > hi)
    return std::nullopt;
  return IndexRange{lo, hi, div < 0 ? -div : div};
}

static std::optional<IndexRange> add(const IndexRange &a, const IndexRange &b) {
  return make(a.lo + b.lo, a.hi + b.hi, std::gcd(a.div, b.div));
}

static std::optional<IndexRange> mul(const IndexRange &a, const IndexRange &b) {
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
static std::optional<int64_t> positiveConstant(const IndexRange &r) {
  if (r.lo == r.hi && r.lo > 0)
    return r.lo;
  return std::nullopt;
}

std::optional<IndexRange> Emitter::rangeOf(OpFoldResult r) {
  if (auto attr = dyn_cast<Attribute>(r)) {
    int64_t c = cast<IntegerAttr>(attr).getInt();
    return IndexRange{c, c, c};
  }
  return rangeOf(cast<Value>(r));
}

/// [0, extent - 1] for a loop or grid extent.
static std::optional<IndexRange> below(std::optional<IndexRange> extent) {
  if (!extent || extent->hi < 1)
    return std::nullopt;
  return IndexRange{0, extent->hi - 1, 1};
}

std::optional<IndexRange> Emitter::rangeOf(Value v) {
  auto cached = rangeCache.find(v);
  if (cached != rangeCache.end())
    return cached->second;
  rangeCache[v] = std::nullopt; // cycles (while loops) stay unknown
  std::optional<IndexRange> r;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    unsigned n = arg.getArgNumber();
    if (auto kernel = dyn_cast_or_null<KernelOp>(owner)) {
      SmallVector<OpFoldResult> grid = kernel.getMixedGrid();
      if (n < grid.size())
        r = below(rangeOf(grid[n]));
    } else if (auto par = dyn_cast_or_null<ParallelOp>(owner)) {
      SmallVector<OpFoldResult> ext = par.getMixedExtents();
      if (n < ext.size())
        r = below(rangeOf(ext[n]));
    } else if (auto loop = dyn_cast_or_null<ForOp>(owner)) {
      std::optional<IndexRange> lb = rangeOf(loop.getLowerBound()),
                                ub = rangeOf(loop.getUpperBound()),
                                step = rangeOf(loop.getStep());
      if (lb && ub && step && positiveConstant(*step))
        r = make(lb->lo, std::max(lb->lo, ub->hi - 1),
                 std::gcd(lb->div, step->lo));
    } else if (auto pipe = dyn_cast_or_null<PipelinedOp>(owner)) {
      std::optional<IndexRange> lb = rangeOf(pipe.getLowerBound()),
                                ub = rangeOf(pipe.getUpperBound());
      if (lb && ub)
        r = make(lb->lo, std::max(lb->lo, ub->hi - 1), 1);
    }
    rangeCache[v] = r;
    return r;
  }
  Operation *def = v.getDefiningOp();
  auto operand = [&](unsigned i) { return rangeOf(def->getOperand(i)); };
  IntegerAttr cst;
  if (matchPattern(v, m_Constant(&cst)) && cst.getType().isIntOrIndex()) {
    int64_t c = cst.getInt();
    r = IndexRange{c, c, c};
  } else if (auto tb = dyn_cast<ThreadBindingOp>(def)) {
    if (auto kernel = tb->getParentOfType<KernelOp>()) {
      SmallVector<OpFoldResult> threads = kernel.getMixedThreads();
      if (tb.getDim() < threads.size())
        r = below(rangeOf(threads[tb.getDim()]));
    }
  } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp>(
                 def)) {
    r = operand(0);
  } else if (def && def->getNumOperands() == 2 &&
             isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
                 arith::DivUIOp, arith::FloorDivSIOp, arith::CeilDivSIOp,
                 arith::RemSIOp, arith::RemUIOp, arith::MinSIOp,
                 arith::MaxSIOp>(def)) {
    std::optional<IndexRange> a = operand(0), b = operand(1);
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
  rangeCache[v] = r;
  return r;
}

std::optional<bool> Emitter::decideCompare(arith::CmpIOp cmp) {
  Type t = cmp.getLhs().getType();
  if (!isa<IndexType>(t) && !(t.isInteger() && t.getIntOrFloatBitWidth() > 1))
    return std::nullopt;
  std::optional<IndexRange> a = rangeOf(cmp.getLhs()),
                            b = rangeOf(cmp.getRhs());
  if (!a || !b)
    return std::nullopt;
  using P = arith::CmpIPredicate;
  P p = cmp.getPredicate();
  bool isUnsigned = p == P::ult || p == P::ule || p == P::ugt || p == P::uge;
  if (isUnsigned && (a->lo < 0 || b->lo < 0))
    return std::nullopt;
  // a < b holds everywhere when a.hi < b.lo and nowhere when a.lo >= b.hi.
  auto less = [](const IndexRange &x,
                 const IndexRange &y) -> std::optional<bool> {
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

bool Emitter::provenAligned(const RootAccess &access, int64_t vec) {
  if (vec <= 1)
    return true;
  auto type = cast<BufferType>(access.root.getType());
  unsigned rank = access.indices.size();
  if (access.ranges.size() != rank || rank == 0)
    return false;
  auto divides = [&](unsigned d, int64_t stride) {
    const std::optional<IndexRange> &r = access.ranges[d];
    int64_t div = r ? r->div : 1;
    // idx * stride is a multiple of div * stride.
    return div == 0 || (stride % vec == 0) || ((div * stride) % vec == 0);
  };
  if (auto lds = ldsSwizzle.find(access.root); lds != ldsSwizzle.end()) {
    // Runs of lds->second.vec elements stay contiguous and in place.
    int64_t rowLen = type.getShape().back();
    return lds->second.vec % vec == 0 && rowLen % vec == 0 &&
           divides(rank - 1, 1);
  }
  if (swizzled.count(access.root)) {
    // The swizzle permutes 16-byte chunks of a row and keeps the offset
    // inside a chunk: aligned when the column is and vec fits a chunk.
    int64_t rowLen = type.getShape().back();
    int64_t bytes = getElementStorageBytes(type.getElementType());
    return vec * bytes <= 16 && rowLen % vec == 0 && divides(rank - 1, 1);
  }
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    if (!divides(d, stride))
      return false;
    if (d == 0)
      break;
    Dim dim = type.getDim(d);
    if (!dim.isStatic())
      return false;
    stride *= dim.getValue();
  }
  return true;
}

void Emitter::chooseIndexWidth() {
  // 32-bit unless a constant or a static extent of the function needs more;
  // the global element offset of a large buffer is widened where it is
  // formed (linearIndex).
  const int64_t int32Max = (int64_t(1) << 31) - 1;
  wideIndex = false;
  func.walk([&](Operation *op) {
    IntegerAttr cst;
    for (Value r : op->getResults()) {
      if (isa<IndexType>(r.getType()) && matchPattern(r, m_Constant(&cst)) &&
          (cst.getInt() > int32Max || cst.getInt() < -int32Max))
        wideIndex = true;
      if (auto bt = dyn_cast<BufferType>(r.getType()))
        for (int64_t e : bt.getShape())
          if (e > int32Max)
            wideIndex = true;
    }
  });
  for (Value arg : func.getArguments())
    if (auto bt = dyn_cast<BufferType>(arg.getType()))
      for (unsigned d = 0; d < bt.getRank(); ++d)
        if (bt.getDim(d).isStatic() && bt.getDim(d).getValue() > int32Max)
          wideIndex = true;
}
