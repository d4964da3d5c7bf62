//===- Propagation.cpp - Deriving layouts from other layouts --------------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reductions are the interesting case. The thread map of a fragment is a sum
// of digits of its inputs (`32 * ((j // 64) % 2) + (j % 8) // 2 + ...`).
// Reducing over x keeps the terms without x and turns each digit of x into a
// digit of a new replica input: if the thread depends on the digits
// (x // a_k) % m_k, every result element is held by prod(m_k) threads (times
// the old replication), and replica r' selects digit k as
// (r' // (R * prod_{l<k} m_l)) % m_k. The register index is the old one at
// x = 0, renumbered densely when that keeps slots distinct.
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/Propagation.h"
#include "tlc/Layout/EnumerationLimit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>

using namespace tlc::layout;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

//===----------------------------------------------------------------------===//
// Digits of one input inside an expression
//===----------------------------------------------------------------------===//

namespace {
/// `(x // div) % mod` for the input x under analysis; mod is normalised to at
/// most ceil(extent / div).
using DigitKey = std::pair<int64_t, int64_t>;

class DigitAnalysis {
public:
  DigitAnalysis(unsigned var, int64_t extent) : var(var), extent(extent) {}

  /// Recognises \p e as a digit of x.
  std::optional<DigitKey> asDigit(const IndexExpr &e) const {
    int64_t div = 1, mod = 0;
    IndexExpr base = e;
    if (base.kind() == IndexKind::Mod) {
      std::optional<int64_t> m = base.rhs().getConstant();
      if (!m || *m <= 0)
        return std::nullopt;
      mod = *m;
      base = base.lhs();
    }
    if (base.kind() == IndexKind::FloorDiv) {
      std::optional<int64_t> a = base.rhs().getConstant();
      if (!a || *a <= 0)
        return std::nullopt;
      div = *a;
      base = base.lhs();
    }
    if (base.kind() != IndexKind::Var || base.getVarId() != var)
      return std::nullopt;
    int64_t range = (extent + div - 1) / div;
    if (mod == 0 || mod > range)
      mod = range;
    return DigitKey{div, mod};
  }

  /// Collects every digit of x in \p e; false when x appears in any other
  /// form.
  bool collect(const IndexExpr &e, std::vector<DigitKey> &out) const {
    if (!e.dependsOn(var))
      return true;
    if (std::optional<DigitKey> d = asDigit(e)) {
      if (!llvm::is_contained(out, *d))
        out.push_back(*d);
      return true;
    }
    switch (e.kind()) {
    case IndexKind::Add:
      return collect(e.lhs(), out) && collect(e.rhs(), out);
    case IndexKind::Mul:
      if (e.lhs().isConstant())
        return collect(e.rhs(), out);
      if (e.rhs().isConstant())
        return collect(e.lhs(), out);
      return false;
    default:
      return false;
    }
  }

  /// Replaces every digit of x in \p e by `replacement[digit]`.
  IndexExpr replace(const IndexExpr &e,
                    const std::map<DigitKey, IndexExpr> &replacement) const {
    if (!e.dependsOn(var))
      return e;
    if (std::optional<DigitKey> d = asDigit(e))
      return replacement.at(*d);
    return makeBinary(e.kind(), replace(e.lhs(), replacement),
                      replace(e.rhs(), replacement));
  }

private:
  unsigned var;
  int64_t extent;
};
} // namespace

/// Splits a sum into `coef * atom` terms (constants dropped). False when a
/// term is not of that form.
static bool splitTerms(const IndexExpr &e,
                       std::vector<std::pair<int64_t, IndexExpr>> &terms) {
  switch (e.kind()) {
  case IndexKind::Const:
    return true;
  case IndexKind::Add:
    return splitTerms(e.lhs(), terms) && splitTerms(e.rhs(), terms);
  case IndexKind::Mul:
    if (std::optional<int64_t> c = e.lhs().getConstant()) {
      terms.push_back({*c, e.rhs()});
      return true;
    }
    break;
  default:
    break;
  }
  terms.push_back({1, e});
  return true;
}

