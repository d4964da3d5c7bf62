//===- LayoutAccessFits.cpp - Threads holding what a loop touches ---------===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A loop that reaches a fragment through an index other than its own
// variables (a part of the buffer, a shifted or held row) may keep the
// buffer's layout only when every thread running an iteration holds the
// element it touches, and, for a write, every holder of a written element
// writes it. Both are checked by enumerating the loop's iterations against a
// table of which threads hold which element; the table is built once per
// (loop, buffer) pair, however many index forms are checked against it.
//
//===----------------------------------------------------------------------===//

#include "LayoutSolver.h"

#include "llvm/ADT/DenseSet.h"

using namespace tlc;
using namespace tlc::tile;
using namespace tlc::tile::detail;

AccessFitChecker::AccessFitChecker(const Fragment &loop,
                                   const Fragment &buffer)
    : loop(loop), shape(buffer.getInputShape()),
      threadCount(std::max(loop.getThreadExtent(), buffer.getThreadExtent())) {
  int64_t elements = layout::numElements(shape);
  holders.assign(elements * threadCount, false);
  layout::forEachCoord(shape, [&](llvm::ArrayRef<int64_t> c) {
    int64_t flat = 0;
    for (auto [x, extent] : llvm::zip(c, shape))
      flat = flat * extent + x;
    for (int64_t r = 0; r < buffer.getReplicate(); ++r)
      if (std::optional<layout::FragmentSlot> s = buffer.apply(c, r))
        holders[flat * threadCount + s->thread] = true;
  });
}

bool AccessFitChecker::fits(llvm::ArrayRef<IndexExpr> index, bool write) {
  std::vector<layout::CompiledIndexExpr> compiled;
  for (const IndexExpr &e : index)
    compiled.emplace_back(e);
  // For a write: the (element, thread) pairs written, and the elements.
  llvm::DenseSet<int64_t> writers;
  llvm::SmallVector<int64_t> written;
  bool ok = true;
  layout::forEachCoord(loop.getInputShape(), [&](llvm::ArrayRef<int64_t> p) {
    if (!ok)
      return;
    int64_t flat = 0;
    for (auto [e, extent] : llvm::zip(compiled, shape)) {
      std::optional<int64_t> x = e.evaluate(p);
      if (!x) {
        ok = false;
        return;
      }
      // An iteration outside the buffer touches no element a thread holds
      // (TileLang does not reject it either).
      if (*x < 0 || *x >= extent)
        return;
      flat = flat * extent + *x;
    }
    for (int64_t r = 0; r < loop.getReplicate(); ++r) {
      int64_t t = loop.apply(p, r)->thread;
      if (!holders[flat * threadCount + t]) {
        ok = false;
        return;
      }
      if (write && writers.insert(flat * threadCount + t).second)
        written.push_back(flat);
    }
  });
  if (!ok || !write)
    return ok;
  // No holder of a written element may keep a stale copy.
  for (int64_t flat : written)
    for (int64_t t = 0; t < threadCount; ++t)
      if (holders[flat * threadCount + t] &&
          !writers.contains(flat * threadCount + t))
        return false;
  return true;
}

bool tlc::tile::detail::accessFits(const Fragment &loop,
                                   llvm::ArrayRef<IndexExpr> index,
                                   const Fragment &buffer, bool write) {
  return AccessFitChecker(loop, buffer).fits(index, write);
}

std::optional<Fragment> tlc::tile::detail::fragmentFittingLoop(
    llvm::ArrayRef<int64_t> shape, std::vector<IndexExpr> index,
    IndexExpr thread, const Fragment &loop, llvm::ArrayRef<IndexExpr> access,
    int64_t threads, bool write) {
  llvm::Expected<Fragment> f =
      Fragment::get(std::vector<int64_t>(shape.begin(), shape.end()),
                    std::move(index), std::move(thread), loop.getReplicate(),
                    loop.getOrigin());
  if (!f) {
    llvm::consumeError(f.takeError());
    return std::nullopt;
  }
  if (llvm::Error err = f->verify(threads)) {
    llvm::consumeError(std::move(err));
    return std::nullopt;
  }
  if (!accessFits(loop, access, *f, write))
    return std::nullopt;
  return std::move(*f);
}
