//===- LayoutPermutedAccesses.cpp - Fragments permuted by a loop --------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A `T.Parallel` loop may touch every element of a fragment exactly once
// through an index that is not the loop variables themselves:
//
//   for t, k in T.Parallel(64, 2):
//       y[t + 64 * k] = x[2 * t + k]
//
// Each access is a bijection from the iteration space onto the buffer. As
// TileLang does (it inverts the access map and composes the loop layout
// with the inverse), a fragment that has no layout yet takes the one the
// loop gives it: element e lives on the thread, in the register, of the one
// iteration touching it. The inverse is found for flat indices that are a
// mixed-radix numbering of the loop variables (`sum c_v * v` whose sorted
// coefficients are 1, L_0, L_0 * L_1, ...): iteration variable v is
// `(flat // c_v) % L_v` of the element's row-major flat index. The result
// is checked by enumeration before it is used.
//
//===----------------------------------------------------------------------===//

#include "LayoutSolver.h"

#include <algorithm>

using namespace tlc;
using namespace tlc::tile;
using namespace tlc::tile::detail;

std::optional<Fragment> Solver::permutedBufferFragment(const Access &a,
                                                       const Fragment &loop) {
  const BufferInfo &b = buffers[a.buffer];
  llvm::ArrayRef<int64_t> loopShape = loop.getInputShape();
  unsigned loopRank = loopShape.size();
  unsigned rank = b.shape.size();
  if (!a.index || a.index->size() != rank || rank == 0 ||
      layout::numElements(loopShape) != layout::numElements(b.shape))
    return std::nullopt;
  // The row-major flat index the access names, as a function of the loop
  // variables, and its value at the origin and at each unit step.
  IndexExpr flat = IndexExpr::constant(0);
  for (unsigned d = 0; d < rank; ++d)
    flat = flat * b.shape[d] + (*a.index)[d];
  std::vector<int64_t> point(loopRank, 0);
  std::optional<int64_t> origin = flat.evaluate(point);
  if (!origin || *origin != 0)
    return std::nullopt;
  struct Digit {
    unsigned var;
    int64_t coefficient;
  };
  std::vector<Digit> digits;
  for (unsigned v = 0; v < loopRank; ++v) {
    if (loopShape[v] == 1)
      continue;
    point.assign(loopRank, 0);
    point[v] = 1;
    std::optional<int64_t> c = flat.evaluate(point);
    if (!c || *c <= 0)
      return std::nullopt;
    digits.push_back({v, *c});
  }
  llvm::stable_sort(digits, [](const Digit &x, const Digit &y) {
    return x.coefficient < y.coefficient;
  });
  // A mixed-radix numbering: each coefficient is the product of the
  // extents of the digits below it.
  int64_t expected = 1;
  for (const Digit &digit : digits) {
    if (digit.coefficient != expected)
      return std::nullopt;
    expected *= loopShape[digit.var];
  }
  // Loop variable v of the iteration touching element (e_0, ..., e_r-1).
  IndexExpr element = IndexExpr::constant(0);
  for (unsigned d = 0; d < rank; ++d)
    element = element * b.shape[d] + IndexExpr::var(d, layout::inputName(d));
  std::vector<IndexExpr> inverse(loopRank + 1, IndexExpr::constant(0));
  for (const Digit &digit : digits)
    inverse[digit.var] = layout::floorMod(
        layout::floorDiv(element, digit.coefficient), loopShape[digit.var]);
  inverse[loopRank] = IndexExpr::var(rank, "rep");
  std::vector<IndexExpr> index;
  for (const IndexExpr &e : loop.getForwardIndex())
    index.push_back(substitute(e, inverse));
  IndexExpr thread = substitute(loop.getForwardThread(), inverse);
  // The affine reading of the index is only a guess: each element must
  // live exactly on the threads that run the iteration touching it.
  return fragmentFittingLoop(b.shape, std::move(index), thread, loop,
                             *a.index, threads, /*write=*/true);
}
