//===- Propagation.h - Deriving layouts from other layouts -------*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The building blocks of layout inference that do not need IR: how a
// reduction, a `T.Parallel` loop or a copy carries a fragment layout from one
// buffer to another, how a layout is chosen freely when nothing imposes one,
// and how two proposals for the same buffer are reconciled. The inference
// pass over Tile IR (`tlc-opt --tile-infer-layout`) walks the ops and calls
// these functions; it owns the work queue and the diagnostics' locations.
//
// TileLang's three levels map onto this API as follows:
//  * strict:  layoutForGemmOperand() (GemmLayouts.h), user annotations;
//  * common:  loopLayoutFromBuffer(), completeBufferFragment(),
//             reduceFragment();
//  * free:    planLoopPartition() / defaultFragment(), ranked by
//             registerCost().
// mergeFragments() / mergeSharedLayouts() decide conflicts.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_LAYOUT_PROPAGATION_H
#define TLC_LAYOUT_PROPAGATION_H

#include "tlc/Layout/Fragment.h"
#include "tlc/Layout/IndexExpr.h"

#include "llvm/Support/Error.h"

namespace tlc {
namespace layout {

/// The layout of `dst = reduce(src, dim)`: src's layout with dimension
/// \p dim removed. Every thread that held some element of a reduced row
/// holds the result, so the replication grows by the number of distinct
/// threads the row was spread over (not by its length), and each thread
/// keeps one register per result element it holds. Fails when the thread
/// map mixes the reduced coordinate with other inputs in a way that is not a
/// sum of digits (`(x // a) % m`) of it.
llvm::Expected<Fragment> reduceFragment(const Fragment &src, unsigned dim);

/// The layout of a reduction result that keeps the reduced dimension with
/// extent 1 (`T.reduce_max(x, m, dim=1)` into an [M, 1] fragment):
/// reduceFragment() of \p src with a unit dimension put back at \p dim,
/// which no thread or register depends on.
llvm::Expected<Fragment> reduceFragmentKeepDim(const Fragment &src,
                                               unsigned dim);

/// The layout of `T.reshape(src, shape)` / `T.view` of a fragment laid out
/// as \p src: the same registers of the same threads, indexed by the new
/// shape \p shape (row-major linearisation of the new coordinate,
/// delinearised into \p src's). Each thread keeps its elements in the same
/// registers, so the view is a re-indexing. Fails when the element counts
/// differ or the result is not a valid fragment with \p src's register
/// shape.
llvm::Expected<Fragment> reshapeFragment(const Fragment &src,
                                         llvm::ArrayRef<int64_t> shape);

/// The layout of a `T.Parallel` loop of \p loopShape that accesses a buffer
/// laid out as \p buffer at `buffer[access...]`, where \p access are
/// expressions over the loop variables (ids 0 .. loopRank-1). When the access
/// is exactly the loop variables the loop takes the buffer's layout;
/// otherwise thread and index are the buffer's composed with the access.
/// When several iterations read one element (`b[i, j // 2]`, or a loop
/// variable the access does not use), they run on its thread, each in a
/// register of its own (the buffer's register, then `j % 2` or the unused
/// variable). Fails for an index outside the buffer, or when no such
/// numbering is injective.
llvm::Expected<Fragment> loopLayoutFromBuffer(const Fragment &buffer,
                                              llvm::ArrayRef<IndexExpr> access,
                                              llvm::ArrayRef<int64_t> loopShape);

/// The layout of another fragment buffer accessed in a loop whose layout is
/// \p loop, as `buffer[access...]`. Each access expression must be a
/// distinct loop variable; loop variables the access does not use become
/// replication (a row vector read in a 2-D loop is replicated over the
/// threads that share its row). \p bufferShape must match the extents of the
/// accessed loop variables.
llvm::Expected<Fragment>
completeBufferFragment(const Fragment &loop, llvm::ArrayRef<IndexExpr> access,
                       llvm::ArrayRef<int64_t> bufferShape);

/// TileLang's free partition of a loop nest: flatten the iteration space
/// row-major to f, then `thread = (f // v) % threads` and
/// `index = (f // (v * threads)) * v + f % v`, i.e. consecutive v-element
/// chunks go to consecutive threads. Requires threads * v to divide the
/// trip count.
llvm::Expected<Fragment> planLoopPartition(llvm::ArrayRef<int64_t> loopShape,
                                           int64_t threads,
                                           int64_t vectorWidth);

/// planLoopPartition() over \p threads threads whose v-element chunks
/// need not divide among them: the same formulas, so thread t runs chunks
/// t, t + threads, ... and the last round leaves some threads without one
/// (their slot of that register is unused; the loop is guarded there, as
/// TileLang partitions a loop whose trip count the threads do not divide).
/// Requires \p vectorWidth to divide the trip count.
llvm::Expected<Fragment>
planGuardedLoopPartition(llvm::ArrayRef<int64_t> loopShape, int64_t threads,
                         int64_t vectorWidth);

/// A partition of a tile of \p shape over \p threads that a reduction over
/// dimension \p dim can shuffle: the reduced index's low digit x % a
/// (a the largest power of two dividing both its extent and the threads)
/// takes the low thread bits, the other dimensions' row-major flat index o
/// the rest, `thread = x % a + a * (o % b)`, b = threads / a, registers
/// `(x / a) * P + o / b`, P = ceil(O / b) rounded up to a power of two (the
/// slots past O are empty: the last round guarded). For the tiles whose plain
/// partition mixes the reduced index into other thread digits (a 48 x 40 column
/// sum on 128 threads:
/// `(40 i + j) % 128`). Where o is not linear in the bits of the
/// coordinates (an other dimension but the outermost not a power of two: a
/// 12 x 24 x 20 middle sum, o = 20 i + k) the b groups are split per
/// dimension instead, each dimension's rounds one register digit, all but
/// the highest padded to a power of two (the split with the fewest
/// registers whose reduced result stays linear). An error when b does not
/// divide the threads or exceeds O (threads would hold nothing), or no
/// split serves.
llvm::Expected<Fragment> planReduciblePartition(llvm::ArrayRef<int64_t> shape,
                                                int64_t threads, unsigned dim);

/// The widest vector width (power of two, at most 128 bits of
/// \p elemBits-wide elements) that divides the innermost extent and for
/// which threads * v divides the trip count; at least 1.
int64_t chooseVectorWidth(llvm::ArrayRef<int64_t> shape, unsigned elemBits,
                          int64_t threads);

/// The free-mode layout of a fragment buffer that nothing constrains:
/// planLoopPartition() with chooseVectorWidth(), or with the last round
/// guarded when the threads do not divide the tile (defaultFragmentWithin).
Fragment defaultFragment(llvm::ArrayRef<int64_t> shape, unsigned elemBits,
                         int64_t threads);
/// The most (threads x elements) slots a fragment held whole by every
/// thread may take: layout inference and the CUDA/HIP printers refuse a
/// larger one instead of tabulating it (tlc-fuzz-eval found a (3**12,)
/// fragment on 256 threads that took 7 GiB).
constexpr int64_t kMaxReplicatedSlots = int64_t(1) << 22;

/// Fragment::fullyReplicated(\p shape, \p threads), or std::nullopt when
/// it would take more than \p maxSlots (threads x elements) slots. Answered
/// before any enumeration, without overflow.
std::optional<Fragment>
fullyReplicatedWithin(llvm::ArrayRef<int64_t> shape, int64_t threads,
                      int64_t maxSlots = kMaxReplicatedSlots);

/// defaultFragment(), or std::nullopt when it would be fully replicated over
/// more than \p maxSlots (threads x elements) slots. A tile whose elements
/// the threads do not divide is partitioned with its last round guarded
/// (planGuardedLoopPartition(), chunks of chooseVectorWidth() over one
/// thread: some slots of the last round hold no element); without
/// \p guarded it is held whole by every thread. Answered before any
/// enumeration.
std::optional<Fragment> defaultFragmentWithin(llvm::ArrayRef<int64_t> shape,
                                              unsigned elemBits,
                                              int64_t threads, int64_t maxSlots,
                                              bool guarded = true);

/// Whether \p f leaves some (thread, register) slots without an element
/// (a guarded partition's last round), from its shape and register count.
bool hasEmptySlots(const Fragment &f);

/// TileLang's register-count cost of a candidate: registers per thread.
int64_t registerCost(const Fragment &fragment);

/// Index of the cheapest candidate (first on ties); -1 when empty.
int chooseCheapest(llvm::ArrayRef<Fragment> candidates);

/// How strongly a proposal binds (TileLang's inference levels).
enum class InferLevel : uint8_t { Strict, Common, Free };

/// Reconciles \p existing and \p incoming proposals for one buffer: equal
/// layouts agree; below the strict level, an incoming layout that contains
/// the existing one (every thread keeps what it held) replaces it, unless
/// the two hold the same elements on every thread and the existing one
/// needs no more registers (the choice is then the same in either order);
/// anything else is a conflict whose message names both labels.
llvm::Expected<Fragment> mergeFragments(const Fragment &existing,
                                        const Fragment &incoming,
                                        InferLevel level);

} // namespace layout
} // namespace tlc

#endif // TLC_LAYOUT_PROPAGATION_H
