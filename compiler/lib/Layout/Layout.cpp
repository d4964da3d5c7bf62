//===- Layout.cpp - Index maps from logical to physical coordinates -------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "tlc/Layout/Layout.h"
#include "tlc/Layout/EnumerationLimit.h"
#include "Memo.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <limits>
#include <set>

using namespace tlc::layout;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::string tlc::layout::inputName(unsigned dim) {
  static const char *names[] = {"i", "j", "k", "l", "m", "n"};
  if (dim < 6)
    return names[dim];
  return "d" + std::to_string(dim);
}

std::vector<std::string> tlc::layout::inputNames(unsigned rank,
                                                 bool withRep) {
  std::vector<std::string> names;
  for (unsigned d = 0; d < rank; ++d)
    names.push_back(inputName(d));
  if (withRep)
    names.push_back("rep");
  return names;
}

VarRanges tlc::layout::rangesFor(llvm::ArrayRef<int64_t> shape,
                                 int64_t replicate) {
  VarRanges ranges;
  for (int64_t e : shape)
    ranges.push_back(IndexRange::extent(e));
  if (replicate > 0)
    ranges.push_back(IndexRange::extent(replicate));
  return ranges;
}

int64_t tlc::layout::numElements(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t e : shape)
    n *= e;
  return n;
}

void tlc::layout::forEachCoord(
    llvm::ArrayRef<int64_t> shape,
    llvm::function_ref<void(llvm::ArrayRef<int64_t>)> fn) {
  if (llvm::any_of(shape, [](int64_t e) { return e <= 0; }))
    return;
  std::vector<int64_t> coord(shape.size(), 0);
  while (true) {
    fn(coord);
    int d = static_cast<int>(shape.size()) - 1;
    while (d >= 0 && ++coord[d] == shape[d])
      coord[d--] = 0;
    if (d < 0)
      return;
  }
}

llvm::StringRef tlc::layout::stringifyLayoutKind(LayoutKind kind) {
  switch (kind) {
  case LayoutKind::Custom:
    return "custom";
  case LayoutKind::Linear:
    return "linear";
  case LayoutKind::Swizzle32B:
    return "swizzle 32B";
  case LayoutKind::Swizzle64B:
    return "swizzle 64B";
  case LayoutKind::Swizzle128B:
    return "swizzle 128B";
  case LayoutKind::Padded:
    return "padded";
  }
  return "custom";
}

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

llvm::Expected<Layout> Layout::get(std::vector<int64_t> inputShape,
                                   std::vector<IndexExpr> forward,
                                   LayoutKind kind) {
  for (int64_t e : inputShape)
    if (e <= 0)
      return makeError("layout input extents must be positive, got " +
                       llvm::Twine(e));
  VarRanges ranges = rangesFor(inputShape);
  for (IndexExpr &e : forward) {
    if (!e)
      return makeError("layout output is null");
    for (unsigned id : e.collectVars())
      if (id >= inputShape.size())
        return makeError("layout output '" + e.str() +
                         "' uses an input beyond rank " +
                         llvm::Twine(inputShape.size()));
    e = simplify(e, ranges);
  }
  Layout layout;
  layout.inputShape = std::move(inputShape);
  layout.forward = std::move(forward);
  layout.kind = kind;
  // Every output must be defined and non-negative on the tile; the largest
  // values give the output shape, computed once here because enumerating
  // the tile is what every later query would otherwise repeat. The facts
  // depend only on the shape and the outputs: reuse them when the same
  // layout was built before.
  std::string key;
  appendMemoKey(key, layout.inputShape);
  for (const IndexExpr &e : layout.forward)
    appendMemoKey(key, e);
  std::shared_ptr<const LayoutMemo> memo = lookupLayoutMemo(key);
  // Over 4M inputs (a layout annotated on a whole global tensor), the
  // output shape comes from the outputs' interval bounds when every output
  // has non-negative bounds, instead of seconds of enumeration. When one
  // has not (its bounds overflow int64, or may be negative), the layout is
  // an error: enumerating up to 2^40 inputs would not end (found by
  // tlc-fuzz-eval: the linear layout of a (128, 2^62) shared tile).
  int64_t inputs = numElementsSaturated(layout.inputShape);
  if (!memo && inputs > kMaxEnumeratedInputs) {
    auto fresh = std::make_shared<LayoutMemo>();
    for (const IndexExpr &e : layout.forward) {
      std::optional<IndexRange> b = bounds(e, ranges);
      if (!b || b->lo < 0 || b->hi == std::numeric_limits<int64_t>::max()) {
        fresh->error =
            "layout output '" + e.str() + "' may be negative or overflow " +
            "int64 on " +
            (inputs == std::numeric_limits<int64_t>::max()
                 ? std::string("more than 2^63")
                 : std::to_string(inputs)) +
            " inputs, too many to check one by one (the limit is " +
            std::to_string(kMaxEnumeratedInputs) + ")";
        break;
      }
      fresh->outputShape.push_back(b->hi + 1);
    }
    if (fresh->error.empty())
      fresh->compiled = std::vector<CompiledIndexExpr>(layout.forward.begin(),
                                                       layout.forward.end());
    memo = recordLayoutMemo(std::string(key), std::move(fresh));
  }
  if (!memo) {
    auto fresh = std::make_shared<LayoutMemo>();
    fresh->outputShape.assign(layout.forward.size(), 0);
    std::vector<CompiledIndexExpr> compiled(layout.forward.begin(),
                                            layout.forward.end());
    forEachCoord(layout.inputShape, [&](llvm::ArrayRef<int64_t> coord) {
      if (!fresh->error.empty())
        return;
      for (auto [d, c] : llvm::enumerate(compiled)) {
        std::optional<int64_t> v = c.evaluate(coord);
        if (v && *v >= 0) {
          fresh->outputShape[d] = std::max(fresh->outputShape[d], *v + 1);
          continue;
        }
        std::string at;
        for (int64_t x : coord)
          at += (at.empty() ? "" : ", ") + std::to_string(x);
        fresh->error = "layout output '" + layout.forward[d].str() +
                       (v ? "' is negative at ("
                          : "' is undefined (a division by zero or an int64 "
                            "overflow) at (") +
                       at + ")";
        return;
      }
    });
    if (fresh->error.empty())
      fresh->compiled = std::move(compiled);
    memo = recordLayoutMemo(std::move(key), std::move(fresh));
  }
  if (!memo->error.empty())
    return makeError(memo->error);
  layout.outputShape = memo->outputShape;
  layout.memo = std::move(memo);
  return layout;
}