/// Renumbers a register index densely: terms ordered by coefficient get
/// mixed-radix coefficients from their ranges. std::nullopt when a term has
/// a negative coefficient or unknown bounds.
static std::optional<IndexExpr> compactIndex(const IndexExpr &index,
                                             const VarRanges &ranges) {
  std::vector<std::pair<int64_t, IndexExpr>> terms;
  if (!splitTerms(index, terms))
    return std::nullopt;
  llvm::stable_sort(terms, [](const auto &a, const auto &b) {
    return a.first < b.first;
  });
  IndexExpr result = IndexExpr::constant(0);
  int64_t stride = 1;
  for (auto &[coef, atom] : terms) {
    std::optional<IndexRange> b = bounds(atom, ranges);
    if (coef <= 0 || !b || b->lo != 0)
      return std::nullopt;
    result = result + atom * stride;
    stride *= b->size();
  }
  return simplify(result, ranges);
}

static std::string reducedTag(const Fragment &src, unsigned dim) {
  std::string base = src.getOrigin().tag.empty() ? "fragment"
                                                 : src.getOrigin().tag;
  if (src.getInputRank() == 2)
    return base + (dim == 1 ? " row" : " col");
  return base + " reduced";
}

llvm::Expected<Fragment> tlc::layout::reduceFragment(const Fragment &src,
                                                     unsigned dim) {
  unsigned rank = src.getInputRank();
  if (dim >= rank)
    return makeError("cannot reduce dimension " + llvm::Twine(dim) +
                     " of a rank-" + llvm::Twine(rank) + " fragment");
  int64_t extent = src.getInputShape()[dim];
  int64_t oldRep = src.getReplicate();
  DigitAnalysis analysis(dim, extent);
  std::vector<DigitKey> digits;
  if (!analysis.collect(src.getForwardThread(), digits))
    return makeError("cannot reduce over " + inputName(dim) + ": thread map '" +
                     src.getForwardThread().str() +
                     "' is not a sum of its digits");
  llvm::sort(digits);
  for (size_t k = 0; k < digits.size(); ++k) {
    auto [div, mod] = digits[k];
    if (extent % div != 0 || (extent / div) % mod != 0 ||
        (k + 1 < digits.size() && digits[k + 1].first < div * mod))
      return makeError("cannot reduce over " + inputName(dim) +
                       ": its digits in thread map '" +
                       src.getForwardThread().str() + "' overlap");
  }

  // Thread: each digit of x becomes a digit of the new replica input
  // (temporary id rank + 1), the old replica its lowest digit.
  unsigned tmpRep = rank + 1;
  IndexExpr newRep = IndexExpr::var(tmpRep, "rep");
  std::map<DigitKey, IndexExpr> replacement;
  int64_t stride = oldRep;
  for (const DigitKey &d : digits) {
    replacement[d] = floorMod(floorDiv(newRep, stride), d.second);
    stride *= d.second;
  }
  int64_t replicate = stride;
  IndexExpr thread = analysis.replace(src.getForwardThread(), replacement);

  std::vector<IndexExpr> shift(rank + 1);
  for (unsigned d = dim + 1; d < rank; ++d)
    shift[d] = IndexExpr::var(d - 1, inputName(d - 1));
  shift[rank] = floorMod(newRep, oldRep);
  std::vector<IndexExpr> toFinalRep(tmpRep + 1);
  toFinalRep[tmpRep] = IndexExpr::var(rank - 1, "rep");
  thread = substitute(substitute(thread, shift), toFinalRep);

  // Index: the old index at x = 0.
  std::vector<IndexExpr> atZero = shift;
  atZero[dim] = IndexExpr::constant(0);
  atZero[rank] = IndexExpr();
  std::vector<int64_t> shape = src.getInputShape().vec();
  shape.erase(shape.begin() + dim);
  VarRanges ranges = rangesFor(shape);
  std::vector<IndexExpr> index;
  for (const IndexExpr &e : src.getForwardIndex())
    index.push_back(simplify(substitute(e, atZero), ranges));

  FragmentOrigin origin = src.getOrigin();
  origin.tag = reducedTag(src, dim);
  int64_t threads = src.getThreadExtent();
  if (index.size() == 1) {
    if (std::optional<IndexExpr> dense = compactIndex(index[0], ranges)) {
      llvm::Expected<Fragment> f =
          Fragment::get(shape, {*dense}, thread, replicate, origin);
      if (!f) {
        llvm::consumeError(f.takeError());
      } else {
        llvm::Error err = f->verify(threads);
        if (!err)
          return f;
        llvm::consumeError(std::move(err));
      }
    }
  }
  llvm::Expected<Fragment> f =
      Fragment::get(shape, index, thread, replicate, origin);
  if (!f)
    return f.takeError();
  if (llvm::Error err = f->verify(threads))
    return makeError("reducing over " + inputName(dim) +
                     " gives an invalid layout: " +
                     llvm::toString(std::move(err)));
  return f;
}

