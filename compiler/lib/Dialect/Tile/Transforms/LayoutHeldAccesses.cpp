//===- LayoutHeldAccesses.cpp - Fragment dimensions a loop holds whole ----===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A `T.Parallel` loop may index a fragment with a value it does not change:
//
//   for k in T.serial(S):
//       for i in T.Parallel(M):
//           part[i] = lse[k, i]
//
// Which row is read is known only when the kernel runs, so each thread that
// runs iteration i must hold lse[k, i] for every k: as TileLang does, such a
// "held" dimension is kept whole in the registers of the threads the other
// dimensions give (thread of i, register k * regs + register of i). A loop
// may also take its layout from such a buffer when every row gives the same
// one.
//
//===----------------------------------------------------------------------===//

#include "LayoutSolver.h"

using namespace mlir;
using namespace tlc;
using namespace tlc::tile;
using namespace tlc::tile::detail;

/// The most held-dimension values enumerated for one access.
static constexpr int64_t kMaxHeldValues = 256;

/// Calls \p fn with the index of \p a at each value of its held dimensions
/// (all of them, up to kMaxHeldValues); returns false when there are more
/// or \p fn returns false.
template <typename Fn>
static bool forEachHeldIndex(const Access &a, llvm::ArrayRef<int64_t> shape,
                             Fn fn) {
  int64_t count = 1;
  for (unsigned d : a.held) {
    count *= shape[d];
    if (count > kMaxHeldValues)
      return false;
  }
  std::vector<IndexExpr> index = *a.heldIndex;
  for (int64_t n = 0; n < count; ++n) {
    int64_t rest = n;
    for (unsigned d : llvm::reverse(a.held)) {
      index[d] = IndexExpr::constant(rest % shape[d]);
      rest /= shape[d];
    }
    if (!fn(llvm::ArrayRef<IndexExpr>(index)))
      return false;
  }
  return true;
}

std::optional<Fragment> Solver::heldBufferFragment(const Access &a,
                                                   const Fragment &loop) {
  const BufferInfo &b = buffers[a.buffer];
  // The other dimensions as completeBufferFragment() lays them out, each
  // held dimension first a unit one read at 0...
  std::vector<int64_t> unit = b.shape;
  for (unsigned d : a.held)
    unit[d] = 1;
  llvm::Expected<Fragment> f =
      layout::completeBufferFragment(loop, *a.heldIndex, unit);
  if (!f) {
    llvm::consumeError(f.takeError());
    return std::nullopt;
  }
  // ...then tiled to its extent in the registers.
  Fragment result = std::move(*f);
  for (unsigned d : a.held)
    result = result.repeat(d, b.shape[d], /*onThread=*/false);
  if (llvm::Error err = result.verify(threads)) {
    llvm::consumeError(std::move(err));
    return std::nullopt;
  }
  return result;
}

bool Solver::heldAccessFits(const Access &a, const Fragment &loop,
                            const Fragment &buffer) {
  AccessFitChecker checker(loop, buffer);
  return forEachHeldIndex(a, buffers[a.buffer].shape,
                          [&](llvm::ArrayRef<IndexExpr> index) {
                            return checker.fits(index, a.write);
                          });
}

std::optional<Fragment> Solver::heldLoopLayout(const Node &n,
                                               const Access &a) {
  const BufferInfo &b = buffers[a.buffer];
  std::optional<Fragment> first;
  bool same = forEachHeldIndex(
      a, b.shape, [&](llvm::ArrayRef<IndexExpr> index) {
        llvm::Expected<Fragment> f =
            layout::loopLayoutFromBuffer(*b.fragment, index, n.loopShape);
        if (!f) {
          llvm::consumeError(f.takeError());
          return false;
        }
        if (!first) {
          first = std::move(*f);
          return true;
        }
        return first->isEquivalentTo(*f);
      });
  if (!same)
    return std::nullopt;
  return first;
}

LogicalResult Solver::completeHeld(unsigned id, const Access &a,
                                   InferLevel level) {
  Node &n = nodes[id];
  BufferInfo &b = buffers[a.buffer];
  // A buffer that already holds what the loop touches keeps its layout.
  if (b.fragment && heldAccessFits(a, *n.loopLayout, *b.fragment))
    return success();
  std::optional<Fragment> derived = heldBufferFragment(a, *n.loopLayout);
  if (!derived)
    return success();
  if (b.fragment) {
    // A layout given elsewhere that does not hold the rows stays unless
    // the held one extends it: the back ends then move the rows between
    // threads (through shared memory on CUDA), as for any access through
    // an index that is not a loop variable.
    if (b.pinned || b.level == InferLevel::Strict ||
        !derived->contains(*b.fragment))
      return success();
  }
  bool hadLayout = b.fragment.has_value();
  std::optional<Fragment> before = b.fragment;
  if (failed(setFragment(a.buffer, std::move(*derived), n.op, level,
                         !a.write)))
    return failure();
  if (!hadLayout || !before->isEquivalentTo(*b.fragment))
    enqueueUsers(a.buffer, id);
  return success();
}
