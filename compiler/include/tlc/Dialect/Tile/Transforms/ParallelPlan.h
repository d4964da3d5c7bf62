//===- ParallelPlan.h - Which threads run a tile.parallel's iterations ----===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The thread partition of a `tile.parallel` (T.Parallel) on the CUDA and HIP
// targets: whether its iterations follow the layout of a fragment the body
// accesses at the loop variables (which access, which fragment dimension
// each loop variable runs along, and the leading box of the fragment the
// loop covers), are dealt out over the block's threads (static extents),
// run in a loop striding by the thread count (extents known at run time),
// or run whole by every thread (a loop over per-thread buffers).
// tile-plan-parallel-loops records the choice on each loop (Passes.td has
// the attributes); the GPU printer reads it. The printer falls back to
// chooseParallelPlan() only for IR that did not go through the pass, so the
// decision has this one implementation.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_PARALLELPLAN_H
#define TLC_DIALECT_TILE_TRANSFORMS_PARALLELPLAN_H

#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Layout/Fragment.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace tlc {
namespace tile {

/// How a `tile.parallel`'s iterations are spread over the block's threads
/// (`tile.partition`).
enum class ParallelPartition {
  /// Each iteration runs on the thread (and register) of one fragment's
  /// layout that holds the element the partitioning access touches.
  Fragment,
  /// No fragment at exactly the loop variables, static extents: the
  /// iterations, flattened row-major, go round-robin over the threads in
  /// ParallelPlan::regs rounds. (The
  /// printer runs a loop whose fragment reads are the loop variables plus
  /// invariant offsets over that fragment's slots instead, a choice that
  /// needs its fragment layouts.)
  Threads,
  /// Extents known only at run time: a loop striding by the thread count.
  Strided,
  /// A loop the program gave its own layout (`T.Parallel(...,
  /// loop_layout=F)`, marked `tile.loop_layout_given`) that touches no
  /// fragment: iteration x runs on F's thread of x, in F's register slot.
  Layout,
  /// A loop that touches no fragment and stores into a T.alloc_local
  /// buffer, or touches only T.alloc_local buffers: every thread runs
  /// every iteration over its own copies (TileLang does not partition it).
  Whole,
};

/// Whether every thread runs every iteration of \p loop
/// (ParallelPartition::Whole): it touches no fragment and stores into a
/// T.alloc_local buffer, or touches only T.alloc_local buffers.
bool runsWholeInEachThread(ParallelOp loop);

/// A loop variable read as a unit dimension's 0 in loopAccessDims().
constexpr unsigned kUnitLoopDim = ~0u;

/// The plan of one loop (`tile.partition`, `tile.loop_dims`,
/// `tile.loop_box`, the access marked `tile.partitions_loop`,
/// `tile.loop_regs`, `tile.loop_guard`).
struct ParallelPlan {
  ParallelPartition partition = ParallelPartition::Threads;
  /// Fragment: the tile.load / tile.store whose buffer (a fragment
  /// allocation or view of the kernel) partitions the loop.
  mlir::Operation *access = nullptr;
  /// Fragment: the fragment dimension each loop variable runs along.
  llvm::SmallVector<unsigned> dims;
  /// Fragment: empty when the loop covers the fragment's dimensions whole;
  /// else the loop's extents, a leading box of the fragment (dims is the
  /// identity), whose other slots the threads skip.
  llvm::SmallVector<int64_t> box;
  /// Threads: the rounds R of the loop's T threads (`tile.loop_regs`):
  /// thread t runs flat iterations t + r * T, r < R; none when the
  /// kernel's thread count is not static.
  std::optional<int64_t> regs;
  /// Threads: R * T passes the iteration count, so each round tests
  /// `t + r * T < count` (`tile.loop_guard`).
  bool guard = false;
};

/// The threads that share \p loop's iterations: those of the warp-aligned
/// thread range that runs it (threadRangeOf: `T.ws(g)`, `tx < c`, ...),
/// else the kernel's; 0 when the kernel's thread count is not static.
int64_t parallelLoopThreads(ParallelOp loop);

/// Whether \p buffer has a fragment layout of its own on the GPU targets: the
/// result of a `tile.alloc` or `tile.view` of `local.fragment` scope (not a
/// `tile.region` of one).
bool isLaidOutFragment(mlir::Value buffer);

/// The loop variable of \p loop each index of the tile.load / tile.store
/// \p access reads, kUnitLoopDim for a unit dimension read at constant 0;
/// nothing when an index is another expression.
std::optional<llvm::SmallVector<unsigned>>
loopAccessDims(ParallelOp loop, mlir::Operation *access);

/// The partition of \p loop. A loop with static extents takes, in this
/// order of preference, a laid-out fragment it accesses at exactly its
/// variables over its whole shape; one it accesses at its variables over a
/// leading box (extents at most the fragment's); one accessed at its
/// variables in order with unit dimensions read at 0 between them
/// (`m[i, 0]` of an [M, 1] fragment); one accessed at a permutation of its
/// variables over its whole shape (`s[j, i]` under T.Parallel(I, J)).
/// Only accesses whose closest enclosing tile.parallel is \p loop count.
/// A loop with a layout of the program's own (givenLoopLayout) and no
/// fragment in its body follows that layout.
ParallelPlan chooseParallelPlan(ParallelOp loop);

/// The layout the program gave \p loop (`T.Parallel(..., loop_layout=F)`:
/// the evaluator marks it `tile.loop_layout_given`, as layout inference
/// writes `loop_layout` on every loop), when it is a fragment over the
/// loop's static extents.
std::optional<layout::Fragment> givenLoopLayout(ParallelOp loop);

/// Records \p plan on \p loop (and marks its access) as
/// tile-plan-parallel-loops' attributes.
void setParallelPlan(ParallelOp loop, const ParallelPlan &plan);

/// The plan tile-plan-parallel-loops recorded on \p loop, if any; an error
/// on the loop (and failure) when it is malformed: an unknown partition, a
/// fragment partition without exactly one marked access of a laid-out
/// fragment, dimensions that do not map the loop variables one-to-one onto
/// the access's fragment dimensions of the same extents, a box that is not
/// the loop's extents inside the fragment, a marked access outside a
/// fragment partition, rounds outside a partition over the threads (or
/// negative, or a guard without them), or a partition that does not
/// fit the extents. Whether the rounds cover the loop is the printer's
/// check, against the threads it partitions over.
mlir::FailureOr<std::optional<ParallelPlan>> getParallelPlan(ParallelOp loop);

/// The name of \p partition as `tile.partition` spells it.
llvm::StringRef stringifyParallelPartition(ParallelPartition partition);

} // namespace tile
} // namespace tlc

#endif // TLC_DIALECT_TILE_TRANSFORMS_PARALLELPLAN_H