llvm::Expected<Fragment> tlc::layout::reduceFragmentKeepDim(const Fragment &src,
                                                            unsigned dim) {
  llvm::Expected<Fragment> reduced = reduceFragment(src, dim);
  if (!reduced)
    return reduced.takeError();
  // Inputs at or after dim move up by one; `rep` (id rank - 1 of the
  // reduced fragment) becomes id rank.
  unsigned rank = src.getInputRank();
  std::vector<IndexExpr> shift(rank);
  for (unsigned d = 0; d + 1 < rank; ++d) {
    unsigned to = d < dim ? d : d + 1;
    shift[d] = IndexExpr::var(to, inputName(to));
  }
  shift[rank - 1] = IndexExpr::var(rank, "rep");
  std::vector<IndexExpr> index;
  for (const IndexExpr &e : reduced->getForwardIndex())
    index.push_back(substitute(e, shift));
  std::vector<int64_t> shape = src.getInputShape().vec();
  shape[dim] = 1;
  return Fragment::get(shape, index,
                       substitute(reduced->getForwardThread(), shift),
                       reduced->getReplicate(), reduced->getOrigin());
}

//===----------------------------------------------------------------------===//
// Reshapes
//===----------------------------------------------------------------------===//

llvm::Expected<Fragment>
tlc::layout::reshapeFragment(const Fragment &src,
                             llvm::ArrayRef<int64_t> shape) {
  llvm::ArrayRef<int64_t> srcShape = src.getInputShape();
  if (numElements(srcShape) != numElements(shape))
    return makeError("a reshape of " + llvm::Twine(numElements(srcShape)) +
                     " elements into " + llvm::Twine(numElements(shape)) +
                     " changes the element count");
  // The flat (row-major) position of a coordinate of the new shape ...
  unsigned rank = shape.size(), srcRank = srcShape.size();
  IndexExpr flat = IndexExpr::constant(0);
  for (unsigned d = 0; d < rank; ++d)
    flat = flat * shape[d] + IndexExpr::var(d, inputName(d));
  // ... is the source coordinate x_d = (flat // stride_d) % extent_d; the
  // source's `rep` (id srcRank) is the new one (id rank).
  std::vector<IndexExpr> coord(srcRank + 1);
  int64_t stride = 1;
  for (int d = int(srcRank) - 1; d >= 0; --d) {
    coord[d] = floorMod(floorDiv(flat, stride), srcShape[d]);
    stride *= srcShape[d];
  }
  coord[srcRank] = IndexExpr::var(rank, "rep");
  std::vector<IndexExpr> index;
  for (const IndexExpr &e : src.getForwardIndex())
    index.push_back(substitute(e, coord));
  llvm::Expected<Fragment> f =
      Fragment::get(shape.vec(), std::move(index),
                    substitute(src.getForwardThread(), coord),
                    src.getReplicate(), src.getOrigin());
  if (!f)
    return f.takeError();
  if (f->getIndexShape() != src.getIndexShape() ||
      f->getThreadExtent() != src.getThreadExtent())
    return makeError("the reshaped layout does not keep the source's "
                     "registers and threads");
  return f;
}

//===----------------------------------------------------------------------===//
// T.Parallel loops
//===----------------------------------------------------------------------===//

/// How loop variable \p v appears in \p e: 0 when it does not, the divisor
/// c when every occurrence is `v // c` with one constant c, and -1 otherwise
/// (a plain use, or a use through another operator).
static int64_t divisorOfVar(const IndexExpr &e, unsigned v) {
  if (!e || !e.dependsOn(v))
    return 0;
  if (e.kind() == IndexKind::FloorDiv && e.lhs().kind() == IndexKind::Var &&
      e.lhs().getVarId() == v && e.rhs().isConstant() &&
      *e.rhs().getConstant() > 0)
    return *e.rhs().getConstant();
  if (e.kind() == IndexKind::Var || e.kind() == IndexKind::Const)
    return -1;
  int64_t l = divisorOfVar(e.lhs(), v), r = divisorOfVar(e.rhs(), v);
  if (l < 0 || r < 0 || (l && r && l != r))
    return -1;
  return l ? l : r;
}