Layout Layout::linear(llvm::ArrayRef<int64_t> shape) {
  IndexExpr offset = IndexExpr::constant(0);
  int64_t stride = 1;
  for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    offset = offset + IndexExpr::var(d, inputName(d)) * stride;
    stride *= shape[d];
  }
  llvm::Expected<Layout> l =
      get(shape.vec(), {offset}, LayoutKind::Linear);
  // Valid for positive extents only: callers check a tile first (an
  // extent of 0 is an error at its allocation).
  assert(l && "linear layout of a shape with an extent of 0 or less");
  return std::move(*l);
}

std::vector<int64_t> Layout::getOutputShape() const { return outputShape; }

std::optional<std::vector<int64_t>>
Layout::apply(llvm::ArrayRef<int64_t> coord) const {
  if (coord.size() != inputShape.size())
    return std::nullopt;
  for (auto [c, e] : llvm::zip(coord, inputShape))
    if (c < 0 || c >= e)
      return std::nullopt;
  std::vector<int64_t> out;
  for (const IndexExpr &e : forward) {
    std::optional<int64_t> v = e.evaluate(coord);
    if (!v)
      return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

/// Row-major flattening of \p coord in \p shape.
static int64_t flatten(llvm::ArrayRef<int64_t> coord,
                       llvm::ArrayRef<int64_t> shape) {
  int64_t flat = 0;
  for (auto [c, e] : llvm::zip(coord, shape))
    flat = flat * e + c;
  return flat;
}

std::optional<int64_t> Layout::applyFlat(llvm::ArrayRef<int64_t> coord) const {
  // The memo's compiled outputs: no expression tree walked, nothing
  // allocated (bank-conflict checks call this per lane of every access).
  if (memo && memo->compiled.size() == forward.size() &&
      coord.size() == inputShape.size()) {
    for (auto [c, e] : llvm::zip(coord, inputShape))
      if (c < 0 || c >= e)
        return std::nullopt;
    int64_t flat = 0;
    for (auto [e, extent] : llvm::zip(memo->compiled, outputShape)) {
      std::optional<int64_t> v = e.evaluate(coord);
      if (!v)
        return std::nullopt;
      flat = flat * extent + *v;
    }
    return flat;
  }
  std::optional<std::vector<int64_t>> out = apply(coord);
  if (!out)
    return std::nullopt;
  return flatten(*out, getOutputShape());
}

bool Layout::isInjective() const {
  if (memo) {
    int8_t known = memo->injective.load(std::memory_order_relaxed);
    if (known >= 0)
      return known == 1;
  }
  int64_t inputs = numElementsSaturated(inputShape);
  if (inputs > kMaxEnumeratedInputs)
    return true;
  std::vector<int64_t> outShape = getOutputShape();
  int64_t size = numElementsSaturated(outShape);
  std::vector<CompiledIndexExpr> compiled(forward.begin(), forward.end());
  // A bitmap over the physical box when it is not much larger than the
  // tile, else a hash set.
  bool dense = size <= std::max<int64_t>(inputs * 4, 1024);
  std::vector<bool> bitmap(dense ? size : 0, false);
  llvm::DenseSet<int64_t> seen;
  // A physical box of 2^63 places or more has no int64 flat index: the
  // places are kept as coordinates.
  bool wide = size == std::numeric_limits<int64_t>::max();
  std::set<std::vector<int64_t>> seenWide;
  std::vector<int64_t> out(forward.size());
  bool ok = true;
  forEachCoord(inputShape, [&](llvm::ArrayRef<int64_t> coord) {
    if (!ok)
      return;
    for (auto [d, c] : llvm::enumerate(compiled)) {
      // An output that cannot be computed (it overflows at this element)
      // gives the element no place: not an injective map.
      std::optional<int64_t> v = c.evaluate(coord);
      if (!v || *v < 0 || *v >= outShape[d]) {
        ok = false;
        return;
      }
      out[d] = *v;
    }
    if (wide) {
      ok = seenWide.insert(out).second;
      return;
    }
    int64_t flat = flatten(out, outShape);
    if (dense) {
      ok = !bitmap[flat];
      bitmap[flat] = true;
    } else {
      ok = seen.insert(flat).second;
    }
  });
  if (memo)
    memo->injective.store(ok ? 1 : 0, std::memory_order_relaxed);
  return ok;
}

bool Layout::isBijective() const {
  return isInjective() &&
         numElements(getOutputShape()) == numElements(inputShape);
}

llvm::Expected<Layout> Layout::compose(const Layout &next) const {
  if (getOutputRank() != next.getInputRank())
    return makeError("cannot compose: " + llvm::Twine(getOutputRank()) +
                     " outputs feed a layout of rank " +
                     llvm::Twine(next.getInputRank()));
  std::vector<int64_t> outShape = getOutputShape();
  for (unsigned d = 0; d < outShape.size(); ++d)
    if (outShape[d] > next.inputShape[d])
      return makeError("cannot compose: output " + llvm::Twine(d) +
                       " reaches " + llvm::Twine(outShape[d] - 1) +
                       " but the next layout's extent is " +
                       llvm::Twine(next.inputShape[d]));
  std::vector<IndexExpr> composed;
  for (const IndexExpr &e : next.forward)
    composed.push_back(substitute(e, forward));
  llvm::Expected<Layout> result = get(inputShape, composed);
  if (result) {
    result->elementBits = next.elementBits ? next.elementBits : elementBits;
  }
  return result;
}

Layout Layout::expand(llvm::ArrayRef<int64_t> leading) const {
  unsigned shift = leading.size();
  std::vector<IndexExpr> shifted(getInputRank());
  for (unsigned d = 0; d < getInputRank(); ++d)
    shifted[d] = IndexExpr::var(d + shift, inputName(d + shift));
  std::vector<IndexExpr> out;
  for (const IndexExpr &e : forward)
    out.push_back(substitute(e, shifted));
  IndexExpr lead = IndexExpr::constant(0);
  for (unsigned d = 0; d < shift; ++d)
    lead = lead * leading[d] + IndexExpr::var(d, inputName(d));
  std::vector<int64_t> shape(leading.begin(), leading.end());
  shape.insert(shape.end(), inputShape.begin(), inputShape.end());
  if (out.empty())
    out.push_back(lead);
  else
    out[0] = out[0] + lead * numElements(getOutputShape());
  llvm::Expected<Layout> l = get(shape, out, kind);
  assert(l && "expanding a valid layout stays valid");
  l->elementBits = elementBits;
  l->padding = padding;
  return std::move(*l);
}

llvm::Expected<std::vector<std::vector<int64_t>>>
Layout::invertTable() const {
  std::vector<int64_t> outShape = getOutputShape();
  int64_t size = numElements(outShape);
  if (size != numElements(inputShape))
    return makeError("layout is not a bijection: " +
                     llvm::Twine(numElements(inputShape)) +
                     " elements map into a physical box of " +
                     llvm::Twine(size));
  std::vector<std::vector<int64_t>> table(size);
  std::string clash;
  forEachCoord(inputShape, [&](llvm::ArrayRef<int64_t> coord) {
    std::vector<int64_t> out;
    for (const IndexExpr &e : forward)
      out.push_back(*e.evaluate(coord));
    int64_t flat = flatten(out, outShape);
    if (!table[flat].empty() && clash.empty())
      clash = std::to_string(flat);
    table[flat] = coord.vec();
  });
  if (!clash.empty())
    return makeError("layout is not injective: two coordinates map to "
                     "physical offset " +
                     clash);
  return table;
}

bool Layout::isEquivalentTo(const Layout &other) const {
  if (inputShape != other.inputShape ||
      forward.size() != other.forward.size())
    return false;
  // Structurally equal outputs (simplified alike on construction) agree
  // everywhere; only different formulas need the enumeration.
  if (forward == other.forward)
    return true;
  bool same = true;
  forEachCoord(inputShape, [&](llvm::ArrayRef<int64_t> coord) {
    if (!same)
      return;
    for (auto [a, b] : llvm::zip(forward, other.forward))
      if (a.evaluate(coord) != b.evaluate(coord))
        same = false;
  });
  return same;
}
