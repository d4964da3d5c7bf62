//===- FragmentExchangePlan.h - Fragments through shared memory -*- C++ -*-===//
//
// Part of the tlc project.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Which fragments a `T.Parallel` and a fragment copy exchange through the
// shared exchange area: a loop that reads or writes a fragment at elements
// its threads do not hold in their registers (another thread's layout, an
// index that is not a loop variable, a loop no fragment partitions) has
// every thread store its registers of that fragment into a row-major
// shared tile first, works on the tile, and loads the registers back
// after it when it writes the fragment; a copy between fragments laid out
// differently goes through such a tile too. Whether an access needs it
// follows from the fragment layouts tile-assign-fragment-layouts recorded
// (FragmentLayouts.h) and the loops' partitions (ParallelPlan.h):
// chooseFragmentExchanges decides; tile-plan-fragment-exchanges records
// the choice on the ops, and the printer, the scratch-area measurement
// and the editor's exchange hints read it (getFragmentExchanges,
// isExchangedCopy). The printer calls the same function with the layouts
// it fitted, to check a recorded plan and for IR that did not go through
// the pass.
//
//===----------------------------------------------------------------------===//

#ifndef TLC_DIALECT_TILE_TRANSFORMS_FRAGMENTEXCHANGEPLAN_H
#define TLC_DIALECT_TILE_TRANSFORMS_FRAGMENTEXCHANGEPLAN_H

#include "tlc/Dialect/Tile/IR/IndexIntervals.h"
#include "tlc/Dialect/Tile/IR/TileOps.h"
#include "tlc/Layout/FragmentRegisters.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

#include <utility>
#include <vector>

namespace tlc::tile {

/// The kernel attribute of a kernel whose exchanges the pass recorded (an
/// op without a plan then exchanges nothing).
inline constexpr llvm::StringLiteral kExchangesPlanned =
    "tile.exchanges_planned";

/// The exchanges of one kernel: each `tile.parallel` or fragment
/// `tile.copy` that exchanges, with the fragments it exchanges, in the
/// order of their tiles in the exchange area (a copy: its source).
using FragmentExchanges = std::vector<
    std::pair<mlir::Operation *, llvm::SmallVector<mlir::Value, 1>>>;

/// The fragment a load or store of a `tile.parallel` body accesses when it
/// accesses it directly (not through a `tile.region`), else null.
mlir::Value directFragmentOf(mlir::Operation *access);

/// Records \p exchanges on the ops of \p kernel and marks it planned
/// (kExchangesPlanned): on every direct fragment access of a loop whose
/// fragment the loop exchanges, `tile.exchange_tile = K : i64`, the
/// fragment's tile in the loop's exchange area (0 first); the unit
/// `tile.exchanged` on a copy that goes through the area. Plans already on
/// the kernel's ops are replaced.
void setFragmentExchanges(KernelOp kernel, const FragmentExchanges &exchanges);

/// The fragments \p loop exchanges, by tile (empty: none). Fails, with an
/// error at the access, on a plan the printer cannot follow: a tile index
/// that is not a non-negative integer, one on an access that is no direct
/// fragment access of the loop (through a view or region, of another
/// memory), two tiles for one fragment, one tile for two fragments, a
/// direct access of an exchanged fragment without its tile, tiles that do
/// not number 0..n-1.
mlir::FailureOr<llvm::SmallVector<mlir::Value, 1>>
getFragmentExchanges(ParallelOp loop);

/// Whether the plan sends \p copy through the exchange area. Fails, with
/// an error at the copy, when `tile.exchanged` is not a unit attribute or
/// stands on a copy whose source or destination is no whole fragment.
mlir::FailureOr<bool> isExchangedCopy(CopyOp copy);

/// The layout of fragment \p buffer (a fragment allocation or view) as the
/// GPU code indexes it, std::nullopt for any other buffer.
using FragmentLookup =
    llvm::function_ref<std::optional<layout::IndexedFragment>(mlir::Value)>;

/// A `tile.parallel` whose fragment accesses are all reads of one fragment
/// at its variables plus offsets the loop does not change (and reads of
/// fragments every thread holds whole): the printer runs it over the
/// fragment's own slots, every read in the reading thread's registers, and
/// it exchanges nothing. Sparse MLA backward's `S[bi, d] = acc[bi + s * 16,
/// d]` under `if bi < 16`.
struct ShiftedLoop {
  /// The fragment read at shifted indices.
  mlir::Value root;
  /// Per loop variable: the offset (null: none), integer arithmetic of
  /// values defined outside the loop and constants.
  llvm::SmallVector<mlir::Value> offsets;
  /// Per loop variable: the iterations that can do anything (a body that
  /// is one `if v < C` runs only [0, C)).
  llvm::SmallVector<int64_t> extents;
  /// The reads of `root`, each at the loop variables plus the offsets.
  llvm::SmallVector<mlir::Operation *> loads;
};

/// \p loop as a ShiftedLoop: static extents, at least one offset, every
/// offset's range (\p intervals) keeping the indices inside the fragment;
/// \p threads: the block's thread count (whole-in-every-thread reads).
std::optional<ShiftedLoop> matchShiftedLoop(ParallelOp loop,
                                            FragmentLookup fragments,
                                            int64_t threads,
                                            IndexIntervals &intervals);

/// Whether \p v is integer arithmetic (add, sub, mul; at most 16 deep) of
/// constants and values defined outside \p loop: an offset the loop does
/// not change.
bool isLoopInvariantOffset(mlir::Value v, ParallelOp loop);

/// The exchanges \p kernel of \p threads threads needs with the fragment
/// layouts \p fragments, in program order, loops first. A loop exchanges
/// each fragment it accesses directly at elements its threads do not hold:
/// with no fragment partitioning the loop (its `tile.partition`, else
/// chooseParallelPlan) or at indices that are not its variables, every
/// fragment except one it only reads and every thread holds whole
/// (layout::isWholeInEveryThread); at its variables, a fragment whose
/// registers do not follow the partitioning fragment's inside the loop's
/// box (layout::mapRegisters). A loop matchShiftedLoop accepts exchanges
/// nothing. A copy between whole fragments exchanges its source when the
/// destination's registers do not follow the source's.
FragmentExchanges chooseFragmentExchanges(KernelOp kernel,
                                          FragmentLookup fragments,
                                          int64_t threads,
                                          IndexIntervals &intervals);

/// For a whole-fragment copy from shape \p src to shape \p dst (equal
/// once dimensions of extent 1 are dropped, as T.copy allows): per \p src
/// dimension, the \p dst dimension it runs along (layout::kUnitAccessDim
/// for a unit one), as layout::mapRegisters takes them with \p dst as the
/// loop. std::nullopt when the shapes disagree.
std::optional<llvm::SmallVector<unsigned>>
fragmentCopyDims(llvm::ArrayRef<int64_t> src, llvm::ArrayRef<int64_t> dst);

} // namespace tlc::tile

#endif // TLC_DIALECT_TILE_TRANSFORMS_FRAGMENTEXCHANGEPLAN_H