/// The registers of a loop that runs each iteration p on the thread holding
/// element access(p) of a buffer, when several iterations read one element
/// (`b[i, j // 2]`, or `m[i]` in a loop over (i, j)): the buffer's register
/// of that element, then what the access drops of each loop variable (`j %
/// 2`; the whole variable when the access does not use it). TileLang derives
/// the loop's thread the same way and numbers each thread's iterations.
static std::vector<IndexExpr>
registersOfGatheringLoop(std::vector<IndexExpr> index,
                         llvm::ArrayRef<IndexExpr> access, unsigned loopRank) {
  for (unsigned v = 0; v < loopRank; ++v) {
    int64_t divisor = 0;
    bool plain = false;
    for (const IndexExpr &e : access) {
      int64_t d = divisorOfVar(e, v);
      if (d < 0) {
        // A dimension indexed by v itself keeps v whole; through another
        // expression, v is kept as it is.
        plain = e.kind() == IndexKind::Var && e.getVarId() == v;
        divisor = -1;
        break;
      }
      if (d && divisor && d != divisor) {
        divisor = -1;
        break;
      }
      if (d)
        divisor = d;
    }
    if (plain)
      continue;
    IndexExpr var = IndexExpr::var(v, inputName(v));
    if (divisor > 0)
      index.push_back(floorMod(var, divisor));
    else
      index.push_back(var);
  }
  return index;
}

llvm::Expected<Fragment>
tlc::layout::loopLayoutFromBuffer(const Fragment &buffer,
                                  llvm::ArrayRef<IndexExpr> access,
                                  llvm::ArrayRef<int64_t> loopShape) {
  unsigned bufRank = buffer.getInputRank(), loopRank = loopShape.size();
  if (access.size() != bufRank)
    return makeError("access has " + llvm::Twine(access.size()) +
                     " indices for a rank-" + llvm::Twine(bufRank) +
                     " buffer");
  bool identity = loopShape == buffer.getInputShape();
  for (auto [d, e] : llvm::enumerate(access)) {
    if (!e)
      return makeError("null access index");
    for (unsigned id : e.collectVars())
      if (id >= loopRank)
        return makeError("access index '" + e.str() +
                         "' uses a variable outside the loop nest");
    identity = identity && e.kind() == IndexKind::Var && e.getVarId() == d;
  }
  if (identity)
    return buffer;
  // Bounded: the loop layout is checked per iteration and replica. A loop
  // reading a fragment every thread holds (a row vector replicated over 256
  // threads, read in a (449, 128) loop) would place 14.7M of them.
  int64_t placements = 0;
  if (llvm::MulOverflow(numElementsSaturated(loopShape),
                        buffer.getReplicate(), placements) ||
      placements > kMaxEnumeratedInputs)
    return makeError("the loop's iterations times the fragment's " +
                     llvm::Twine(buffer.getReplicate()) +
                     " replicas are more than the " +
                     llvm::Twine(kMaxEnumeratedInputs) +
                     " placements checked one by one");

  // Every access must stay inside the buffer.
  std::string outside;
  forEachCoord(loopShape, [&](llvm::ArrayRef<int64_t> iv) {
    if (!outside.empty())
      return;
    for (auto [d, e] : llvm::enumerate(access)) {
      std::optional<int64_t> v = e.evaluate(iv);
      if (!v || *v < 0 || *v >= buffer.getInputShape()[d]) {
        outside = "access index '" + e.str() + "' leaves the buffer";
        return;
      }
    }
  });
  if (!outside.empty())
    return makeError(outside);

  std::vector<IndexExpr> repl(access.begin(), access.end());
  repl.push_back(IndexExpr::var(loopRank, "rep"));
  std::vector<IndexExpr> index;
  for (const IndexExpr &e : buffer.getForwardIndex())
    index.push_back(substitute(e, repl));
  IndexExpr thread = substitute(buffer.getForwardThread(), repl);
  llvm::Expected<Fragment> f =
      Fragment::get(loopShape.vec(), index, thread, buffer.getReplicate(),
                    buffer.getOrigin());
  if (!f)
    return f.takeError();
  llvm::Error err = f->verify(f->getThreadExtent());
  if (!err)
    return f;
  // Several iterations read one element: they run on its thread, each in a
  // register of its own.
  llvm::Expected<Fragment> gathering = Fragment::get(
      loopShape.vec(), registersOfGatheringLoop(index, access, loopRank),
      thread, buffer.getReplicate(), buffer.getOrigin());
  if (!gathering) {
    llvm::consumeError(gathering.takeError());
  } else if (llvm::Error bad = gathering->verify(gathering->getThreadExtent())) {
    llvm::consumeError(std::move(bad));
  } else {
    llvm::consumeError(std::move(err));
    return gathering;
  }
  return makeError("the loop layout derived from the buffer is not "
                   "injective: " +
                   llvm::toString(std::move(err)));
}

llvm::Expected<Fragment>
tlc::layout::completeBufferFragment(const Fragment &loop,
                                    llvm::ArrayRef<IndexExpr> access,
                                    llvm::ArrayRef<int64_t> bufferShape) {
  unsigned loopRank = loop.getInputRank();
  if (access.size() != bufferShape.size())
    return makeError("access has " + llvm::Twine(access.size()) +
                     " indices for a rank-" +
                     llvm::Twine(bufferShape.size()) + " buffer");
  std::vector<int> bufferDimOf(loopRank, -1);
  for (auto [d, e] : llvm::enumerate(access)) {
    // A unit dimension read at 0 (`m[i, 0]` of an [M, 1] fragment): every
    // holder of the row holds it.
    if (e && e.kind() == IndexKind::Const && e.getConstant() == 0 &&
        bufferShape[d] == 1)
      continue;
    if (!e || e.kind() != IndexKind::Var || e.getVarId() >= loopRank)
      return makeError("cannot derive a fragment layout through access '" +
                       (e ? e.str() : std::string("<null>")) +
                       "': each index must be a loop variable");
    unsigned v = e.getVarId();
    if (bufferDimOf[v] != -1)
      return makeError("loop variable " + inputName(v) +
                       " indexes two dimensions of the buffer");
    if (loop.getInputShape()[v] != bufferShape[d])
      return makeError("buffer dimension " + llvm::Twine(d) + " has extent " +
                       llvm::Twine(bufferShape[d]) + " but loop variable " +
                       inputName(v) + " runs to " +
                       llvm::Twine(loop.getInputShape()[v]));
    bufferDimOf[v] = d;
  }
  // Fold the loop variables the access does not use into replication.
  Fragment f = loop;
  std::vector<unsigned> kept;
  for (int v = loopRank - 1; v >= 0; --v) {
    if (bufferDimOf[v] != -1)
      continue;
    llvm::Expected<Fragment> reduced = reduceFragment(f, v);
    if (!reduced)
      return reduced.takeError();
    f = std::move(*reduced);
  }
  for (unsigned v = 0; v < loopRank; ++v)
    if (bufferDimOf[v] != -1)
      kept.push_back(v);
  // Reorder: position p of the reduced fragment is loop variable kept[p],
  // which is buffer dimension bufferDimOf[kept[p]].
  unsigned rank = kept.size();
  std::vector<IndexExpr> perm(rank + 1);
  for (unsigned p = 0; p < rank; ++p) {
    unsigned d = bufferDimOf[kept[p]];
    perm[p] = IndexExpr::var(d, inputName(d));
  }
  if (bufferShape.size() != rank) // unit dimensions: `rep` moves up
    perm[rank] = IndexExpr::var(bufferShape.size(), "rep");
  std::vector<IndexExpr> index;
  for (const IndexExpr &e : f.getForwardIndex())
    index.push_back(substitute(e, perm));
  IndexExpr thread = substitute(f.getForwardThread(), perm);
  return Fragment::get(bufferShape.vec(), index, thread, f.getReplicate(),
                       f.getOrigin());
}

//===----------------------------------------------------------------------===//
// Free choice
//===----------------------------------------------------------------------===//

llvm::Expected<Fragment>
tlc::layout::planLoopPartition(llvm::ArrayRef<int64_t> loopShape,
                               int64_t threads, int64_t vectorWidth) {
  // The argument checks are planGuardedLoopPartition's; without a guard the
  // rounds must also be whole.
  int64_t total = numElements(loopShape);
  if (threads > 0 && vectorWidth > 0 && total % vectorWidth == 0 &&
      total > threads * vectorWidth && total % (threads * vectorWidth) != 0)
    return makeError("trip count " + llvm::Twine(total) +
                     " is not a multiple of " + llvm::Twine(threads) +
                     " threads x " + llvm::Twine(vectorWidth) + " lanes");
  return planGuardedLoopPartition(loopShape, threads, vectorWidth);
}

llvm::Expected<Fragment>
tlc::layout::planGuardedLoopPartition(llvm::ArrayRef<int64_t> loopShape,
                                      int64_t threads, int64_t vectorWidth) {
  int64_t total = numElements(loopShape);
  if (threads <= 0 || vectorWidth <= 0)
    return makeError("threads and vector width must be positive");
  if (total % vectorWidth != 0)
    return makeError("vector width " + llvm::Twine(vectorWidth) +
                     " does not divide the trip count " + llvm::Twine(total));
  IndexExpr flat = IndexExpr::constant(0);
  int64_t stride = 1;
  for (int d = static_cast<int>(loopShape.size()) - 1; d >= 0; --d) {
    flat = flat + IndexExpr::var(d, inputName(d)) * stride;
    stride *= loopShape[d];
  }
  IndexExpr thread = floorMod(floorDiv(flat, vectorWidth), threads);
  IndexExpr index = floorDiv(flat, vectorWidth * threads) * vectorWidth +
                    floorMod(flat, vectorWidth);
  return Fragment::get(loopShape.vec(), {index}, thread, 1, {"parallel"});
}

/// planReduciblePartition() for the shapes whose flat other index is not
/// linear in the bits of its coordinates (a 12 x 24 x 20 summed over its
/// middle dimension: o = 20 i + k): the b = threads / a thread groups are
/// split per dimension instead, dimension d taking 2^t_d of them
/// (2^t_d <= its extent, so every thread holds an element), `thread = x % a
/// + a * (sum of (c_d % 2^t_d) * prefix)`. Each coordinate's rounds
/// c_d / 2^t_d (and x / a) are one register digit; every digit but the
/// highest is padded to a power of two (registers linear in the bits of the
/// coordinates; the padding slots lie outside the tile: guarded). The split
/// and the highest digit are chosen for the fewest registers.
static llvm::Expected<Fragment>
planReduciblePartitionByDims(llvm::ArrayRef<int64_t> shape, int64_t threads,
                             unsigned dim, int64_t a) {
  unsigned bits = llvm::Log2_64(threads / a);
  // Other dimensions, innermost first.
  llvm::SmallVector<unsigned, 4> dims;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d)
    if (static_cast<unsigned>(d) != dim)
      dims.push_back(d);
  int64_t xRounds = shape[dim] / a;
  llvm::SmallVector<unsigned, 4> split(dims.size(), 0), best;
  int64_t bestRegs = std::numeric_limits<int64_t>::max();
  size_t bestTop = 0;
  // Registers of a split with the highest digit the one that needs the
  // fewest (index dims.size() is x); max() where no order serves. The
  // reduction renumbers the result's registers densely (reduceFragment):
  // of the digits other than x, all but the highest must have a power of
  // two of rounds for its registers to stay linear too.
  auto cost = [&](llvm::ArrayRef<unsigned> t, size_t &top) {
    llvm::SmallVector<int64_t, 5> rounds;
    for (size_t k = 0; k < dims.size(); ++k)
      rounds.push_back(llvm::divideCeil(shape[dims[k]], int64_t(1) << t[k]));
    rounds.push_back(xRounds);
    int64_t regs = std::numeric_limits<int64_t>::max();
    for (size_t k = 0; k < rounds.size(); ++k) {
      llvm::SmallVector<size_t, 5> order;
      for (size_t o = 0; o < rounds.size(); ++o)
        if (o != k)
          order.push_back(o);
      order.push_back(k);
      size_t highest =
          order.back() == dims.size() ? order[order.size() - 2] : order.back();
      bool linear = true;
      int64_t stride = 1, last = 0;
      for (size_t o : order) {
        if (o != dims.size() && o != highest && !llvm::isPowerOf2_64(rounds[o]))
          linear = false;
        last += (rounds[o] - 1) * stride;
        stride *= static_cast<int64_t>(llvm::PowerOf2Ceil(rounds[o]));
      }
      if (linear && last + 1 < regs) {
        regs = last + 1;
        top = k;
      }
    }
    return regs;
  };
  std::function<void(size_t, unsigned)> search = [&](size_t k, unsigned left) {
    if (k == dims.size()) {
      size_t top = 0;
      int64_t regs = left ? bestRegs : cost(split, top);
      if (regs < bestRegs) {
        bestRegs = regs;
        best = split;
        bestTop = top;
      }
      return;
    }
    for (unsigned t = 0; t <= left && (int64_t(1) << t) <= shape[dims[k]];
         ++t) {
      split[k] = t;
      search(k + 1, left - t);
    }
  };
  search(0, bits);
  if (best.empty() || bestRegs == std::numeric_limits<int64_t>::max())
    return makeError("cannot split " + llvm::Twine(threads / a) +
                     " thread groups over the dimensions other than " +
                     llvm::Twine(dim));
  IndexExpr x = IndexExpr::var(dim, inputName(dim));
  IndexExpr thread = floorMod(x, a);
  int64_t prefix = a;
  // Register digits low to high: the dimensions innermost first, then x,
  // the chosen highest digit last.
  llvm::SmallVector<std::pair<IndexExpr, int64_t>, 5> digits;
  for (size_t k = 0; k < dims.size(); ++k) {
    IndexExpr c = IndexExpr::var(dims[k], inputName(dims[k]));
    int64_t groups = int64_t(1) << best[k];
    if (groups > 1)
      thread = thread + floorMod(c, groups) * prefix;
    prefix *= groups;
    digits.push_back({groups > 1 ? floorDiv(c, groups) : c,
                      llvm::divideCeil(shape[dims[k]], groups)});
  }
  digits.push_back({floorDiv(x, a), xRounds});
  std::rotate(digits.begin() + bestTop, digits.begin() + bestTop + 1,
              digits.end());
  IndexExpr index = IndexExpr::constant(0);
  int64_t stride = 1;
  for (auto &[value, rounds] : digits) {
    index = index + value * stride;
    stride *= static_cast<int64_t>(llvm::PowerOf2Ceil(rounds));
  }
  return Fragment::get(shape.vec(), {index}, thread, 1, {"parallel"});
}

llvm::Expected<Fragment>
tlc::layout::planReduciblePartition(llvm::ArrayRef<int64_t> shape,
                                    int64_t threads, unsigned dim) {
  if (dim >= shape.size() || threads <= 0)
    return makeError("no dimension " + llvm::Twine(dim) + " to reduce");
  int64_t extent = shape[dim];
  int64_t others = numElements(shape) / std::max<int64_t>(extent, 1);
  int64_t a = 1;
  while (extent % (a * 2) == 0 && threads % (a * 2) == 0)
    a *= 2;
  int64_t b = threads / a;
  if (others < b)
    return makeError("too few elements outside dimension " + llvm::Twine(dim) +
                     " for " + llvm::Twine(b) + " thread groups");
  // The flat other index o is linear in the bits of its coordinates only
  // where every other dimension but the outermost is a power of two.
  for (unsigned d = 0, outer = dim == 0 ? 1 : 0; d < shape.size(); ++d)
    if (d != dim && d != outer && !llvm::isPowerOf2_64(shape[d]))
      return planReduciblePartitionByDims(shape, threads, dim, a);
  // o: the row-major flat index of the dimensions other than dim.
  IndexExpr o = IndexExpr::constant(0);
  int64_t stride = 1;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    if (static_cast<unsigned>(d) == dim)
      continue;
    o = o + IndexExpr::var(d, inputName(d)) * stride;
    stride *= shape[d];
  }
  IndexExpr x = IndexExpr::var(dim, inputName(dim));
  // The rounds of o take the low register bits, padded to a power of two
  // so that the registers stay linear in the bits of the coordinates (the
  // printers' tables); the padding slots lie outside the tile.
  int64_t rounds = llvm::PowerOf2Ceil((others + b - 1) / b);
  IndexExpr thread = floorMod(x, a) + floorMod(o, b) * a;
  IndexExpr index = floorDiv(x, a) * rounds + floorDiv(o, b);
  return Fragment::get(shape.vec(), {index}, thread, 1, {"parallel"});
}

int64_t tlc::layout::chooseVectorWidth(llvm::ArrayRef<int64_t> shape,
                                       unsigned elemBits, int64_t threads) {
  if (shape.empty() || elemBits == 0)
    return 1;
  int64_t total = numElements(shape);
  int64_t v = std::max<int64_t>(1, 128 / elemBits);
  while (v > 1 && (shape.back() % v != 0 || total % (threads * v) != 0))
    v /= 2;
  return v;
}

Fragment tlc::layout::defaultFragment(llvm::ArrayRef<int64_t> shape,
                                      unsigned elemBits, int64_t threads) {
  return *defaultFragmentWithin(shape, elemBits, threads,
                                std::numeric_limits<int64_t>::max());
}

std::optional<Fragment>
tlc::layout::defaultFragmentWithin(llvm::ArrayRef<int64_t> shape,
                                   unsigned elemBits, int64_t threads,
                                   int64_t maxSlots, bool guarded) {
  int64_t v = chooseVectorWidth(shape, elemBits, threads);
  llvm::Expected<Fragment> f = planLoopPartition(shape, threads, v);
  if (f)
    return std::move(*f);
  llvm::consumeError(f.takeError());
  // The threads do not divide the elements (64 x 64 on 384 threads): dealt
  // out in chunks of the widest vector the innermost extent allows, the
  // last round guarded, as inference partitions such a T.Parallel
  // (Solver::plannedPartition); each thread holds at most
  // ceil(elements / (threads x width)) chunks.
  if (guarded) {
    int64_t w = chooseVectorWidth(shape, elemBits, 1);
    f = planGuardedLoopPartition(shape, threads, w);
    if (f)
      return std::move(*f);
    llvm::consumeError(f.takeError());
  }
  return fullyReplicatedWithin(shape, threads, maxSlots);
}

bool tlc::layout::hasEmptySlots(const Fragment &f) {
  return f.getThreadExtent() * f.getRegsPerThread() >
         numElements(f.getInputShape()) * f.getReplicate();
}

std::optional<Fragment>
tlc::layout::fullyReplicatedWithin(llvm::ArrayRef<int64_t> shape,
                                   int64_t threads, int64_t maxSlots) {
  int64_t slots = threads;
  if (slots > maxSlots)
    return std::nullopt;
  for (int64_t e : shape)
    if (llvm::MulOverflow(slots, e, slots) || slots > maxSlots)
      return std::nullopt;
  return Fragment::fullyReplicated(shape, threads);
}

int64_t tlc::layout::registerCost(const Fragment &fragment) {
  return fragment.getRegsPerThread();
}

int tlc::layout::chooseCheapest(llvm::ArrayRef<Fragment> candidates) {
  int best = -1;
  for (auto [n, f] : llvm::enumerate(candidates))
    if (best < 0 || registerCost(f) < registerCost(candidates[best]))
      best = n;
  return best;
}

//===----------------------------------------------------------------------===//
// Conflicts
//===----------------------------------------------------------------------===//

llvm::Expected<Fragment> tlc::layout::mergeFragments(const Fragment &existing,
                                                     const Fragment &incoming,
                                                     InferLevel level) {
  if (existing.isEquivalentTo(incoming))
    return existing;
  if (level != InferLevel::Strict && incoming.contains(existing)) {
    // Each thread holds the same elements in both (they differ only in
    // register order): the one with fewer registers wins, the existing one
    // on a tie, so that merge(a, b) and merge(b, a) agree and propagation
    // cannot swap the two forever.
    if (existing.contains(incoming) &&
        existing.getRegsPerThread() <= incoming.getRegsPerThread())
      return existing;
    return incoming;
  }
  return makeError("conflicting fragment layouts: " + existing.shortLabel() +
                   " vs " + incoming.shortLabel());
}
